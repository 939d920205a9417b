/*
 * The kernels the plugin offers, as data (gh_kernel_info, gh_param_info),
 * the variants the source kernels are compiled in, and each one's launch
 * geometry. Plain data and arithmetic: no CUDA call, no context.
 */
#ifndef GH_CUDA_KERNELS_H
#define GH_CUDA_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "gemmhost/plugin.h"

/* Kernel indices, in the order kernel_info() lists them. */
enum {
    GH_CUDA_NAIVE = 0,
    GH_CUDA_TILED = 1,
    GH_CUDA_BLOCKED = 2,
    GH_CUDA_WARPTILE = 3,
    GH_CUDA_MMA = 4,
    GH_CUDA_WGMMA = 5,
    GH_CUDA_CUBLAS = 6,
    GH_CUDA_CUBLAS_TF32 = 7,
    GH_CUDA_CUBLAS_STRICT = 8,
    GH_CUDA_CUBLASLT_FP8 = 9,
    GH_CUDA_CUBLASLT_FP8_FAST = 10,
    GH_CUDA_CUBLASLT_I8 = 11,
    GH_CUDA_KERNEL_COUNT = 12
};
#define GH_CUDA_SOURCE_KERNELS 6 /* naive .. wgmma are compiled from kernels/cuda */
/* naive, tiled and blocked have few variants, cached in a fixed table
 * (gh_cuda_device.modules); warptile's thousands go in a list. */
#define GH_CUDA_FIXED_KERNELS  3

/* A GEMM's element types as the kernels take them: A's, B's and C's (all
 * one dtype but for the 8-bit combinations). */
typedef struct gh_cuda_types {
    gh_dtype a, b, c;
} gh_cuda_types;
gh_cuda_types gh_cuda_types_of(const gh_gemm_args *args);
gh_cuda_types gh_cuda_types_uniform(gh_dtype dtype);
int gh_cuda_types_are_uniform(gh_cuda_types t);
/* "f32", or "e4m3 x e5m2 -> bf16" */
void gh_cuda_types_name(char *out, size_t size, gh_cuda_types t);

/* The 8-bit combinations naive, tiled and blocked offer: A and B in e4m3 or
 * e5m2 with C in f32, f16 or bf16 (f32 sums), and i8 x i8 -> i32 (exact).
 * Each has a slot in the module cache after the uniform dtypes'. */
#define GH_CUDA_8BIT_COMBOS 13
extern const gh_type_combo gh_cuda_8bit_combos[GH_CUDA_8BIT_COMBOS];
#define GH_CUDA_TYPE_SLOTS           (GH_DTYPE_COUNT + GH_CUDA_8BIT_COMBOS)
/* cublaslt-fp8 (no FAST_ACCUM): the narrow sum added into f32 every this many K */
#define GH_CUDA_LT_FP8_PROMOTE_EVERY 128
/* The cache slot of a type set: its dtype when uniform, else GH_DTYPE_COUNT
 * plus its index in gh_cuda_8bit_combos; -1 for none of them. */
int gh_cuda_type_slot(gh_cuda_types t);
gh_cuda_types gh_cuda_slot_types(int slot);

/* warptile's parameters, in the order gemm() takes them. */
enum {
    GH_WT_BM,
    GH_WT_BN,
    GH_WT_BK,
    GH_WT_WM,
    GH_WT_WN,
    GH_WT_TM,
    GH_WT_TN,
    GH_WT_STAGES,
    GH_WT_MINBLOCKS,
    GH_WT_PARAMS
};

/* mma's parameters, in the order gemm() takes them. */
enum { GH_MMA_BM, GH_MMA_BN, GH_MMA_BK, GH_MMA_WM, GH_MMA_WN, GH_MMA_STAGES, GH_MMA_PARAMS };
/* wgmma's. */
enum {
    GH_WGMMA_BM,
    GH_WGMMA_BN,
    GH_WGMMA_STAGES,
    GH_WGMMA_PROMOTE,
    GH_WGMMA_CLUSTER,
    GH_WGMMA_PERSISTENT, /* last: tune caches and samples of five parameters keep their meaning */
    GH_WGMMA_PARAMS
};

/* The parameter values the source kernels are built for. A kernel's
 * variants (one per combination of its parameters) index a device's module
 * cache: tiled by its tile's index, blocked by
 * tile index * GH_CUDA_BLOCKED_WORK_COUNT + work index. */
