#include <stdlib.h>
#include <string.h>
#include "errors.h"
#include "sm90a.h"

/* The program's one binary (PTX on NVIDIA), NUL-terminated, to free. */
static gh_status program_ptx(cl_program program, char **ptx)
{
    size_t size = 0;
    cl_int err = clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
    if (err != CL_SUCCESS)
        return ocl_fail_cl(err, "clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)", "sm_90a: the program's PTX");
    if (!(*ptx = calloc(size + 1, 1)))
        return gh_plugin_set_error(GH_OUT_OF_MEMORY, "sm_90a: out of host memory for %zu bytes of PTX", size);
    err = clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof *ptx, ptx, NULL);
    if (err != CL_SUCCESS) {
        free(*ptx);
        *ptx = NULL;
        return ocl_fail_cl(err, "clGetProgramInfo(CL_PROGRAM_BINARIES)", "sm_90a: the program's PTX");
    }
    return GH_OK;
}

static char *program_log(cl_program program, cl_device_id device)
{
    size_t size = 0;
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS || size == 0)
        return NULL;
    char *log = calloc(size + 1, 1);
    if (log && clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log, NULL) != CL_SUCCESS) {
        free(log);
        return NULL;
    }
    return log;
}

gh_status ocl_sm90a_rebuild(cl_context context, cl_device_id device, cl_program built, const char *options,
                            cl_program *out, char **log)
{
    *out = NULL;
    *log = NULL;
    char *ptx = NULL;
    gh_status status = program_ptx(built, &ptx);
    if (status != GH_OK) return status;
    const char *why = NULL;
    char *retargeted = ocl_ptx_to_sm90a(ptx, &why);
    free(ptx);
    if (!retargeted)
        return gh_plugin_set_error(strstr(why, "memory") ? GH_OUT_OF_MEMORY : GH_ERROR, "sm_90a: %s", why);

    size_t length = strlen(retargeted);
    const unsigned char *binaries[1] = {(const unsigned char *)retargeted};
    cl_int binary_status = CL_SUCCESS, err;
    *out = clCreateProgramWithBinary(context, 1, &device, &length, binaries, &binary_status, &err);
    if (err == CL_SUCCESS) err = binary_status;
    free(retargeted);
    if (err != CL_SUCCESS) {
        if (*out) clReleaseProgram(*out);
        *out = NULL;
        return ocl_fail_cl(err, "clCreateProgramWithBinary", "sm_90a: loading the retargeted PTX");
    }
    err = clBuildProgram(*out, 1, &device, options, NULL, NULL);
    *log = program_log(*out, device);
    if (err != CL_SUCCESS) {
        status = ocl_fail_cl(err, "clBuildProgram", "sm_90a: building the retargeted PTX (%s)", options);
        gh_plugin_append_error("\n--- ptxas log ---\n%s", *log ? *log : "(the driver left no log)");
        return status;
    }
    return GH_OK;
}
