/* Launches kernels/cuda/naive.cu and tiled.cu; see cuda_kernels.h. */
#include "cuda_kernels.h"

#include <stdio.h>

#include "cuda_device.h"
#include "cuda_errors.h"
#include "cuda_modules.h"

/* naive: a warp spans 32 consecutive columns of one row of C. */
#define NAIVE_BLOCK_X 32
#define NAIVE_BLOCK_Y 8

static const char *const dtype_names[GH_DTYPE_COUNT] = {"f32", "f64", "i32"};

/* One scalar kernel argument of the GEMM's dtype; cuLaunchKernel copies as
 * many bytes as the kernel's parameter has, from the start. */
typedef union scalar {
    float f32;
    double f64;
    int i32;
} scalar;

static scalar to_scalar(gh_dtype dtype, double v)
{
    scalar s;
    if (dtype == GH_F32)
        s.f32 = (float)v;
    else if (dtype == GH_F64)
        s.f64 = v;
    else
        s.i32 = (int)v; /* gemm() checked it is an integral int32 */
    return s;
}

static int tile_index_of(int64_t tile)
{
    for (int i = 0; i < GH_CUDA_TILE_COUNT; ++i)
        if (gh_cuda_tiles[i] == tile)
            return i;
    return -1;
}

gh_status gh_cuda_kernel_gemm(gh_plugin *ctx, gh_cuda_device *dev, int kernel, const gh_gemm_args *a, int64_t tile,
                              double *ms)
{
    size_t es = a->dtype == GH_F64 ? 8 : 4;
    int tile_index = 0;
    unsigned block_x = NAIVE_BLOCK_X, block_y = NAIVE_BLOCK_Y;
    const char *name = kernel == GH_CUDA_TILED ? "gemm_tiled" : "gemm_naive";

    if (kernel == GH_CUDA_TILED) {
        tile_index = tile_index_of(tile);
        if (tile_index < 0)
            return gh_cuda_fail(ctx, GH_INVALID_ARGUMENT, "tile %lld is not one of 4, 8, 16, 32", (long long)tile);
        /* The device's limits, checked before compiling or launching. */
        long long threads = (long long)tile * tile;
        long long shared = 2LL * tile * (tile + 1) * (long long)es; /* as[] and bs[] in tiled.cu */
        if (threads > dev->max_threads_per_block)
            return gh_cuda_fail(ctx, GH_UNSUPPORTED,
                                "tile %lld needs %lld threads per block; %s allows %d "
                                "(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)",
                                (long long)tile, threads, dev->name, dev->max_threads_per_block);
        if (shared > dev->max_shared_per_block)
            return gh_cuda_fail(ctx, GH_UNSUPPORTED,
                                "tile %lld with %s needs %lld bytes of shared memory per block; %s allows %d "
                                "(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)",
                                (long long)tile, dtype_names[a->dtype], shared, dev->name,
                                dev->max_shared_per_block);
        block_x = block_y = (unsigned)tile;
    }

    long long grid_x = (a->n + block_x - 1) / block_x;
    long long grid_y = (a->m + block_y - 1) / block_y;
    if (grid_x > dev->max_grid_x || grid_y > dev->max_grid_y)
        return gh_cuda_fail(ctx, GH_UNSUPPORTED,
                            "%s: M %lld x N %lld needs a grid of %lld x %lld blocks; %s allows %d x %d",
                            name, (long long)a->m, (long long)a->n, grid_x, grid_y, dev->name, dev->max_grid_x,
                            dev->max_grid_y);

    gh_cuda_module *mod = NULL;
    gh_status st = gh_cuda_get_kernel(ctx, dev, kernel, a->dtype, tile_index, &mod);
    if (st)
        return st;
    /* What the compiled kernel can take (its registers can lower it). */
    char variant[96];
    if (kernel == GH_CUDA_TILED)
        snprintf(variant, sizeof variant, "%s (%s, tile %lld)", name, dtype_names[a->dtype], (long long)tile);
    else
        snprintf(variant, sizeof variant, "%s (%s)", name, dtype_names[a->dtype]);
    if ((int)(block_x * block_y) > mod->max_threads)
        return gh_cuda_fail(ctx, GH_UNSUPPORTED,
                            "%s needs %u threads per block; compiled, it runs at most %d on %s "
                            "(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)",
                            variant, block_x * block_y, mod->max_threads, dev->name);
    if (mod->static_shared > dev->max_shared_per_block)
        return gh_cuda_fail(ctx, GH_UNSUPPORTED,
                            "%s uses %d bytes of shared memory per block; %s allows %d "
                            "(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)",
                            variant, mod->static_shared, dev->name, dev->max_shared_per_block);

    /* The kernels' parameters, in order (see kernels/cuda/naive.cu). */
    int M = (int)a->m, N = (int)a->n, K = (int)a->k;
    int trans_a = a->trans_a, trans_b = a->trans_b;
    scalar alpha = to_scalar(a->dtype, a->alpha), beta = to_scalar(a->dtype, a->beta);
    CUdeviceptr A = a->a->ptr + a->a_offset * es;
    CUdeviceptr B = a->b->ptr + a->b_offset * es;
    CUdeviceptr C = a->c->ptr + a->c_offset * es;
    long long lda = a->lda, ldb = a->ldb, ldc = a->ldc;
    void *params[] = {&M, &N, &K, &trans_a, &trans_b, &alpha, &A, &lda, &B, &ldb, &beta, &C, &ldc};

    if ((st = gh_cuda_timer_start(ctx, dev)))
        return st;
    st = gh_cu_check(ctx,
                     ctx->cu->cuLaunchKernel(mod->function, (unsigned)grid_x, (unsigned)grid_y, 1, block_x, block_y, 1,
                                             0, dev->stream, params, NULL),
                     "cuLaunchKernel(%s, grid %lld x %lld, block %u x %u) on device %d", variant, grid_x,
                     grid_y, block_x, block_y, dev->index);
    if (st) {
        ctx->cu->cuStreamSynchronize(dev->stream); /* leave the stream idle */
        return st;
    }
    return gh_cuda_timer_stop(ctx, dev, variant, ms);
}