#define GH_CUDA_TILE_COUNT 4
extern const int64_t gh_cuda_tiles[GH_CUDA_TILE_COUNT];
#define GH_CUDA_BLOCKED_TILE_COUNT 3
extern const int64_t gh_cuda_blocked_tiles[GH_CUDA_BLOCKED_TILE_COUNT];
#define GH_CUDA_BLOCKED_WORK_COUNT 3
extern const int64_t gh_cuda_blocked_works[GH_CUDA_BLOCKED_WORK_COUNT];
#define GH_CUDA_VARIANT_MAX (GH_CUDA_BLOCKED_TILE_COUNT * GH_CUDA_BLOCKED_WORK_COUNT)

/* One compiled variant of a source kernel. */
typedef struct gh_cuda_variant {
    int64_t tile;             /* tiled and blocked; 0 for naive */
    int64_t work;             /* blocked; 0 otherwise */
    int index;                /* into gh_cuda_device.modules[kernel][dtype]; -1 for warptile and mma */
    int64_t wt[GH_WT_PARAMS]; /* warptile's or mma's parameters (GH_WT_*, GH_MMA_*); zeros otherwise */
} gh_cuda_variant;

/* warptile variants compile_all builds (its full space is thousands): the
 * default and others that between them take each allowed value of every
 * parameter. */
#define GH_CUDA_WARPTILE_SAMPLES 7
extern const int64_t gh_cuda_warptile_samples[GH_CUDA_WARPTILE_SAMPLES][GH_WT_PARAMS];
/* Likewise mma's: the default and shapes that take each allowed value. */
#define GH_CUDA_MMA_SAMPLES 5
extern const int64_t gh_cuda_mma_samples[GH_CUDA_MMA_SAMPLES][GH_MMA_PARAMS];

/* And wgmma's. */
#define GH_CUDA_WGMMA_SAMPLES 7
extern const int64_t gh_cuda_wgmma_samples[GH_CUDA_WGMMA_SAMPLES][GH_WGMMA_PARAMS];

/* The one dtype a kernel's sizes and fit rules go by: A's for warptile,
 * mma and wgmma (their shared tiles hold A and B as stored), C's for naive,
 * tiled and blocked (their tiles hold acc_t, which follows C). */
gh_dtype gh_cuda_sizing_dtype(int kernel, gh_cuda_types types);

/* Kernels with a parameter space too large for a fixed module table:
 * their variants are cached in a list per device (warptile, mma, wgmma). */
int gh_cuda_kernel_has_param_list(int kernel);
/* The number of parameters such a kernel takes. */
int gh_cuda_kernel_param_count(int kernel);

/* Each kernel's parameter table (tiled.c, blocked.c, warptile.c, mma.c, wgmma.c). */
enum { GH_CUDA_TILED_PARAMS = 1, GH_CUDA_BLOCKED_PARAMS = 2 };
extern const gh_param_info gh_cuda_tiled_params[GH_CUDA_TILED_PARAMS];
extern const gh_param_info gh_cuda_blocked_params[GH_CUDA_BLOCKED_PARAMS];
extern const gh_param_info gh_cuda_warptile_params[GH_WT_PARAMS];
/* The block and warp tile parameters warptile and mma share (P: GH_WT or
 * GH_MMA): their defaults and allowed values. */
