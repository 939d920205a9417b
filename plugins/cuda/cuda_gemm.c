/* gemm(): checks every argument before anything runs, then dispatches. */
#include "cuda_gemm.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>

#include "cuda_cublas.h"
#include "cuda_device.h"
#include "cuda_errors.h"
#include "cuda_kernels.h"

const int64_t gh_cuda_tiles[GH_CUDA_TILE_COUNT] = {4, 8, 16, 32};
const int64_t gh_cuda_blocked_tiles[GH_CUDA_BLOCKED_TILE_COUNT] = {32, 64, 128};
const int64_t gh_cuda_blocked_works[GH_CUDA_BLOCKED_WORK_COUNT] = {2, 4, 8};

static const gh_param_info tiled_params[] = {{
    .size = sizeof(gh_param_info),
    .name = "tile",
    .description = "edge of the square thread block and of the tiles of A and B staged in shared memory",
    .default_value = 16,
    .allowed = gh_cuda_tiles,
    .n_allowed = GH_CUDA_TILE_COUNT,
    .min_value = 4,
    .max_value = 32,
}};

/* The defaults are the fastest on the H100 at large sizes: 256 threads, each
 * with an 8 x 8 block of C. (tile / work)^2 must stay within the device's
 * threads per block: tile 128 with work 2 (4096 threads) is unsupported. */
static const gh_param_info blocked_params[] = {
    {
        .size = sizeof(gh_param_info),
        .name = "tile",
        .description = "edge of the block of C a thread block computes (and of the tiles of A and B in shared memory)",
        .default_value = 128,
        .allowed = gh_cuda_blocked_tiles,
        .n_allowed = GH_CUDA_BLOCKED_TILE_COUNT,
        .min_value = 32,
        .max_value = 128,
    },
    {
        .size = sizeof(gh_param_info),
        .name = "work",
        .description = "edge of the block of C each thread keeps in registers; (tile / work)^2 threads per block",
        .default_value = 8,
        .allowed = gh_cuda_blocked_works,
        .n_allowed = GH_CUDA_BLOCKED_WORK_COUNT,
        .min_value = 2,
        .max_value = 8,
    },
};

#define ALL_DTYPES (GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_I32))

const gh_kernel_info gh_cuda_kernel_infos[GH_CUDA_KERNEL_COUNT] = {
    [GH_CUDA_NAIVE] = {sizeof(gh_kernel_info), "naive",
                       "one thread per element of C, a warp along 32 consecutive columns (NVRTC)", ALL_DTYPES,
                       NULL, 0},
    [GH_CUDA_TILED] = {sizeof(gh_kernel_info), "tiled",
                       "tile x tile thread blocks, tiles of A and B staged in shared memory (NVRTC)", ALL_DTYPES,
                       tiled_params, 1},
    [GH_CUDA_BLOCKED] = {sizeof(gh_kernel_info), "blocked",
                         "2D register blocking: each thread a work x work block of C in registers, tiles of A and B "
                         "double-buffered in shared memory (NVRTC)",
                         ALL_DTYPES, blocked_params, 2},
    [GH_CUDA_CUBLAS] = {sizeof(gh_kernel_info), "cublas",
                        "cuBLAS SGEMM/DGEMM in its default math mode (no TF32): the baseline",
                        GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64), NULL, 0},
};

int gh_cuda_variant_count(int kernel)
{
    switch (kernel) {
    case GH_CUDA_NAIVE: return 1;
    case GH_CUDA_TILED: return GH_CUDA_TILE_COUNT;
    case GH_CUDA_BLOCKED: return GH_CUDA_BLOCKED_TILE_COUNT * GH_CUDA_BLOCKED_WORK_COUNT;
    default: return 0;
    }
}

gh_cuda_variant gh_cuda_variant_at(int kernel, int index)
{
    gh_cuda_variant v = {0, 0, index};
    if (kernel == GH_CUDA_TILED) {
        v.tile = gh_cuda_tiles[index];
    } else if (kernel == GH_CUDA_BLOCKED) {
        v.tile = gh_cuda_blocked_tiles[index / GH_CUDA_BLOCKED_WORK_COUNT];
        v.work = gh_cuda_blocked_works[index % GH_CUDA_BLOCKED_WORK_COUNT];
    }
    return v;
}

/* The index of value in allowed[n], or -1. */
static int index_of(const int64_t *allowed, int n, int64_t value)
{
    for (int i = 0; i < n; ++i)
        if (allowed[i] == value)
            return i;
    return -1;
}

static const char *const dtype_names[GH_DTYPE_COUNT] = {"f32", "f64", "i32"};

