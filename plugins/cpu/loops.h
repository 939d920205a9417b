/* The C plugin's GEMM loops, one pair (naive, tiled) per dtype. */
#ifndef GEMMHOST_CPU_LOOPS_H
#define GEMMHOST_CPU_LOOPS_H

#include "gemmhost/plugin.h"

/* Base pointers already include the element offsets. rows [row_begin,
 * row_end) of C are computed, so threads can split C by rows. `tile` is
 * ignored by the naive loop. Returns 0, or -1 when scratch memory ran out. */
typedef struct cpu_gemm_job {
    const gh_gemm_args *args;
    const void *a, *b;
    void *c;
    int64_t row_begin, row_end;
    int64_t tile;
} cpu_gemm_job;

int cpu_gemm_naive(const cpu_gemm_job *job);
int cpu_gemm_tiled(const cpu_gemm_job *job);

#endif
