/* gemm(): checks every argument before anything runs, launches the kernel
 * (or cuBLAS) and times it by the device's events; see gemm.h. */
#include "gemm.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "buffers.h"
#include "compile.h"
#include "cublaslt.h"
#include "devices.h"
#include "errors.h"
#include "kernels.h"
#include "tile_grid.h"
#include "wgmma.h"

gh_status gh_cuda_gemm_check(gh_plugin *ctx, const char *call, int device, int kernel, const gh_gemm_args *a,
                             gh_cuda_variant *variant)
{
    gh_status st = gh_cuda_check_device(ctx, call, device);
    if (st == GH_OK) st = gh_plugin_check_index(call, "kernel", kernel, GH_CUDA_KERNEL_COUNT);
    if (st) return st;
    const gh_plugin_gemm_target target = {device, &ctx->devices[device].info, &gh_cuda_kernel_infos[kernel], 0,
                                          gh_cuda_extent};
    st = gh_plugin_check_gemm(call, a, &target);
    /* A dtype the kernel does not have: say where it is. */
    if (st == GH_UNSUPPORTED && !(gh_cuda_kernel_infos[kernel].dtypes & GH_DTYPE_BIT(a->dtype))) {
        if ((kernel == GH_CUDA_CUBLAS || kernel == GH_CUDA_CUBLAS_STRICT) && a->dtype == GH_I32)
            gh_plugin_append_error(": cuBLAS has no int32 GEMM");
        if (kernel == GH_CUDA_CUBLAS_TF32)
            gh_plugin_append_error(": TF32 is a rounding of f32 inputs; kernel cublas does the other dtypes");
    }
    if (st) return st;
    /* The kernels take M, N and K as int (leading dimensions as long long;
     * cuBLAS checks its own). */
    if (a->m > INT_MAX || a->n > INT_MAX || a->k > INT_MAX)
        return gh_plugin_set_error(GH_UNSUPPORTED, "%s: kernel %s takes M, N, K up to %d (got %lld, %lld, %lld)", call,
                                   gh_cuda_kernel_infos[kernel].name, INT_MAX, (long long)a->m, (long long)a->n,
                                   (long long)a->k);
    *variant = gh_cuda_variant_of(kernel, a->params);
    return GH_OK;
}

/* One scalar kernel argument (alpha, beta) of the kernels' acc_t: the dtype
 * itself, or f32 for f16 and bf16; cuLaunchKernel copies as many bytes as
 * the kernel's parameter has, from the start. */
typedef union scalar {
    float f32;
    double f64;
    int i32;
} scalar;

static scalar to_scalar(gh_dtype dtype, double v)
{
    /* the kernels' acc_t follows C's type (f32 for f16/bf16 C, int for i32) */
    scalar s;
    if (dtype == GH_F32 || dtype == GH_F16 || dtype == GH_BF16) s.f32 = (float)v;
    else if (dtype == GH_F64) s.f64 = v;
    else s.i32 = (int)v; /* gemm() checked it is an integral int32 */
    return s;
}

/* Queues a checked request for a source kernel (naive, tiled, blocked) in
 * its variant on `stream` of dev, current on this thread, timed by t when
 * not NULL. A variant over the device's
 * limits (threads or shared memory per block, grid size) is GH_UNSUPPORTED,
 * naming the limit, before anything is compiled or queued. */