/* Checks that a stored matrix of rows x cols with leading dimension ld,
 * starting `offset` elements into buf, lies inside buf and on device. */
static gh_status check_matrix(gh_plugin *ctx, int device, char name, const gh_buffer *buf, uint64_t offset,
                              int64_t rows, int64_t cols, int64_t ld, size_t es)
{
    if (!buf)
        return gh_cuda_fail(ctx, GH_INVALID_ARGUMENT, "gemm: buffer %c is NULL", name);
    if (buf->device != device)
        return gh_cuda_fail(ctx, GH_INVALID_ARGUMENT, "gemm: buffer %c belongs to device %d, not device %d", name,
                            buf->device, device);
    if (ld < cols)
        return gh_cuda_fail(ctx, GH_INVALID_ARGUMENT,
                            "gemm: ld%c = %lld is less than the %lld columns %c is stored with", name + 'a' - 'A',
                            (long long)ld, (long long)cols, name);
    /* Last element + 1 = offset + (rows - 1) * ld + cols, in bytes, with
     * every step checked for overflow. */
    uint64_t end = 0;
    if (__builtin_mul_overflow((uint64_t)(rows - 1), (uint64_t)ld, &end) ||
        __builtin_add_overflow(end, (uint64_t)cols, &end) || __builtin_add_overflow(end, offset, &end) ||
        __builtin_mul_overflow(end, (uint64_t)es, &end) || end > buf->bytes)
        return gh_cuda_fail(ctx, GH_INVALID_ARGUMENT,
                            "gemm: %c (%lld x %lld stored, ld %lld, offset %llu elements of %zu bytes) runs past its "
                            "buffer of %llu bytes",
                            name, (long long)rows, (long long)cols, (long long)ld, (unsigned long long)offset, es,
                            (unsigned long long)buf->bytes);
    return GH_OK;
}

static int is_int32(double v)
{
    return v == floor(v) && v >= (double)INT_MIN && v <= (double)INT_MAX;
}

/* Everything gemm() can check without the device. */
static gh_status check_args(gh_plugin *ctx, int kernel, const gh_gemm_args *a, gh_cuda_variant *variant)
{
    if (kernel < 0 || kernel >= GH_CUDA_KERNEL_COUNT)
        return gh_cuda_fail(ctx, GH_INVALID_ARGUMENT, "gemm: kernel %d does not exist (this plugin has %d)", kernel,
                            GH_CUDA_KERNEL_COUNT);
    const gh_kernel_info *info = &gh_cuda_kernel_infos[kernel];
    if (!a)
        return gh_cuda_fail(ctx, GH_INVALID_ARGUMENT, "gemm: args is NULL");
    if (!GH_HAS_MEMBER(a, gh_gemm_args, n_params))
        return gh_cuda_fail(ctx, GH_INVALID_ARGUMENT, "gemm: args->size %zu is smaller than gh_gemm_args of ABI %d.%d",
                            a->size, GEMMHOST_ABI_MAJOR, GEMMHOST_ABI_MINOR);
    if ((unsigned)a->dtype >= GH_DTYPE_COUNT)
        return gh_cuda_fail(ctx, GH_INVALID_ARGUMENT, "gemm: dtype %d does not exist", (int)a->dtype);
    if (!(info->dtypes & GH_DTYPE_BIT(a->dtype)))
        return gh_cuda_fail(ctx, GH_UNSUPPORTED, "kernel %s does not do %s: %s", info->name, dtype_names[a->dtype],
                            kernel == GH_CUDA_CUBLAS ? "cuBLAS has no int32 GEMM" : "not implemented");
    if ((a->trans_a != 0 && a->trans_a != 1) || (a->trans_b != 0 && a->trans_b != 1))
        return gh_cuda_fail(ctx, GH_INVALID_ARGUMENT, "gemm: trans_a and trans_b must be 0 or 1 (got %d, %d)",
                            (int)a->trans_a, (int)a->trans_b);
    if (a->m < 1 || a->n < 1 || a->k < 1)
        return gh_cuda_fail(ctx, GH_INVALID_ARGUMENT, "gemm: M, N, K must be at least 1 (got %lld, %lld, %lld)",
                            (long long)a->m, (long long)a->n, (long long)a->k);
    if (a->m > INT_MAX || a->n > INT_MAX || a->k > INT_MAX)
        return gh_cuda_fail(ctx, GH_UNSUPPORTED, "kernel %s takes M, N, K up to %d (got %lld, %lld, %lld)", info->name,
                            INT_MAX, (long long)a->m, (long long)a->n, (long long)a->k);
    if (a->dtype == GH_I32 && (!is_int32(a->alpha) || !is_int32(a->beta)))
        return gh_cuda_fail(ctx, GH_INVALID_ARGUMENT, "gemm: i32 needs integral alpha and beta in int32 (got %g, %g)",
                            a->alpha, a->beta);
    if (a->n_params != info->n_params || (a->n_params && !a->params))
        return gh_cuda_fail(ctx, GH_INVALID_ARGUMENT, "gemm: kernel %s takes %zu parameter%s, got %zu", info->name,
                            info->n_params, info->n_params == 1 ? "" : "s", a->n_params);
    *variant = (gh_cuda_variant){0, 0, 0};
    if (kernel == GH_CUDA_TILED) {
        int t = index_of(gh_cuda_tiles, GH_CUDA_TILE_COUNT, a->params[0]);
        if (t < 0)
            return gh_cuda_fail(ctx, GH_INVALID_ARGUMENT, "gemm: tile %lld is not one of 4, 8, 16, 32",
                                (long long)a->params[0]);
        *variant = gh_cuda_variant_at(kernel, t);
    } else if (kernel == GH_CUDA_BLOCKED) {
        int t = index_of(gh_cuda_blocked_tiles, GH_CUDA_BLOCKED_TILE_COUNT, a->params[0]);
        int w = index_of(gh_cuda_blocked_works, GH_CUDA_BLOCKED_WORK_COUNT, a->params[1]);
        if (t < 0)
            return gh_cuda_fail(ctx, GH_INVALID_ARGUMENT, "gemm: blocked tile %lld is not one of 32, 64, 128",
                                (long long)a->params[0]);
        if (w < 0)
            return gh_cuda_fail(ctx, GH_INVALID_ARGUMENT, "gemm: blocked work %lld is not one of 2, 4, 8",
                                (long long)a->params[1]);
        *variant = gh_cuda_variant_at(kernel, t * GH_CUDA_BLOCKED_WORK_COUNT + w);
    }
    return GH_OK;
}

