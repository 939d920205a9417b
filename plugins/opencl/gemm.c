#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "buffers.h"
#include "clblast.h"
#include "compile.h"
#include "errors.h"
#include "gemm.h"

/* Every check plugin.h asks of the call; what is left for later are the
 * device's own limits on the variant (work-group size, local memory). The
 * kernels index with 32-bit ints within a matrix: cheaper on GPUs. */
static gh_status check_args(const gh_plugin *ctx, int device, int kernel, const gh_gemm_args *args)
{
    gh_status status = gh_plugin_check_device("gemm", device, ctx->device_count, ctx->no_device_reason);
    if (status == GH_OK) status = gh_plugin_check_index("gemm", "kernel", kernel, OCL_KERNEL_COUNT);
    if (status != GH_OK) return status;
    const gh_plugin_gemm_target target = {device, &ctx->devices[device].info, &ocl_kernels[kernel].info, INT_MAX,
                                          ocl_buffer_extent};
    return gh_plugin_check_gemm("gemm", args, &target);
}

/* What the device says it cannot do, before anything is built. */
static gh_status check_device_limits(const ocl_device *dev, const ocl_kernel_def *def, const ocl_variant *v)
{
    const char *name = def->info.name;
    const uint64_t items = (uint64_t)v->local[0] * v->local[1];
    if (dev->info.max_workgroup_size && items > dev->info.max_workgroup_size)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "gemm: %s %s needs %llu work-items per work-group, over "
                                   "CL_DEVICE_MAX_WORK_GROUP_SIZE (%u) of '%s'",
                                   name, v->text, (unsigned long long)items, dev->info.max_workgroup_size, dev->name);
    for (int dim = 0; dim < 2; dim++)
        if (dev->max_work_item_sizes[dim] && v->local[dim] > dev->max_work_item_sizes[dim])
            return gh_plugin_set_error(GH_UNSUPPORTED,
                                       "gemm: %s %s needs %zu work-items along dimension %d, over "
                                       "CL_DEVICE_MAX_WORK_ITEM_SIZES[%d] (%zu) of '%s'",
                                       name, v->text, v->local[dim], dim, dim, dev->max_work_item_sizes[dim],
                                       dev->name);
    if (v->local_bytes > dev->info.local_mem_bytes)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "gemm: %s %s needs %llu bytes of local memory, over CL_DEVICE_LOCAL_MEM_SIZE "
                                   "(%llu) of '%s'",
                                   name, v->text, (unsigned long long)v->local_bytes,
                                   (unsigned long long)dev->info.local_mem_bytes, dev->name);
    return GH_OK;
}

/* What the built kernel can do can be less than the device's maximum (e.g.
 * when it needs many registers). The refusal says what the driver knows of
 * the kernel: the work-group size it was declared for (all of ours declare
 * one) and, on NVIDIA, what ptxas reported. */
static gh_status check_kernel_limits(const ocl_device *dev, cl_kernel k, const ocl_kernel_def *def,
                                     const ocl_variant *v, const ocl_program_slot *slot)
{
    const char *name = def->info.name;
    size_t kernel_wg = 0;
    cl_int err = clGetKernelWorkGroupInfo(k, dev->id, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_wg, &kernel_wg, NULL);
    if (err != CL_SUCCESS)
        return ocl_fail_cl(err, "clGetKernelWorkGroupInfo", "gemm: work-group size of kernel %s", name);
    const uint64_t items = (uint64_t)v->local[0] * v->local[1];
    if (items <= kernel_wg) return GH_OK;

    char known[400] = "";
    size_t declared[3] = {0, 0, 0};
    /* Only for the message: without the answer it just says less. */
    if (clGetKernelWorkGroupInfo(k, dev->id, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof declared, declared, NULL) ==
        CL_SUCCESS)
        snprintf(known, sizeof known, "; declared for %zux%zux%zu", declared[0], declared[1], declared[2]);
    if (slot && slot->compiler_info[0]) {
        size_t used = strlen(known);
        snprintf(known + used, sizeof known - used, "; ptxas: %s", slot->compiler_info);
    }
    return gh_plugin_set_error(GH_UNSUPPORTED,
                               "gemm: %s %s needs %llu work-items per work-group, over CL_KERNEL_WORK_GROUP_SIZE "
                               "(%zu) of kernel %s on '%s'%s",
                               name, v->text, (unsigned long long)items, kernel_wg, name, dev->name, known);
}

