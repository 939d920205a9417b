/* GEMM loops of the C plugin. Each dtype gets the same two loops from
 * loop_shapes.h, so there is one copy of the logic to read. The arithmetic
 * stays in the element type (f32 sums in f32, as a GPU kernel would); f16
 * and bf16 are stored in 16 bits and converted to f32 for the multiplies and
 * the sums (the default arithmetic of plugin.h), the result rounded once. */
#include "gemmhost/half.h"
#include "loop_shapes.h"

#define AS_IS(x) (x)

/* beta == 0 must not read C: it may hold NaN (the host poisons outputs). */
#define STORE(c, args, i, j, acc, S, T)                               \
    do {                                                              \
        S *dst_ = &(c)[(i) * (args)->ldc + (j)];                      \
        T out_ = (T)(args)->alpha * (acc);                            \
        if ((args)->beta != 0) out_ += (T)(args)->beta * LOAD(*dst_); \
        *dst_ = ROUND(out_);                                          \
    } while (0)

/* S: the storage type; T: the arithmetic type; LOAD and ROUND convert
 * between them (defined around each use of the macro). */
#define DEFINE_GEMM(S, T, SUFFIX)                                                    \
    static void store_##SUFFIX(const cpu_gemm_job *job, int64_t i, int64_t j, T acc) \
    {                                                                                \
        STORE((S *)job->c, job->args, i, j, acc, S, T);                              \
    }                                                                                \
    DEFINE_GEMM_LOOPS(S, T, SUFFIX, (void)0, LOAD, LOAD, store_##SUFFIX)

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
