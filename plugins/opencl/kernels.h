/* The kernels this plugin offers, as the host sees them (gh_kernel_info) and
 * as the plugin builds and launches them (source file, function, build-time
 * parameters, work-group shape, local memory). The table is kernels.c; each
 * kernel's parameters, fit rules and launch shape are its own file, named
 * as in kernels/opencl (naive.c, tiled.c, ...). */
#ifndef GH_OPENCL_KERNELS_H
#define GH_OPENCL_KERNELS_H

#include <stddef.h>
#include <gemmhost/plugin.h>
#include "blocked.h"
#include "mma.h"
#include "naive.h"
#include "tiled.h"
#include "warptile.h"
#include "wgmma.h"

/* clblast is a library's (clblast.c): no source, no program, no parameters. */
enum {
    OCL_KERNEL_NAIVE,
    OCL_KERNEL_TILED,
    OCL_KERNEL_BLOCKED,
    OCL_KERNEL_WARPTILE,
    OCL_KERNEL_MMA,
    OCL_KERNEL_WGMMA,
    OCL_KERNEL_CLBLAST,
    OCL_KERNEL_COUNT
};

/* Most parameters any kernel takes (warptile's). */
#define OCL_MAX_PARAMS OCL_WT_PARAMS

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