/* Arguments in the order of the kernels' signature (common.cl). */
static gh_status set_kernel_args(cl_kernel k, const gh_gemm_args *args, const gh_plugin_gemm_types *types)
{
    const cl_int m = (cl_int)args->m, n = (cl_int)args->n, kk = (cl_int)args->k;
    const cl_int lda = (cl_int)args->lda, ldb = (cl_int)args->ldb, ldc = (cl_int)args->ldc;
    const cl_int trans_a = args->trans_a, trans_b = args->trans_b;
    const cl_ulong a_off = args->a_offset, b_off = args->b_offset, c_off = args->c_offset;
    /* alpha and beta in the kernel's arithmetic type (ACC_T of common.cl):
     * C's element type, or f32 for the 16-bit ones. The scales (ABI 1.5)
     * fold into them: scale_c (alpha scale_a scale_b acc + beta C) is
     * (alpha scale_a scale_b scale_c) acc + (beta scale_c) C, each factor
     * rounded once to f32 (exact for the powers of two the host draws). An
     * i32 C has scales of 1 (gh_plugin_check_gemm). */
    union {
        cl_float f;
        cl_double d;
        cl_int i;
    } alpha, beta;
    size_t scalar_size = gh_plugin_dtype_size(types->c);
    switch (types->c) {
    case GH_F16:
    case GH_BF16:
        scalar_size = sizeof(cl_float);
        /* fall through */
    case GH_F32:
        alpha.f = (cl_float)(args->alpha * types->scale_a * types->scale_b * types->scale_c);
        beta.f = (cl_float)(args->beta * types->scale_c);
        break;
    case GH_F64:
        alpha.d = args->alpha;
        beta.d = args->beta;
        break;
    case GH_I32:
        alpha.i = (cl_int)args->alpha;
        beta.i = (cl_int)args->beta;
        break;
    default:
        return gh_plugin_set_error(GH_UNSUPPORTED, "gemm: no OpenCL kernel writes a %s C",
                                   gh_plugin_dtype_name(types->c));
    }
    const struct {
        size_t size;
        const void *value;
    } list[] = {
        {sizeof m, &m},
        {sizeof n, &n},
        {sizeof kk, &kk},
        {scalar_size, &alpha},
        {scalar_size, &beta},
        {sizeof(cl_mem), &args->a->mem},
        {sizeof a_off, &a_off},
        {sizeof lda, &lda},
        {sizeof trans_a, &trans_a},
        {sizeof(cl_mem), &args->b->mem},
        {sizeof b_off, &b_off},
        {sizeof ldb, &ldb},
        {sizeof trans_b, &trans_b},
        {sizeof(cl_mem), &args->c->mem},
        {sizeof c_off, &c_off},
        {sizeof ldc, &ldc},
    };
    for (cl_uint i = 0; i < sizeof list / sizeof list[0]; i++) {
        cl_int err = clSetKernelArg(k, i, list[i].size, list[i].value);
        if (err != CL_SUCCESS) return ocl_fail_cl(err, "clSetKernelArg", "gemm: kernel argument %u", (unsigned)i);
    }
    return GH_OK;
}

/* Launches, waits, and returns the kernel's time in ms by the device clock. */
static gh_status launch(ocl_device *dev, cl_kernel k, const ocl_kernel_def *def, const gh_gemm_args *args,
                        const ocl_variant *v, double *kernel_ms)
{
    /* Dimension 0 walks columns of C: consecutive work-items touch
     * consecutive addresses of B and C. One work-group per block of C. */
    const size_t blocks_n = (size_t)((args->n + v->block_n - 1) / v->block_n);
    const size_t blocks_m = (size_t)((args->m + v->block_m - 1) / v->block_m);
    /* warptile numbers its work-groups itself (groups of block rows for L2). */
    const size_t global[2] = {v->linear ? blocks_n * blocks_m * v->local[0] : blocks_n * v->local[0],
                              v->linear ? 1 : blocks_m * v->local[1]};
    cl_event event;
    cl_int err = clEnqueueNDRangeKernel(dev->queue, k, 2, NULL, global, v->local, 0, NULL, &event);
    if (err != CL_SUCCESS)
        return ocl_fail_cl(err, "clEnqueueNDRangeKernel", "gemm: launching kernel %s on '%s'", def->info.name,
                           dev->name);
    err = clWaitForEvents(1, &event);
    if (err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) {
        /* The real reason is the event's (negative) execution status. */
        cl_int exec = 0;
        if (clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof exec, &exec, NULL) == CL_SUCCESS &&
            exec < 0)
            err = exec;
    }
    if (err != CL_SUCCESS) {
        clReleaseEvent(event);
        return ocl_fail_cl(err, "clWaitForEvents", "gemm: kernel %s on '%s' failed", def->info.name, dev->name);
    }
    cl_ulong start = 0, end = 0;
    err = clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
    if (err == CL_SUCCESS) err = clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    clReleaseEvent(event);
    if (err != CL_SUCCESS)
        return ocl_fail_cl(err, "clGetEventProfilingInfo", "gemm: timing kernel %s on '%s'", def->info.name, dev->name);
    *kernel_ms = end > start ? (double)(end - start) * 1e-6 : 0.0;
    return GH_OK;
}

