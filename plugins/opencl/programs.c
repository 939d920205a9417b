#include <stdio.h>
#include <stdlib.h>
#include "devices.h"
#include "last_error.h"
#include "programs.h"
#include "sources.h"

/* Every kernel file is compiled after this one, which holds what they share. */
#define COMMON_SOURCE "common.cl"

static const char *const dtype_c_type[GH_DTYPE_COUNT] = {
    [GH_F32] = "float", [GH_F64] = "double", [GH_I32] = "int"};
static const char *const dtype_names[GH_DTYPE_COUNT] = {
    [GH_F32] = "f32", [GH_F64] = "f64", [GH_I32] = "i32"};

/* Appends the compiler's log to the error text already set. */
static void append_build_log(cl_program program, cl_device_id device)
{
    size_t size = 0;
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS || size == 0) {
        ocl_error_append("\n(the compiler left no log)");
        return;
    }
    char *log = malloc(size + 1);
    if (!log) return;
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log, NULL) == CL_SUCCESS) {
        log[size] = '\0';
        ocl_error_append("\n--- compiler log ---\n");
        ocl_error_append(log);
    }
    free(log);
}

/* clBuildProgram with the kernel's sources and -D options; *program is set
 * (for the caller to release) even when building fails. */
static gh_status build(const gh_plugin *ctx, ocl_device *dev, const ocl_kernel_def *def, gh_dtype dtype,
                       int64_t edge, cl_program *program)
{
    char *common = NULL, *body = NULL;
    size_t common_len = 0, body_len = 0;
    gh_status status = ocl_source_load(ctx->kernel_dir, COMMON_SOURCE, &common, &common_len);
    if (status == GH_OK) status = ocl_source_load(ctx->kernel_dir, def->file, &body, &body_len);
    if (status != GH_OK) {
        free(common);
        return status;
    }

    /* #line makes the compiler's messages name the file and line a person edits. */
    char common_line[64], body_line[64];
    snprintf(common_line, sizeof common_line, "#line 1 \"%s\"\n", COMMON_SOURCE);
    snprintf(body_line, sizeof body_line, "\n#line 1 \"%s\"\n", def->file);
    const char *texts[] = {common_line, common, body_line, body};

    char options[256];
    int used = snprintf(options, sizeof options, "-DDTYPE=%s%s", dtype_c_type[dtype],
                        dtype == GH_F64 ? " -DGH_FP64=1" : "");
    if (def->build_define)
        snprintf(options + used, sizeof options - (size_t)used, " -D%s=%lld", def->build_define, (long long)edge);

    cl_int err;
    *program = clCreateProgramWithSource(dev->context, 4, texts, NULL, &err);
    free(common);
    free(body);
    if (err != CL_SUCCESS) {
        *program = NULL;
        return ocl_fail_cl(err, "clCreateProgramWithSource", "kernel %s (%s)", def->info.name, options);
    }
    err = clBuildProgram(*program, 1, &dev->id, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        status = ocl_fail_cl(err, "clBuildProgram", "building kernel %s (%s, %s) for '%s' failed",
                             def->info.name, dtype_names[dtype], options, dev->name);
        append_build_log(*program, dev->id);
        return status;
    }
    return GH_OK;
}

gh_status ocl_program_get(const gh_plugin *ctx, ocl_device *dev, int kernel, gh_dtype dtype,
                          int64_t edge, cl_kernel *out)
{
    const ocl_kernel_def *def = &ocl_kernels[kernel];
    int variant = def->build_define ? ocl_kernel_variant(def, edge) : 0;
    if (variant < 0)
        return ocl_fail(GH_INVALID_ARGUMENT, "%s=%lld is not an allowed value of kernel %s",
                        def->info.params[0].name, (long long)edge, def->info.name);
    ocl_program_slot *slot = &dev->programs[kernel][dtype][variant];
    if (slot->kernel) {
        *out = slot->kernel;
        return GH_OK;
    }

    gh_status status = ocl_device_ready(dev);
    if (status != GH_OK) return status;
    cl_program program = NULL;
    status = build(ctx, dev, def, dtype, edge, &program);
    if (status != GH_OK) {
        if (program) clReleaseProgram(program);
        return status; /* not cached: a fixed kernel directory gets a new try */
    }
    cl_int err;
    cl_kernel k = clCreateKernel(program, def->function, &err);
    if (err != CL_SUCCESS) {
        clReleaseProgram(program);
        return ocl_fail_cl(err, "clCreateKernel", "kernel function %s of %s", def->function, def->file);
    }
    slot->program = program;
    slot->kernel = k;
    *out = k;
    return GH_OK;
}

void ocl_programs_release(ocl_device *dev)
{
    for (int k = 0; k < OCL_KERNEL_COUNT; k++)
        for (int d = 0; d < GH_DTYPE_COUNT; d++)
            for (int v = 0; v < OCL_MAX_VARIANTS; v++) {
                ocl_program_slot *slot = &dev->programs[k][d][v];
                if (slot->kernel) clReleaseKernel(slot->kernel);
                if (slot->program) clReleaseProgram(slot->program);
                slot->kernel = NULL;
                slot->program = NULL;
            }
}
