/* Every kernel of the plugin at every value of its parameters, every dtype
 * it declares, transpose and edge shape, on one device; combinations over
 * the device's limits must be refused, naming the limit. */
#ifndef GEMMHOST_TEST_VULKAN_SWEEP_H
#define GEMMHOST_TEST_VULKAN_SWEEP_H

#include "gemm_case.h"

/* Which parameter combinations run. */
typedef enum sweep_scope {
    SWEEP_QUICK,  /* each kernel at its defaults, nn and tt only */
    SWEEP_SAMPLE, /* each kernel at its defaults and at the few other sets
                     that take each of its code paths (sweep.c's
                     in_sample), every transpose (on a software
                     device warptile's default at nn and tt only): what
                     CI runs */
    SWEEP_ALL,    /* every combination */
} sweep_scope;

/* half: the device runs f16 and bf16 (half_checks.h's half_supported); else
 * they are left out. shard of shards: only every shards-th parameter
 * combination, from the shard-th (0 of 1: all), so that processes side by
 * side share the sweep. */
void sweep(const plugin *pl, int device, sweep_scope scope, int half, int shard, int shards);

#endif