/* One of the plugin's own kernels: refuse what the device cannot run, build
 * (or take from the cache), set the arguments, launch and time. */
static gh_status run_own_kernel(gh_plugin *ctx, ocl_device *dev, int kernel, const gh_gemm_args *args,
                                double *kernel_ms)
{
    const ocl_kernel_def *def = &ocl_kernels[kernel];
    const gh_plugin_gemm_types types = gh_plugin_gemm_types_of(args);
    ocl_variant variant;
    /* The tiles in local memory hold the arithmetic's type, which C's type
     * gives (f32 for 8-bit FP8 A and B, i32 for i8); mma's and wgmma's hold
     * A and B as stored (i8 in bytes). */
    const int tiles_as_stored = kernel == OCL_KERNEL_MMA || kernel == OCL_KERNEL_WGMMA;
    ocl_variant_resolve(kernel, args->params, tiles_as_stored ? types.a : types.c, dev->info.local_mem_bytes, &variant);
    if (kernel == OCL_KERNEL_MMA || kernel == OCL_KERNEL_WGMMA)
        ocl_mma_path(&variant, args->trans_a, args->trans_b, args->a_offset, args->lda, args->b_offset, args->ldb,
                     args->dtype);
    if (kernel == OCL_KERNEL_WARPTILE) ocl_warptile_path(&variant, dev, args->trans_a, args->trans_b, args->dtype);
    char why[256];
    if (!ocl_variant_fits(kernel, &variant, args->dtype, why, sizeof why))
        return gh_plugin_set_error(GH_UNSUPPORTED, "gemm: %s %s in %s: %s", def->info.name, variant.text,
                                   gh_plugin_dtype_name(args->dtype), why);
    if (!ocl_inline_ptx_device_fits(kernel, dev, why, sizeof why))
        return gh_plugin_set_error(GH_UNSUPPORTED, "gemm: %s", why);
    gh_status status = check_device_limits(dev, def, &variant);
    if (status != GH_OK) return status;

    cl_kernel k;
    const ocl_program_slot *slot = NULL;
    status = ocl_program_get(ctx, dev, kernel, &types, &variant, &k, &slot);
    if (status == GH_OK) status = check_kernel_limits(dev, k, def, &variant, slot);
    if (status == GH_OK) status = set_kernel_args(k, args, &types);
    if (status == GH_OK) status = launch(dev, k, def, args, &variant, kernel_ms);
    return status;
}

gh_status ocl_gemm(gh_plugin *ctx, int device, int kernel, const gh_gemm_args *args, gh_gemm_timing *timing)
{
    gh_status status = check_args(ctx, device, kernel, args);
    if (status != GH_OK) return status;
    ocl_device *dev = &ctx->devices[device];
    double kernel_ms = 0;
    gh_clock clock = GH_CLOCK_DEVICE;
    char note[sizeof timing->note] = "";
    if (kernel == OCL_KERNEL_CLBLAST || kernel == OCL_KERNEL_CLBLAST_TUNED)
        status = ocl_clblast_gemm(&ctx->clblast, ctx->clblast_library, dev, args,
                                  kernel == OCL_KERNEL_CLBLAST_TUNED ? args->params : NULL, &kernel_ms, &clock, note,
                                  sizeof note);
    else status = run_own_kernel(ctx, dev, kernel, args, &kernel_ms);
    if (status != GH_OK) return status;

    if (timing && GH_HAS_MEMBER(timing, gh_gemm_timing, kernel_ms)) timing->kernel_ms = kernel_ms;
    if (timing && GH_HAS_MEMBER(timing, gh_gemm_timing, clock)) timing->clock = clock;
    if (timing && note[0] && GH_HAS_MEMBER(timing, gh_gemm_timing, note))
        snprintf(timing->note, sizeof timing->note, "%s", note);
    return GH_OK;
}
