/* Launches kernels/cuda/naive.cu, tiled.cu and blocked.cu; see kernels.h. */
#include "kernels.h"

#include <stdio.h>

#include "devices.h"
#include "errors.h"
#include "compile.h"

/* naive: a warp spans 32 consecutive columns of one row of C. */
#define NAIVE_BLOCK_X 32
#define NAIVE_BLOCK_Y 8

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

/* blocked.cu: DEPTH is 16, or 8 for 8-byte types so that its two buffers of
 * two DEPTH x (TILE + 16 bytes) tiles stay within 48 KB of static shared
 * memory at tile 128. */
int gh_cuda_blocked_depth(gh_dtype dtype)
{
    return gh_plugin_dtype_size(dtype) == 8 ? 8 : 16;
}

long long gh_cuda_blocked_shared_bytes(gh_dtype dtype, int64_t tile)
{
    long long es = (long long)gh_plugin_dtype_size(dtype);
    return 2LL * 2LL * gh_cuda_blocked_depth(dtype) * (tile + 16 / es) * es;
}

/* The variant's name in messages, e.g. "gemm_tiled (f32, tile 16)". */
static void describe(char *out, size_t size, int kernel, gh_dtype dtype, const gh_cuda_variant *v)
{
    if (kernel == GH_CUDA_BLOCKED)
        snprintf(out, size, "gemm_blocked (%s, tile %lld, work %lld)", gh_plugin_dtype_name(dtype), (long long)v->tile,
                 (long long)v->work);
    else if (kernel == GH_CUDA_TILED)
        snprintf(out, size, "gemm_tiled (%s, tile %lld)", gh_plugin_dtype_name(dtype), (long long)v->tile);
    else
        snprintf(out, size, "gemm_naive (%s)", gh_plugin_dtype_name(dtype));
}

gh_status gh_cuda_kernel_enqueue(gh_plugin *ctx, gh_cuda_device *dev, int kernel, const gh_gemm_args *a,
                                 const gh_cuda_variant *v, CUstream stream, CUevent start, CUevent stop)
{
    size_t es = gh_plugin_dtype_size(a->dtype);
    char variant[96];
    describe(variant, sizeof variant, kernel, a->dtype, v);

    /* Block shape and edge of C per block; the device's limits are checked
     * before compiling or launching. */
    unsigned block_x = NAIVE_BLOCK_X, block_y = NAIVE_BLOCK_Y;
    long long threads = 0, shared = 0, cover_x = NAIVE_BLOCK_X, cover_y = NAIVE_BLOCK_Y;
    if (kernel == GH_CUDA_TILED) {
        threads = v->tile * v->tile;
        shared = 2LL * v->tile * (v->tile + 1) * (long long)es; /* as[] and bs[] in tiled.cu */
        block_x = block_y = (unsigned)v->tile;
        cover_x = cover_y = v->tile;
    } else if (kernel == GH_CUDA_BLOCKED) {
        long long side = v->tile / v->work;
        threads = side * side;
        shared = gh_cuda_blocked_shared_bytes(a->dtype, v->tile);
        cover_x = cover_y = v->tile;
    }
    if (threads > dev->max_threads_per_block)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "%s needs %lld threads per block; %s allows %d "
                                   "(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)",
                                   variant, threads, dev->name, dev->max_threads_per_block);
    if (shared > dev->max_shared_per_block)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "%s needs %lld bytes of shared memory per block; %s allows %d "
                                   "(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)",
                                   variant, shared, dev->name, dev->max_shared_per_block);
    if (kernel == GH_CUDA_BLOCKED) { /* one dimension: threadIdx.x is the thread's number */
        block_x = (unsigned)threads;
        block_y = 1;
    }

    long long grid_x = (a->n + cover_x - 1) / cover_x;
    long long grid_y = (a->m + cover_y - 1) / cover_y;
    if (grid_x > dev->max_grid_x || grid_y > dev->max_grid_y)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "%s: M %lld x N %lld needs a grid of %lld x %lld blocks; %s allows %d x %d", variant,
                                   (long long)a->m, (long long)a->n, grid_x, grid_y, dev->name, dev->max_grid_x,
                                   dev->max_grid_y);

    gh_cuda_module *mod = NULL;
    gh_status st = gh_cuda_get_kernel(ctx, dev, kernel, a->dtype, v->index, &mod);
    if (st)
        return st;
    /* What the compiled kernel can take (its registers can lower it). */
    if ((int)(block_x * block_y) > mod->max_threads)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "%s needs %u threads per block; compiled, it runs at most %d on %s "
                                   "(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)",
                                   variant, block_x * block_y, mod->max_threads, dev->name);
    if (mod->static_shared > dev->max_shared_per_block)
        return gh_plugin_set_error(GH_UNSUPPORTED,
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

    if ((st = gh_cuda_record(ctx, dev, start, stream)))
        return st;
    if ((st = gh_cu_check(ctx->cu->cuLaunchKernel(mod->function[trans_a * 2 + trans_b], (unsigned)grid_x,
                                                  (unsigned)grid_y, 1, block_x, block_y, 1, 0, stream, params, NULL),
                          "cuLaunchKernel(%s, %s, grid %lld x %lld, block %u x %u) on device %d", variant,
                          trans_a ? (trans_b ? "tt" : "tn") : (trans_b ? "nt" : "nn"), grid_x, grid_y, block_x,
                          block_y, dev->index)))
        return st;
    return gh_cuda_record(ctx, dev, stop, stream);
}
