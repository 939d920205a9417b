/* The kernels this plugin offers, as the host sees them (gh_kernel_info) and
 * as the plugin builds and launches them (source file, function, build-time
 * parameters, work-group shape, local memory). The table is kernels.c; each
 * kernel's parameters, fit rules and launch shape are its own file, named
 * as in kernels/opencl (naive.c, tiled.c, ...). */
#ifndef GH_OPENCL_KERNELS_H
#define GH_OPENCL_KERNELS_H

#include <stddef.h>
#include <gemmhost/plugin.h>
#include "clblast_params.h"
#include "warptile.h"

/* clblast and clblast-tuned are a library's (clblast.c): no source, no
 * program; clblast-tuned's parameters are CLBlast's (clblast_params.h). */
enum {
    OCL_KERNEL_NAIVE,
    OCL_KERNEL_TILED,
    OCL_KERNEL_BLOCKED,
    OCL_KERNEL_WARPTILE,
    OCL_KERNEL_MMA,
    OCL_KERNEL_WGMMA,
    OCL_KERNEL_CLBLAST,
    OCL_KERNEL_CLBLAST_TUNED,
    OCL_KERNEL_COUNT
};

/* Most parameters any kernel takes (clblast-tuned's). */
#define OCL_MAX_PARAMS OCL_CLB_PARAMS

struct ocl_variant;

typedef struct ocl_kernel_def {
    gh_kernel_info info;
    const char *file;                    /* source in kernels/opencl/, after common.cl; NULL: a library's */
    const char *function;                /* the __kernel's name */
    const char *defines[OCL_MAX_PARAMS]; /* parameter i is built in as -D<defines[i]>=<value> */
    int sm90a;                           /* its PTX holds sm_90a instructions as comments (ptx_rebuild.h) */
    /* The variant's work-group, block of C and local memory, from its values. */
    void (*shape)(struct ocl_variant *v, gh_dtype dtype, uint64_t local_mem_bytes);
    /* 1 when the values fit together, else 0 with why; NULL: every combination does. */
    int (*fits)(const int64_t *values, gh_dtype dtype, char *why, size_t why_size);
} ocl_kernel_def;

extern const ocl_kernel_def ocl_kernels[OCL_KERNEL_COUNT];

/* The kernel_count and kernel_info members: the same with or without a device. */
int ocl_kernel_count(gh_plugin *ctx);
const gh_kernel_info *ocl_kernel_info(gh_plugin *ctx, int kernel);

/* One variant of a kernel for one dtype and device: its parameter values and
 * what follows from them. */
typedef struct ocl_variant {
    int64_t values[OCL_MAX_PARAMS]; /* every parameter, in the kernel's order */
    int slot;                       /* the combination's number among the kernel's: its program cache key */
    size_t local[2];                /* work-group: dimension 0 along N, 1 along M */
    int64_t block_m, block_n;       /* the block of C one work-group computes */
    int linear;                     /* one dimension of work-groups, numbered by the kernel (warptile) */
    int depth;                      /* blocked: the K step (-DDEPTH); 0 for the others */
    int path;                       /* mma, wgmma: 1 + transposes and copy path (-DMMA_PATH, ocl_mma_path); warptile:
                                     * 1 + transposes for a cp.async program (-DGH_NV_ASYNC,
                                     * ocl_warptile_path); 0 else */
    unsigned register_cap;          /* warptile: .maxnreg written into the program's PTX (-DGH_NV_REGISTER_CAP,
                                     * ocl_warptile_path); 0 else */
    uint64_t local_bytes;           /* local memory the kernel declares */
    char text[96];                  /* "tile=128 work=8", for messages */
} ocl_variant;

/* The variant of `kernel` for params (its n_params values, each already
 * checked allowed by gh_plugin_check_params). local_mem_bytes (0: unknown) is
 * the device's, from which blocked picks its K step: 16, or 8 where 16 does
 * not fit. */
void ocl_variant_resolve(int kernel, const int64_t *params, gh_dtype dtype, uint64_t local_mem_bytes, ocl_variant *out);

/* The kernels of inline PTX (mma, wgmma) run only where NVIDIA's compiler
 * takes it, on the compute capabilities their instructions need: 1 when dev
 * can run `kernel` (always, for the other kernels), else 0 with why (the
 * platform, or the compute capability). */
struct ocl_device;
int ocl_inline_ptx_device_fits(int kernel, const struct ocl_device *dev, char *why, size_t why_size);

/* What each kernel's own file (naive.c, tiled.c, ...) gives the table: its
 * parameters, launch shape (ocl_kernel_def.shape) and fit rule (.fits). */

/* ---- naive.c (kernels/opencl/naive.cl) ---- */
enum { OCL_NAIVE_WG, OCL_NAIVE_PARAMS };
extern const gh_param_info ocl_naive_params[OCL_NAIVE_PARAMS];

