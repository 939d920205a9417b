/* The C plugin's GEMM loops, one pair (naive, tiled) per dtype or
 * type combination. */
#ifndef GEMMHOST_CPU_LOOPS_H
#define GEMMHOST_CPU_LOOPS_H

#include "gemmhost/plugin.h"
#include "gemmhost/plugin_helpers.h"

/* Base pointers already include the element offsets. rows [row_begin,
 * row_end) of C are computed, so threads can split C by rows. `tile` is
 * ignored by the naive loop. Returns 0, or -1 when scratch memory ran out. */
typedef struct cpu_gemm_job {
    const gh_gemm_args *args;
    gh_plugin_gemm_types types; /* A's, B's and C's element types, the scales */
    const void *a, *b;
    void *c;
    int64_t row_begin, row_end;
    int64_t tile;
} cpu_gemm_job;

int cpu_gemm_naive(const cpu_gemm_job *job);
int cpu_gemm_tiled(const cpu_gemm_job *job);
/* The same for 8-bit A and B (loops8.c): FP8 with an f32, f16 or bf16 C,
 * i8 with an i32 C. */
int cpu_gemm8_naive(const cpu_gemm_job *job);
int cpu_gemm8_tiled(const cpu_gemm_job *job);

#endif
