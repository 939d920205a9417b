/* GEMM loops of the C plugin. Each dtype gets the same two loops from the
 * macro below, so there is one copy of the logic to read. The arithmetic
 * stays in the element type (f32 sums in f32, as a GPU kernel would); f16
 * and bf16 are stored in 16 bits and converted to f32 for the multiplies and
 * the sums (the default arithmetic of plugin.h), the result rounded once. */
#include <stdlib.h>

#include "gemmhost/half.h"
#include "loops.h"

#define AS_IS(x) (x)

/* Element (i, p) of op(A) and (p, j) of op(B), whatever the transposes, in
 * the arithmetic type (LOAD converts from storage). */
#define OP_A(a, args, i, p) LOAD((args)->trans_a ? (a)[(p) * (args)->lda + (i)] : (a)[(i) * (args)->lda + (p)])
#define OP_B(b, args, p, j) LOAD((args)->trans_b ? (b)[(j) * (args)->ldb + (p)] : (b)[(p) * (args)->ldb + (j)])

/* beta == 0 must not read C: it may hold NaN (the host poisons outputs). */
#define STORE(c, args, i, j, acc, S, T)                               \
    do {                                                              \
        S *dst_ = &(c)[(i) * (args)->ldc + (j)];                      \
        T out_ = (T)(args)->alpha * (acc);                            \
        if ((args)->beta != 0) out_ += (T)(args)->beta * LOAD(*dst_); \
        *dst_ = ROUND(out_);                                          \
    } while (0)

#define MIN64(x, y) ((x) < (y) ? (x) : (y))

/* S: the storage type; T: the arithmetic type; LOAD and ROUND convert
 * between them (defined around each use of the macro). */
#define DEFINE_GEMM(S, T, SUFFIX)                                                                       \
    /* The seed's serial loop: one element of C at a time. */                                           \
    static void naive_##SUFFIX(const cpu_gemm_job *job)                                                 \
    {                                                                                                   \
        const gh_gemm_args *args = job->args;                                                           \
        const S *a = job->a, *b = job->b;                                                               \
        S *c = job->c;                                                                                  \
        for (int64_t i = job->row_begin; i < job->row_end; i++)                                         \
            for (int64_t j = 0; j < args->n; j++) {                                                     \
                T acc = 0;                                                                              \
                for (int64_t p = 0; p < args->k; p++) acc += OP_A(a, args, i, p) * OP_B(b, args, p, j); \
                STORE(c, args, i, j, acc, S, T);                                                        \
            }                                                                                           \
    }                                                                                                   \
                                                                                                        \
    /* Cache blocking: a tile-row strip of accumulators stays in cache while    \
 * tile x tile blocks of A and B stream past it; the innermost loop walks   \
 * a row of the strip, contiguous in memory. */                       \
    static int tiled_##SUFFIX(const cpu_gemm_job *job)                                                  \
    {                                                                                                   \
        const gh_gemm_args *args = job->args;                                                           \
        const S *a = job->a, *b = job->b;                                                               \
        S *c = job->c;                                                                                  \
        const int64_t n = args->n, k = args->k, t = job->tile;                                          \
        T *acc = malloc((size_t)(t * n) * sizeof(T));                                                   \
        if (!acc) return -1;                                                                            \
        for (int64_t i0 = job->row_begin; i0 < job->row_end; i0 += t) {                                 \
            const int64_t i1 = MIN64(i0 + t, job->row_end);                                             \
            for (int64_t x = 0; x < (i1 - i0) * n; x++) acc[x] = 0;                                     \
            for (int64_t p0 = 0; p0 < k; p0 += t) {                                                     \
                const int64_t p1 = MIN64(p0 + t, k);                                                    \
                for (int64_t j0 = 0; j0 < n; j0 += t) {                                                 \
                    const int64_t j1 = MIN64(j0 + t, n);                                                \
                    for (int64_t i = i0; i < i1; i++) {                                                 \
                        T *acc_row = &acc[(i - i0) * n];                                                \
                        for (int64_t p = p0; p < p1; p++) {                                             \
                            const T a_ip = OP_A(a, args, i, p);                                         \
                            for (int64_t j = j0; j < j1; j++) acc_row[j] += a_ip * OP_B(b, args, p, j); \
                        }                                                                               \
                    }                                                                                   \
                }                                                                                       \
            }                                                                                           \
            for (int64_t i = i0; i < i1; i++)                                                           \
                for (int64_t j = 0; j < n; j++) STORE(c, args, i, j, acc[(i - i0) * n + j], S, T);      \
        }                                                                                               \
        free(acc);                                                                                      \
        return 0;                                                                                       \
    }

#define LOAD  AS_IS
#define ROUND AS_IS
DEFINE_GEMM(float, float, f32)
DEFINE_GEMM(double, double, f64)
#undef LOAD
#undef ROUND
/* i32 multiplies and sums in 64 bits and wraps to 32 when stored, as GPUs
 * do: an int32_t product or sum that overflows would be undefined behaviour
 * (gemmhost probe's overflow case, and the sanitizer build, find it). */
#define LOAD(x)  ((int64_t)(x))
#define ROUND(x) ((int32_t)(uint32_t)(uint64_t)(x))
DEFINE_GEMM(int32_t, int64_t, i32)
#undef LOAD
#undef ROUND
#define LOAD  gh_f16_to_f32
#define ROUND gh_f32_to_f16
DEFINE_GEMM(uint16_t, float, f16)
#undef LOAD
#undef ROUND
#define LOAD  gh_bf16_to_f32
#define ROUND gh_f32_to_bf16
DEFINE_GEMM(uint16_t, float, bf16)
#undef LOAD
#undef ROUND

int cpu_gemm_naive(const cpu_gemm_job *job)
{
    switch (job->args->dtype) {
    case GH_F32: naive_f32(job); return 0;
    case GH_F64: naive_f64(job); return 0;
    case GH_I32: naive_i32(job); return 0;
    case GH_F16: naive_f16(job); return 0;
    case GH_BF16: naive_bf16(job); return 0;
    case GH_E4M3:
    case GH_E5M2:
    case GH_I8: return cpu_gemm8_naive(job);
    }
    return -1;
}

int cpu_gemm_tiled(const cpu_gemm_job *job)
{
    switch (job->args->dtype) {
    case GH_F32: return tiled_f32(job);
    case GH_F64: return tiled_f64(job);
    case GH_I32: return tiled_i32(job);
    case GH_F16: return tiled_f16(job);
    case GH_BF16: return tiled_bf16(job);
    case GH_E4M3:
    case GH_E5M2:
    case GH_I8: return cpu_gemm8_tiled(job);
    }
    return -1;
}