/* wg x wg work-items, one per element of C. */
void ocl_naive_shape(ocl_variant *v, gh_dtype dtype, uint64_t local_mem_bytes);

/* ---- tiled.c (kernels/opencl/tiled.cl) ---- */
enum { OCL_TILED_TILE, OCL_TILED_PARAMS };
extern const gh_param_info ocl_tiled_params[OCL_TILED_PARAMS];

/* tile x tile work-items, and two tiles of tile x (tile + 1) in local memory. */
void ocl_tiled_shape(ocl_variant *v, gh_dtype dtype, uint64_t local_mem_bytes);

/* ---- blocked.c (kernels/opencl/blocked.cl) ---- */
enum { OCL_BLOCKED_TILE, OCL_BLOCKED_WORK, OCL_BLOCKED_PARAMS };
extern const gh_param_info ocl_blocked_params[OCL_BLOCKED_PARAMS];

/* (tile / work)^2 work-items; the K step (depth) 16, or 8 where the
 * device's local memory (local_mem_bytes, 0: unknown) holds only that. */
void ocl_blocked_shape(ocl_variant *v, gh_dtype dtype, uint64_t local_mem_bytes);

/* ---- mma.c (kernels/opencl/mma.cl) ---- */
/* In the order gemm() takes them. */
enum { OCL_MMA_BM, OCL_MMA_BN, OCL_MMA_BK, OCL_MMA_WM, OCL_MMA_WN, OCL_MMA_STAGES, OCL_MMA_PARAMS };
extern const gh_param_info ocl_mma_params[OCL_MMA_PARAMS];

/* Warps of 32 over the block, and the local memory of its stages (dtype:
 * A's, as the tiles hold it); bk 16 where 32 does not fit the device's
 * local_mem_bytes (0: unknown), except in i8. */
void ocl_mma_shape(ocl_variant *v, gh_dtype dtype, uint64_t local_mem_bytes);

/* 1 when the warp tile fits the block tile and, in i8 (dtype A's), bk is a
 * multiple of 32; else 0 with why. */
int ocl_mma_fits(const int64_t *p, gh_dtype dtype, char *why, size_t why_size);

/* mma (and wgmma) is built once per transpose pair and copy path (so that each program
 * holds one body, whose registers ptxas allocates alone): sets v->path from
 * the call and makes it part of v's program cache key. The 16-byte copy
 * path takes A and B whose offsets and rows are whole 16 bytes (buffers
 * start aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN, at least 128 bytes). */
void ocl_mma_path(ocl_variant *v, int trans_a, int trans_b, uint64_t a_offset, int64_t lda, uint64_t b_offset,
                  int64_t ldb, gh_dtype dtype);

/* ---- wgmma.c (kernels/opencl/wgmma.cl) ---- */
/* In the order gemm() takes them. */
enum { OCL_WGMMA_BM, OCL_WGMMA_BN, OCL_WGMMA_BK, OCL_WGMMA_STAGES, OCL_WGMMA_PARAMS };
extern const gh_param_info ocl_wgmma_params[OCL_WGMMA_PARAMS];

/* A warpgroup of 128 work-items per 64 rows, and the local memory of its
 * stages (dtype: A's, as the tiles hold it). */
void ocl_wgmma_shape(ocl_variant *v, gh_dtype dtype, uint64_t local_mem_bytes);

/* 1 when bk suits dtype (A's): 16 or 32 for f16 and bf16, 32 or 64 for
 * 8-bit inputs; else 0 with why. */
int ocl_wgmma_fits(const int64_t *p, gh_dtype dtype, char *why, size_t why_size);

/* Bytes of an element of the kernels' local-memory tiles: their arithmetic
 * type (ACC_T), f32 for the 16-bit dtypes, which are converted as they are
 * loaded from global memory. */
uint64_t ocl_tile_elem_bytes(gh_dtype dtype);

/* warptile on NVIDIA (compute capability 8.0 and newer), f32 and f64,
 * copies its tiles by cp.async (inline PTX) in a program per transpose
 * pair, each tile's copy known when compiling; elsewhere one program for
 * every pair stages the tiles through registers. Sets v->path (1 + trans_a
 * + 2 trans_b for a cp.async program, else 0) and makes it part of
 * v->slot; sets v->register_cap (ocl_warptile_register_cap), which follows
 * from the rest of the key. */
void ocl_warptile_path(ocl_variant *v, const struct ocl_device *dev, int trans_a, int trans_b, gh_dtype dtype);

/* 1 when the variant's parameters fit together for dtype (warptile's must);
 * else 0 with why. The device's limits are gemm.c's to check. */
int ocl_variant_fits(int kernel, const ocl_variant *v, gh_dtype dtype, char *why, size_t why_size);

/* The -D options of the variant (after the dtype's), e.g. " -DTILE=128 -DWORK=8 -DDEPTH=16". */
void ocl_variant_defines(int kernel, const ocl_variant *v, char *text, size_t size);

#endif
