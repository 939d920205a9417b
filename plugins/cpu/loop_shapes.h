/* The two loop shapes every C-plugin GEMM runs (loops.c for f32/f64/i32/
 * f16/bf16, loops8.c for 8-bit), once: naive_SUFFIX (the seed's serial
 * loop, one element of C at a time) and tiled_SUFFIX (cache blocking: a
 * tile-row strip of accumulators stays in cache while tile x tile blocks of
 * A and B stream past it; the innermost loop walks a row of the strip,
 * contiguous in memory). Over the job's rows.
 *   S         the stored type of A and B
 *   T         the accumulator
 *   SETUP     a statement declaring what LOAD_A, LOAD_B and STORE use
 *   LOAD_A/B  a stored element to a T
 *   STORE     STORE(job, i, j, acc) writes C's element (i, j) from its sum */
#ifndef GEMMHOST_CPU_LOOP_SHAPES_H
#define GEMMHOST_CPU_LOOP_SHAPES_H

#include <stdlib.h>

#include "loops.h"

/* Element (i, p) of op(A) and (p, j) of op(B) as stored, whatever the transposes. */
#define RAW_A(a, args, i, p) ((args)->trans_a ? (a)[(p) * (args)->lda + (i)] : (a)[(i) * (args)->lda + (p)])
#define RAW_B(b, args, p, j) ((args)->trans_b ? (b)[(j) * (args)->ldb + (p)] : (b)[(p) * (args)->ldb + (j)])
#define MIN64(x, y)          ((x) < (y) ? (x) : (y))

#define DEFINE_GEMM_LOOPS(S, T, SUFFIX, SETUP, LOAD_A, LOAD_B, STORE)                                            \
    static void naive_##SUFFIX(const cpu_gemm_job *job)                                                          \
    {                                                                                                            \
        const gh_gemm_args *args = job->args;                                                                    \
        const S *a = job->a, *b = job->b;                                                                        \
        SETUP;                                                                                                   \
        for (int64_t i = job->row_begin; i < job->row_end; i++)                                                  \
            for (int64_t j = 0; j < args->n; j++) {                                                              \
                T acc = 0;                                                                                       \
                for (int64_t p = 0; p < args->k; p++)                                                            \
                    acc += LOAD_A(RAW_A(a, args, i, p)) * LOAD_B(RAW_B(b, args, p, j));                          \
                STORE(job, i, j, acc);                                                                           \
            }                                                                                                    \
    }                                                                                                            \
                                                                                                                 \
    static int tiled_##SUFFIX(const cpu_gemm_job *job)                                                           \
    {                                                                                                            \
        const gh_gemm_args *args = job->args;                                                                    \
        const S *a = job->a, *b = job->b;                                                                        \
        const int64_t n = args->n, k = args->k, t = job->tile;                                                   \
        SETUP;                                                                                                   \
        T *acc = malloc((size_t)(t * n) * sizeof(T));                                                            \
        if (!acc) return -1;                                                                                     \
        for (int64_t i0 = job->row_begin; i0 < job->row_end; i0 += t) {                                          \
            const int64_t i1 = MIN64(i0 + t, job->row_end);                                                      \
            for (int64_t x = 0; x < (i1 - i0) * n; x++) acc[x] = 0;                                              \
            for (int64_t p0 = 0; p0 < k; p0 += t) {                                                              \
                const int64_t p1 = MIN64(p0 + t, k);                                                             \
                for (int64_t j0 = 0; j0 < n; j0 += t) {                                                          \
                    const int64_t j1 = MIN64(j0 + t, n);                                                         \
                    for (int64_t i = i0; i < i1; i++) {                                                          \
                        T *acc_row = &acc[(i - i0) * n];                                                         \
                        for (int64_t p = p0; p < p1; p++) {                                                      \
                            const T a_ip = LOAD_A(RAW_A(a, args, i, p));                                         \
                            for (int64_t j = j0; j < j1; j++) acc_row[j] += a_ip * LOAD_B(RAW_B(b, args, p, j)); \
                        }                                                                                        \
                    }                                                                                            \
                }                                                                                                \
            }                                                                                                    \
            for (int64_t i = i0; i < i1; i++)                                                                    \
                for (int64_t j = 0; j < n; j++) STORE(job, i, j, acc[(i - i0) * n + j]);                         \
        }                                                                                                        \
        free(acc);                                                                                               \
        return 0;                                                                                                \
    }

#endif