#define GH_CUDA_TILE_PARAMS(P, BM, BN, BK, WM, WN, BLOCK_EDGES, DEPTHS, WARP_EDGES)                                    \
    [P##_BM] = GH_PLUGIN_PARAM("bm", "rows of C a thread block computes", BM, BLOCK_EDGES),                            \
    [P##_BN] = GH_PLUGIN_PARAM("bn", "columns of C a thread block computes", BN, BLOCK_EDGES),                         \
    [P##_BK] = GH_PLUGIN_PARAM("bk", "step along K: the depth of the tiles of A and B in shared memory", BK, DEPTHS),  \
    [P##_WM] =                                                                                                         \
        GH_PLUGIN_PARAM("wm", "rows of the block's C one warp computes; (bm / wm) * (bn / wn) warps", WM, WARP_EDGES), \
    [P##_WN] = GH_PLUGIN_PARAM("wn", "columns of the block's C one warp computes", WN, WARP_EDGES)
extern const gh_param_info gh_cuda_mma_params[GH_MMA_PARAMS];
extern const gh_param_info gh_cuda_wgmma_params[GH_WGMMA_PARAMS];

extern const gh_kernel_info gh_cuda_kernel_infos[GH_CUDA_KERNEL_COUNT];

/* The kernel_count and kernel_info members of the table. */
int gh_cuda_kernel_count(gh_plugin *ctx);
const gh_kernel_info *gh_cuda_kernel_info(gh_plugin *ctx, int kernel);

/* How many variants a source kernel is built in (naive 1, tiled one per tile,
 * blocked one per tile and work), the parameters of variant `index`, and the
 * variant of a request whose parameters gh_plugin_check_params accepted. */
int gh_cuda_variant_count(int kernel);
gh_cuda_variant gh_cuda_variant_at(int kernel, int index);
gh_cuda_variant gh_cuda_variant_of(int kernel, const int64_t *params);

/* The variant's name in messages, e.g. "gemm_tiled (f32, tile 16)". */
void gh_cuda_variant_name(char *out, size_t size, int kernel, gh_cuda_types types, const gh_cuda_variant *variant);

/* The bytes of one element as the source kernels hold it in registers and
 * shared memory (acc_t in gemm_common.cuh): the dtype's own size, but 4 for
 * f16 and bf16, which are widened to f32 as they are loaded. For the 8-bit
 * combinations acc_t follows C (f32 or int): pass C's dtype. */
size_t gh_cuda_acc_size(gh_dtype dtype);

/* What the blocked kernel needs, as blocked.cu computes it: its step along K
 * for a dtype, and its static shared memory in bytes. */
int gh_cuda_blocked_depth(gh_dtype dtype);
long long gh_cuda_blocked_shared_bytes(gh_dtype dtype, int64_t tile);

/* warptile: whether a variant's parameters fit together (warp tile within
 * the block tile, 32 threads a warp, at most 1024 threads, 16-byte pieces):
 * 1, or 0 with the reason in why. Needs no device. */
int gh_cuda_warptile_fits(gh_dtype dtype, const gh_cuda_variant *v, char *why, size_t why_size);
/* Its dynamic shared memory in bytes for a transpose pair, as warptile.cu
 * lays it out: STAGES tiles of op(A) and op(B), each row 16 bytes longer. */
long long gh_cuda_warptile_shared_bytes(gh_dtype dtype, const gh_cuda_variant *v, int trans_a, int trans_b);

/* mma: whether a variant fits (warp tile within the block tile, whole
 * 16 x 16 pieces, at most 1024 threads): 1, or 0 with the reason. */
int gh_cuda_mma_fits(gh_dtype dtype, const gh_cuda_variant *v, char *why, size_t why_size);
/* Its dynamic shared memory for a transpose pair, as mma.cu lays it out. */
long long gh_cuda_mma_shared_bytes(gh_dtype dtype, const gh_cuda_variant *v, int trans_a, int trans_b);
/* wgmma: whether a variant fits (at most 128 accumulators a thread), and
 * its dynamic shared memory as wgmma.cu lays it out (with room to start
 * on a 1024-byte boundary). */
int gh_cuda_wgmma_fits(gh_dtype dtype, const gh_cuda_variant *v, char *why, size_t why_size);
long long gh_cuda_wgmma_shared_bytes(const gh_cuda_variant *v);
/* Any kernel's check and dynamic shared memory (0 for the others). */
int gh_cuda_variant_fits(int kernel, gh_dtype dtype, const gh_cuda_variant *v, char *why, size_t why_size);
long long gh_cuda_dynamic_shared_bytes(int kernel, gh_dtype dtype, const gh_cuda_variant *v, int trans_a, int trans_b);

/* How a source kernel's variant is launched for an M x N C: its block, the
 * threads and shared memory a block needs (threads 0 for naive, whose
 * fixed 256 threads every device runs), and its grid. shared is static, or
 * for warptile dynamic (given at launch; `dynamic` says which). cluster:
 * the blocks of a thread block cluster along x (wgmma's cluster 2; grid_x a
 * multiple of it), 1 for a plain launch. sm_count: the blocks wgmma's
 * persistent grid is bound by, the device's SMs (tile_grid.h). */
typedef struct gh_cuda_launch_shape {
    unsigned block_x, block_y;
    long long threads, shared;
    int dynamic;
    long long grid_x, grid_y;
    unsigned cluster;
} gh_cuda_launch_shape;
gh_cuda_launch_shape gh_cuda_launch_shape_of(int kernel, gh_dtype dtype, const gh_cuda_variant *variant, int64_t m,
                                             int64_t n, int trans_a, int trans_b, int sm_count);

/* The block tile checks warptile and mma share (1, or 0 with why): the
 * warp tile wm x wn divides the block tile bm x bn; its (bm / wm) *
 * (bn / wn) warps fit CUDA's 1024 threads a block. */
int gh_cuda_warps_divide_block(int64_t bm, int64_t bn, int64_t wm, int64_t wn, char *why, size_t why_size);
int gh_cuda_block_threads_fit(int64_t bm, int64_t bn, int64_t wm, int64_t wn, char *why, size_t why_size);

#endif
