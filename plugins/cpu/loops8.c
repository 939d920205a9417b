/* GEMM loops of the C plugin for 8-bit A and B, the reference of every
 * combination the kernels list (kernels.c):
 *   FP8 (e4m3, e5m2, mixed): each byte decoded exactly through a 256-entry
 *     table, the products (exact in f32: at most 8 significant bits, within
 *     f32's range) summed in f32, C = scale_c (alpha scale_a scale_b acc +
 *     beta C) in f32, rounded once to C's f32, f16 or bf16;
 *   i8 x i8 -> i32: exact integer sums, C = alpha acc + beta C in i32.
 * The loop structure is loops.c's (naive, and tiled with a strip of
 * accumulators), generated once per accumulator type by the macro below. */
#include <stdlib.h>

#include "gemmhost/fp8.h"
#include "gemmhost/half.h"
#include "loops.h"

/* The decoded value of every byte of one FP8 type. */
static void fp8_table(gh_dtype dtype, float table[256])
{
    for (unsigned v = 0; v < 256; v++)
        table[v] = (float)(dtype == GH_E4M3 ? gh_e4m3_to_f64((uint8_t)v) : gh_e5m2_to_f64((uint8_t)v));
}

/* What the epilogue of an FP8 GEMM needs, converted to f32 once. */
typedef struct fp8_epilogue {
    float alpha_ab; /* alpha * scale_a * scale_b */
    float beta, scale_c;
    gh_dtype c;
} fp8_epilogue;

static fp8_epilogue fp8_epilogue_of(const cpu_gemm_job *job)
{
    const gh_plugin_gemm_types *t = &job->types;
    return (fp8_epilogue){(float)(job->args->alpha * t->scale_a * t->scale_b), (float)job->args->beta,
                          (float)t->scale_c, t->c};
}

/* beta == 0 must not read C: it may hold NaN (the host poisons outputs). */
static void store_fp8(void *c, int64_t at, const fp8_epilogue *e, float acc)
{
    float out = e->alpha_ab * acc;
    if (e->beta != 0) {
        float old = e->c == GH_F32   ? ((const float *)c)[at]
                    : e->c == GH_F16 ? gh_f16_to_f32(((const uint16_t *)c)[at])
                                     : gh_bf16_to_f32(((const uint16_t *)c)[at]);
        out += e->beta * old;
    }
    out *= e->scale_c;
    if (e->c == GH_F32) ((float *)c)[at] = out;
    else if (e->c == GH_F16) ((uint16_t *)c)[at] = gh_f32_to_f16(out);
    else ((uint16_t *)c)[at] = gh_f32_to_bf16(out);
}

/* Integral alpha and beta (checked by gh_plugin_check_gemm); the host keeps
 * values where i32 does not overflow. */
typedef struct i8_epilogue {
    int32_t alpha, beta;
} i8_epilogue;

static i8_epilogue i8_epilogue_of(const cpu_gemm_job *job)
{
    return (i8_epilogue){(int32_t)job->args->alpha, (int32_t)job->args->beta};
}

static void store_i8(void *c, int64_t at, const i8_epilogue *e, int32_t acc)
{
    int32_t *dst = &((int32_t *)c)[at];
    int32_t out = e->alpha * acc;
    if (e->beta != 0) out += e->beta * *dst;
    *dst = out;
}

/* Element (i, p) of op(A) and (p, j) of op(B) as stored bytes. */
#define RAW_A(a, args, i, p) ((args)->trans_a ? (a)[(p) * (args)->lda + (i)] : (a)[(i) * (args)->lda + (p)])
#define RAW_B(b, args, p, j) ((args)->trans_b ? (b)[(j) * (args)->ldb + (p)] : (b)[(p) * (args)->ldb + (j)])
#define MIN64(x, y)          ((x) < (y) ? (x) : (y))

/* S: the stored byte type; T: the accumulator; SETUP declares `epi` (and
 * the decode tables); LOAD_A and LOAD_B turn a stored byte into a T. */
#define DEFINE_GEMM8(S, T, SUFFIX, SETUP, LOAD_A, LOAD_B, STORE)                                                 \
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
                STORE(job->c, i * args->ldc + j, &epi, acc);                                                     \
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
                for (int64_t j = 0; j < n; j++) STORE(job->c, i * args->ldc + j, &epi, acc[(i - i0) * n + j]);   \
        }                                                                                                        \
        free(acc);                                                                                               \
        return 0;                                                                                                \
    }

#define FP8_SETUP                     \
    float table_a[256], table_b[256]; \
    fp8_table(job->types.a, table_a); \
    fp8_table(job->types.b, table_b); \
    const fp8_epilogue epi = fp8_epilogue_of(job)
#define FP8_A(x) table_a[(x)]
#define FP8_B(x) table_b[(x)]
DEFINE_GEMM8(uint8_t, float, fp8, FP8_SETUP, FP8_A, FP8_B, store_fp8)

#define I8_SETUP   const i8_epilogue epi = i8_epilogue_of(job)
#define I8_LOAD(x) ((int32_t)(x))
DEFINE_GEMM8(int8_t, int32_t, i8, I8_SETUP, I8_LOAD, I8_LOAD, store_i8)

/* The kernel table lists FP8 A and B with an FP8 partner only, and i8 with
 * i8 (gh_plugin_check_gemm refused the rest). */
int cpu_gemm8_naive(const cpu_gemm_job *job)
{
    if (job->types.a == GH_I8) naive_i8(job);
    else naive_fp8(job);
    return 0;
}

int cpu_gemm8_tiled(const cpu_gemm_job *job)
{
    return job->types.a == GH_I8 ? tiled_i8(job) : tiled_fp8(job);
}
