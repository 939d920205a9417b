/* GEMM loops of the C plugin for 8-bit A and B, the reference of every
 * combination the kernels list (kernels.c):
 *   FP8 (e4m3, e5m2, mixed): each byte decoded exactly through a 256-entry
 *     table, the products (exact in f32: at most 8 significant bits, within
 *     f32's range) summed in f32, C = scale_c (alpha scale_a scale_b acc +
 *     beta C) in f32, rounded once to C's f32, f16 or bf16;
 *   i8 x i8 -> i32: exact integer sums, C = alpha acc + beta C in i32.
 * The loops are loop_shapes.h's (naive, and tiled with a strip of
 * accumulators), generated once per accumulator type. */
#include "gemmhost/fp8.h"
#include "gemmhost/half.h"
#include "loop_shapes.h"

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

/* As i32 (loops.c): the sum in 64 bits, wrapped to 32 when stored, as GPUs
 * do; a 32-bit sum would overflow as undefined behaviour where the probe
 * drives it past int32 on purpose. */
static void store_i8(void *c, int64_t at, const i8_epilogue *e, int64_t acc)
{
    int32_t *dst = &((int32_t *)c)[at];
    uint64_t out = (uint64_t)e->alpha * (uint64_t)acc;
    if (e->beta != 0) out += (uint64_t)e->beta * (uint64_t)(int64_t)*dst;
    *dst = (int32_t)(uint32_t)out;
}

/* C's element (i, j) through the epilogue `epi` that SETUP declared. */
#define STORE_FP8(job, i, j, acc) store_fp8((job)->c, (i)*args->ldc + (j), &epi, (acc))
#define STORE_I8(job, i, j, acc)  store_i8((job)->c, (i)*args->ldc + (j), &epi, (acc))

#define FP8_SETUP                     \
    float table_a[256], table_b[256]; \
    fp8_table(job->types.a, table_a); \
    fp8_table(job->types.b, table_b); \
    const fp8_epilogue epi = fp8_epilogue_of(job)
#define FP8_A(x) table_a[(x)]
#define FP8_B(x) table_b[(x)]
DEFINE_GEMM_LOOPS(uint8_t, float, fp8, FP8_SETUP, FP8_A, FP8_B, STORE_FP8)

#define I8_SETUP   const i8_epilogue epi = i8_epilogue_of(job)
#define I8_LOAD(x) ((int64_t)(x))
DEFINE_GEMM_LOOPS(int8_t, int64_t, i8, I8_SETUP, I8_LOAD, I8_LOAD, STORE_I8)

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