static gh_status launch(gh_plugin *ctx, gh_cuda_device *dev, int kernel, const gh_gemm_args *a,
                        const gh_cuda_variant *v, CUstream stream, const gh_cuda_timed *t)
{
    /* Each matrix's own type: the 8-bit combinations differ from C's. The
     * per-tensor scales fold into alpha and beta (exact for the powers of
     * two the host draws), as C = scale_c * (alpha * scale_a * scale_b *
     * op(A) op(B) + beta * C) reads: one f32 multiply less per element. */
    const gh_cuda_types types = gh_cuda_types_of(a);
    const gh_plugin_gemm_types scales = gh_plugin_gemm_types_of(a);
    const size_t es = gh_plugin_dtype_size(types.a), es_b = gh_plugin_dtype_size(types.b),
                 es_c = gh_plugin_dtype_size(types.c);
    char variant[192];
    gh_cuda_variant_name(variant, sizeof variant, kernel, types, v);

    /* The device's limits are checked before compiling or launching. */
    char why[256];
    const gh_dtype sizing = gh_cuda_sizing_dtype(kernel, types);
    if (!gh_cuda_variant_fits(kernel, sizing, v, why, sizeof why))
        return gh_plugin_set_error(GH_UNSUPPORTED, "%s: %s", variant, why);
    if (kernel == GH_CUDA_WGMMA && (!gh_cuda_wgmma_layout_fits(dev, a, why, sizeof why) ||
                                    !gh_cuda_wgmma_cluster_fits(ctx->cu, v, why, sizeof why)))
        return gh_plugin_set_error(GH_UNSUPPORTED, "%s: %s", variant, why);
    if (kernel == GH_CUDA_MMA && dev->cc_major < 8)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "%s needs compute capability 8.0 or newer (cp.async, bf16 and TF32 mma.sync); "
                                   "%s is %d.%d",
                                   variant, dev->name, dev->cc_major, dev->cc_minor);
    /* The variable is read only for the launches it bounds (and per launch:
     * the device tests change it between cases). */
    const int persistent = kernel == GH_CUDA_WGMMA && v->wt[GH_WGMMA_PERSISTENT];
    const char *bound_text = persistent ? getenv(GH_CUDA_PERSISTENT_GRID_ENV) : NULL;
    const int persistent_bound = gh_cuda_persistent_bound(bound_text, dev->sm_count);
    if (persistent_bound < 0)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT,
                                   "%s: %s=%s is not a whole number of blocks from 1 to %d (unset: the device's %d "
                                   "SMs)",
                                   variant, GH_CUDA_PERSISTENT_GRID_ENV, bound_text, INT_MAX, dev->sm_count);
    const gh_cuda_launch_shape shape =
        gh_cuda_launch_shape_of(kernel, sizing, v, a->m, a->n, a->trans_a, a->trans_b, persistent_bound);
    if (shape.threads > dev->max_threads_per_block)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "%s needs %lld threads per block; %s allows %d "
                                   "(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)",
                                   variant, shape.threads, dev->name, dev->max_threads_per_block);
    /* Dynamic shared memory may go up to the opt-in limit. */
    const int shared_limit = shape.dynamic ? dev->max_shared_per_block_optin : dev->max_shared_per_block;
    if (shape.shared > shared_limit)
        return gh_plugin_set_error(GH_UNSUPPORTED, "%s needs %lld bytes of shared memory per block; %s allows %d (%s)",
                                   variant, shape.shared, dev->name, shared_limit,
                                   shape.dynamic ? "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN"
                                                 : "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK");
    if (shape.grid_x > dev->max_grid_x || shape.grid_y > dev->max_grid_y)
        return gh_plugin_set_error(
            GH_UNSUPPORTED, "%s: M %lld x N %lld needs a grid of %lld x %lld blocks; %s allows %d x %d", variant,
            (long long)a->m, (long long)a->n, shape.grid_x, shape.grid_y, dev->name, dev->max_grid_x, dev->max_grid_y);

    gh_cuda_module *mod = NULL;
    gh_status st = gh_cuda_get_kernel(ctx, dev, kernel, types, v, &mod);
    if (st) return st;
    /* What the compiled kernel can take (its registers can lower it). */
    const unsigned block_x = shape.block_x, block_y = shape.block_y;
    if ((int)(block_x * block_y) > mod->max_threads)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "%s needs %u threads per block; compiled, it runs at most %d on %s "
                                   "(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)",
                                   variant, block_x * block_y, mod->max_threads, dev->name);
    if (mod->static_shared + (shape.dynamic ? shape.shared : 0) > shared_limit)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "%s uses %d bytes of shared memory per block; %s allows %d "
                                   "(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)",
                                   variant, mod->static_shared, dev->name, shared_limit);

    /* The kernels' parameters, in order (see kernels/cuda/naive.cu). */
    int M = (int)a->m, N = (int)a->n, K = (int)a->k;
    int trans_a = a->trans_a, trans_b = a->trans_b;
    scalar alpha = to_scalar(types.c, a->alpha * scales.scale_a * scales.scale_b * scales.scale_c),
           beta = to_scalar(types.c, a->beta * scales.scale_c);
    CUdeviceptr A = a->a->ptr + a->a_offset * es;
    CUdeviceptr B = a->b->ptr + a->b_offset * es_b;
    CUdeviceptr C = a->c->ptr + a->c_offset * es_c;
    long long lda = a->lda, ldb = a->ldb, ldc = a->ldc;
    void *params[] = {&M, &N, &K, &trans_a, &trans_b, &alpha, &A, &lda, &B, &ldb, &beta, &C, &ldc};
    /* wgmma reads A and B through tensor maps (kernels/cuda/wgmma.cu). */
    CUtensorMap map_a, map_b;
    void *wgmma_params[] = {&M, &N, &K, &alpha, &beta, &C, &ldc, &map_a, &map_b};
    if (kernel == GH_CUDA_WGMMA && (st = gh_cuda_wgmma_maps(ctx, a, v, &map_a, &map_b))) return st;
    /* warptile's 16-byte copies: A and B each start 16-byte aligned and
     * their rows are whole 16-byte pieces; else its scalar path. */
    int function = trans_a * 2 + trans_b;
    if (mod->function[4 + function] && A % 16 == 0 && B % 16 == 0 && (lda * (long long)es) % 16 == 0 &&
        (ldb * (long long)es_b) % 16 == 0)
        function += 4;

    if (t && t->prepare_only) return GH_OK;
    if ((st = gh_cuda_timed_begin(ctx->cu, dev->index, t, stream))) return st;
    const unsigned dynamic_shared = shape.dynamic ? (unsigned)shape.shared : 0;
    void **args = kernel == GH_CUDA_WGMMA ? wgmma_params : params;
    /* Clusters of blocks along x (wgmma's cluster 2) take cuLaunchKernelEx;
     * the rest the plain launch. */
    CUlaunchAttribute cluster_dims = {.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION};
    cluster_dims.value.clusterDim.x = shape.cluster;
    cluster_dims.value.clusterDim.y = 1;
    cluster_dims.value.clusterDim.z = 1;
    const CUlaunchConfig config = {.gridDimX = (unsigned)shape.grid_x,
                                   .gridDimY = (unsigned)shape.grid_y,
                                   .gridDimZ = 1,
                                   .blockDimX = block_x,
                                   .blockDimY = block_y,
                                   .blockDimZ = 1,
                                   .sharedMemBytes = dynamic_shared,
                                   .hStream = stream,
                                   .attrs = &cluster_dims,
                                   .numAttrs = 1};
    for (unsigned i = 0; i < gh_cuda_launches(t); ++i)
        if ((st = gh_cu_check(
                 shape.cluster > 1
                     ? ctx->cu->cuLaunchKernelEx(&config, mod->function[function], args, NULL)
                     : ctx->cu->cuLaunchKernel(mod->function[function], (unsigned)shape.grid_x, (unsigned)shape.grid_y,
                                               1, block_x, block_y, 1, dynamic_shared, stream, args, NULL),
                 "%s(%s, %s%s, grid %lld x %lld, block %u x %u, cluster %u, %u bytes of dynamic shared "
                 "memory) on device %d",
                 shape.cluster > 1 ? "cuLaunchKernelEx" : "cuLaunchKernel", variant,
                 trans_a ? (trans_b ? "tt" : "tn") : (trans_b ? "nt" : "nn"), function >= 4 ? " 16-byte copies" : "",
                 shape.grid_x, shape.grid_y, block_x, block_y, shape.cluster, dynamic_shared, dev->index)))
            return st;
    return gh_cuda_timed_end(ctx->cu, dev->index, t, stream);
}

