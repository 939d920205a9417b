/* The kernel table, the variants and their launch geometry; see kernels.h. */
#include "kernels.h"

#include <stdio.h>

#include "gemmhost/plugin_helpers.h"

/* naive: a warp spans 32 consecutive columns of one row of C. */
#define NAIVE_BLOCK_X 32
#define NAIVE_BLOCK_Y 8

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

/* f16 and bf16: stored in 16 bits, widened to f32 for the multiplies and
 * sums, rounded once into C (plugin.h's default arithmetic: no declaration).
 * The conversions are plain instructions on every architecture NVRTC
 * targets, so every CUDA device runs them. */
#define HALF_DTYPES (GH_DTYPE_BIT(GH_F16) | GH_DTYPE_BIT(GH_BF16))
#define ALL_DTYPES  (GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_I32) | HALF_DTYPES)

/* cublas-tf32 multiplies f32 inputs rounded to TF32 on the tensor cores and
 * sums in f32: the host holds it to that bound, not f32's. */
static const gh_kernel_precision tf32_precision[] = {
    {sizeof(gh_kernel_precision), GH_F32, GH_PREC_TF32, GH_PREC_F32},
};

const gh_kernel_info gh_cuda_kernel_infos[GH_CUDA_KERNEL_COUNT] = {
    [GH_CUDA_NAIVE] = {sizeof(gh_kernel_info), "naive",
                       "one thread per element of C, a warp along 32 consecutive columns (NVRTC)", ALL_DTYPES, NULL, 0,
                       NULL, 0},
    [GH_CUDA_TILED] = {sizeof(gh_kernel_info), "tiled",
                       "tile x tile thread blocks, tiles of A and B staged in shared memory (NVRTC)", ALL_DTYPES,
                       tiled_params, 1, NULL, 0},
    [GH_CUDA_BLOCKED] = {sizeof(gh_kernel_info), "blocked",
                         "2D register blocking: each thread a work x work block of C in registers, tiles of A and B "
                         "double-buffered in shared memory (NVRTC)",
                         ALL_DTYPES, blocked_params, 2, NULL, 0},
    [GH_CUDA_CUBLAS] = {sizeof(gh_kernel_info), "cublas",
                        "cuBLAS: SGEMM/DGEMM in the default math mode (no TF32), f16/bf16 through cublasGemmEx with "
                        "f32 compute: the baseline",
                        GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | HALF_DTYPES, NULL, 0, NULL, 0},
    [GH_CUDA_CUBLAS_TF32] =
        {sizeof(gh_kernel_info), "cublas-tf32",
         "cuBLAS f32 GEMM on TF32 tensor cores (cublasGemmEx, CUBLAS_COMPUTE_32F_FAST_TF32): inputs "
         "rounded to TF32, f32 sums; compute capability 8.0 or newer",
         GH_DTYPE_BIT(GH_F32), NULL, 0, tf32_precision, 1},
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

int gh_cuda_kernel_count(gh_plugin *ctx)
{
    (void)ctx;
    return GH_CUDA_KERNEL_COUNT;
}

const gh_kernel_info *gh_cuda_kernel_info(gh_plugin *ctx, int kernel)
{
    (void)ctx;
    if (kernel < 0 || kernel >= GH_CUDA_KERNEL_COUNT) {
        gh_plugin_set_error(GH_INVALID_ARGUMENT, "kernel_info: kernel %d does not exist", kernel);
        return NULL;
    }
    return &gh_cuda_kernel_infos[kernel];
}

gh_cuda_variant gh_cuda_variant_of(int kernel, const int64_t *params)
{
    const gh_param_info *p = gh_cuda_kernel_infos[kernel].params;
    if (kernel == GH_CUDA_TILED) return gh_cuda_variant_at(kernel, gh_plugin_param_index(&p[0], params[0]));
    if (kernel == GH_CUDA_BLOCKED)
        return gh_cuda_variant_at(kernel, gh_plugin_param_index(&p[0], params[0]) * GH_CUDA_BLOCKED_WORK_COUNT +
                                              gh_plugin_param_index(&p[1], params[1]));
    return gh_cuda_variant_at(kernel, 0);
}

size_t gh_cuda_acc_size(gh_dtype dtype)
{
    return dtype == GH_F16 || dtype == GH_BF16 ? 4 : gh_plugin_dtype_size(dtype);
}

/* blocked.cu: DEPTH is 16, or 8 for 8-byte types so that its two buffers of
 * two DEPTH x (TILE + 16 bytes) tiles stay within 48 KB of static shared
 * memory at tile 128. */
int gh_cuda_blocked_depth(gh_dtype dtype)
{
    return gh_cuda_acc_size(dtype) == 8 ? 8 : 16;
}

long long gh_cuda_blocked_shared_bytes(gh_dtype dtype, int64_t tile)
{
    long long es = (long long)gh_cuda_acc_size(dtype);
    return 2LL * 2LL * gh_cuda_blocked_depth(dtype) * (tile + 16 / es) * es;
}

void gh_cuda_variant_name(char *out, size_t size, int kernel, gh_dtype dtype, const gh_cuda_variant *v)
{
    if (kernel == GH_CUDA_BLOCKED)
        snprintf(out, size, "gemm_blocked (%s, tile %lld, work %lld)", gh_plugin_dtype_name(dtype), (long long)v->tile,
                 (long long)v->work);
    else if (kernel == GH_CUDA_TILED)
        snprintf(out, size, "gemm_tiled (%s, tile %lld)", gh_plugin_dtype_name(dtype), (long long)v->tile);
    else snprintf(out, size, "gemm_naive (%s)", gh_plugin_dtype_name(dtype));
}

gh_cuda_launch_shape gh_cuda_launch_shape_of(int kernel, gh_dtype dtype, const gh_cuda_variant *v, int64_t m, int64_t n)
{
    gh_cuda_launch_shape s = {NAIVE_BLOCK_X, NAIVE_BLOCK_Y, 0, 0, 0, 0};
    long long cover_x = NAIVE_BLOCK_X, cover_y = NAIVE_BLOCK_Y; /* the edges of C a block computes */
    if (kernel == GH_CUDA_TILED) {
        s.threads = v->tile * v->tile;
        /* as[] and bs[] in tiled.cu */
        s.shared = 2LL * v->tile * (v->tile + 1) * (long long)gh_cuda_acc_size(dtype);
        s.block_x = s.block_y = (unsigned)v->tile;
        cover_x = cover_y = v->tile;
    } else if (kernel == GH_CUDA_BLOCKED) {
        long long side = v->tile / v->work;
        s.threads = side * side;
        s.shared = gh_cuda_blocked_shared_bytes(dtype, v->tile);
        s.block_x = (unsigned)s.threads; /* one dimension: threadIdx.x is the thread's number */
        s.block_y = 1;
        cover_x = cover_y = v->tile;
    }
    s.grid_x = (n + cover_x - 1) / cover_x;
    s.grid_y = (m + cover_y - 1) / cover_y;
    return s;
}