gh_status gh_cuda_gemm_check(gh_plugin *ctx, int device, int kernel, const gh_gemm_args *a, gh_cuda_variant *variant)
{
    gh_status st = check_args(ctx, kernel, a, variant);
    if (st)
        return st;
    size_t es = a->dtype == GH_F64 ? 8 : 4;
    if ((st = check_matrix(ctx, device, 'A', a->a, a->a_offset, a->trans_a ? a->k : a->m, a->trans_a ? a->m : a->k,
                           a->lda, es)) ||
        (st = check_matrix(ctx, device, 'B', a->b, a->b_offset, a->trans_b ? a->n : a->k, a->trans_b ? a->k : a->n,
                           a->ldb, es)) ||
        (st = check_matrix(ctx, device, 'C', a->c, a->c_offset, a->m, a->n, a->ldc, es)))
        return st;
    return GH_OK;
}

gh_status gh_cuda_gemm_enqueue(gh_plugin *ctx, gh_cuda_device *dev, int kernel, const gh_gemm_args *args,
                               const gh_cuda_variant *variant, CUstream stream, cublasHandle_t *cublas,
                               CUevent start, CUevent stop)
{
    if (kernel == GH_CUDA_CUBLAS)
        return gh_cuda_cublas_enqueue(ctx, dev, cublas, stream, args, start, stop);
    return gh_cuda_kernel_enqueue(ctx, dev, kernel, args, variant, stream, start, stop);
}

gh_status gh_cuda_gemm(gh_plugin *ctx, int device, int kernel, const gh_gemm_args *a, gh_gemm_timing *timing)
{
    gh_cuda_variant variant;
    gh_cuda_device *dev = NULL;
    gh_status st = gh_cuda_device_enter(ctx, device, &dev);
    if (st || (st = gh_cuda_gemm_check(ctx, device, kernel, a, &variant)))
        return st;
    if ((st = gh_cuda_gemm_enqueue(ctx, dev, kernel, a, &variant, dev->stream, &dev->cublas, dev->start, dev->stop))) {
        ctx->cu->cuStreamSynchronize(dev->stream); /* leave the stream idle; the first error is reported */
        return st;
    }
    double ms = 0.0;
    if ((st = gh_cuda_wait_elapsed(ctx, dev, dev->start, dev->stop, gh_cuda_kernel_infos[kernel].name, &ms)))
        return st;
    if (timing) {
        if (GH_HAS_MEMBER(timing, gh_gemm_timing, kernel_ms))
            timing->kernel_ms = ms;
        if (GH_HAS_MEMBER(timing, gh_gemm_timing, clock))
            timing->clock = GH_CLOCK_DEVICE;
    }
    return GH_OK;
}