gh_status gh_cuda_gemm_enqueue(gh_plugin *ctx, gh_cuda_device *dev, int kernel, const gh_gemm_args *args,
                               const gh_cuda_variant *variant, CUstream stream, gh_cuda_blas *blas,
                               const gh_cuda_timed *t, gh_cuda_report *report)
{
    if (report) *report = (gh_cuda_report){.split_pieces = 0};
    if (kernel >= GH_CUDA_CUBLAS) {
        const int blas_variant = kernel == GH_CUDA_CUBLAS_TF32         ? GH_CUDA_BLAS_TF32
                                 : kernel == GH_CUDA_CUBLAS_STRICT     ? GH_CUDA_BLAS_STRICT
                                 : kernel == GH_CUDA_CUBLASLT_FP8      ? GH_CUDA_BLAS_FP8
                                 : kernel == GH_CUDA_CUBLASLT_FP8_FAST ? GH_CUDA_BLAS_FP8_FAST
                                 : kernel == GH_CUDA_CUBLASLT_I8       ? GH_CUDA_BLAS_I8
                                                                       : GH_CUDA_BLAS_DEFAULT;
        return gh_cuda_blas_enqueue(ctx, dev, blas, stream, blas_variant, args, t, report);
    }
    return launch(ctx, dev, kernel, args, variant, stream, t);
}

