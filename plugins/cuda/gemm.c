/* gemm(): checks every argument before anything runs, then dispatches. */
#include "gemm.h"

#include <limits.h>
#include <stddef.h>

#include "buffers.h"
#include "cublas.h"
#include "devices.h"
#include "errors.h"
#include "kernels.h"

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

/* The variant a checked request's parameters name. */
static gh_cuda_variant variant_of(int kernel, const int64_t *params)
{
    const gh_param_info *p = gh_cuda_kernel_infos[kernel].params;
    if (kernel == GH_CUDA_TILED)
        return gh_cuda_variant_at(kernel, gh_plugin_param_index(&p[0], params[0]));
    if (kernel == GH_CUDA_BLOCKED)
        return gh_cuda_variant_at(kernel, gh_plugin_param_index(&p[0], params[0]) * GH_CUDA_BLOCKED_WORK_COUNT +
                                              gh_plugin_param_index(&p[1], params[1]));
    return gh_cuda_variant_at(kernel, 0);
}

gh_status gh_cuda_gemm_check(gh_plugin *ctx, const char *call, int device, int kernel, const gh_gemm_args *a,
                             gh_cuda_variant *variant)
{
    gh_status st = gh_cuda_check_device(ctx, call, device);
    if (st == GH_OK)
        st = gh_plugin_check_index(call, "kernel", kernel, GH_CUDA_KERNEL_COUNT);
    if (st)
        return st;
    const gh_plugin_gemm_target target = {device, &ctx->devices[device].info, &gh_cuda_kernel_infos[kernel], 0,
                                          gh_cuda_extent};
    st = gh_plugin_check_gemm(call, a, &target);
    if (st == GH_UNSUPPORTED && kernel == GH_CUDA_CUBLAS && a->dtype == GH_I32)
        gh_plugin_append_error(": cuBLAS has no int32 GEMM");
    if (st)
        return st;
    /* The kernels take M, N and K as int (leading dimensions as long long;
     * cuBLAS checks its own). */
    if (a->m > INT_MAX || a->n > INT_MAX || a->k > INT_MAX)
        return gh_plugin_set_error(GH_UNSUPPORTED, "%s: kernel %s takes M, N, K up to %d (got %lld, %lld, %lld)", call,
                                   gh_cuda_kernel_infos[kernel].name, INT_MAX, (long long)a->m, (long long)a->n,
                                   (long long)a->k);
    *variant = variant_of(kernel, a->params);
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
    gh_status st = gh_cuda_gemm_check(ctx, "gemm", device, kernel, a, &variant);
    if (st || (st = gh_cuda_device_enter(ctx, "gemm", device, &dev)))
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