gh_status gh_cuda_gemm(gh_plugin *ctx, int device, int kernel, const gh_gemm_args *a, gh_gemm_timing *timing)
{
    gh_cuda_variant variant;
    gh_cuda_device *dev = NULL;
    gh_status st = gh_cuda_gemm_check(ctx, "gemm", device, kernel, a, &variant);
    if (st || (st = gh_cuda_device_enter(ctx, "gemm", device, &dev))) return st;
    const gh_cuda_timed timed = {.start = dev->start, .stop = dev->stop, .gate = &dev->gate, .launches = 1};
    gh_cuda_report report;
    st = gh_cuda_gemm_enqueue(ctx, dev, kernel, a, &variant, dev->stream, &dev->blas, &timed, &report);
    gh_cuda_gate_open(&dev->gate); /* on every path: the stream must not wait forever */
    if (st) {
        ctx->cu->cuStreamSynchronize(dev->stream); /* leave the stream idle; the first error is reported */
        return st;
    }
    double ms = 0.0;
    if ((st = gh_cuda_wait_elapsed(ctx, dev, dev->start, dev->stop, gh_cuda_kernel_infos[kernel].name, &ms))) return st;
    gh_cuda_report_write(timing, ms, &report);
    return GH_OK;
}

void gh_cuda_report_write(gh_gemm_timing *timing, double ms, const gh_cuda_report *r)
{
    if (!timing) return;
    if (GH_HAS_MEMBER(timing, gh_gemm_timing, kernel_ms)) timing->kernel_ms = ms;
    if (GH_HAS_MEMBER(timing, gh_gemm_timing, clock)) timing->clock = GH_CLOCK_DEVICE;
    if (GH_HAS_MEMBER(timing, gh_gemm_timing, note))
        snprintf(timing->note, sizeof timing->note, "%s", r ? r->note : "");
    if (GH_HAS_MEMBER(timing, gh_gemm_timing, split_precision)) {
        timing->split_pieces = r ? r->split_pieces : 0;
        timing->split_precision = r ? r->split_precision : GH_PREC_AS_STORED;
    }
}
