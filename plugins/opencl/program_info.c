#include <stdlib.h>
#include "errors.h"
#include "program_info.h"

char *ocl_program_log(cl_program program, cl_device_id device)
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

gh_status ocl_program_binary(cl_program program, const char *what, char **binary)
{
    size_t size = 0;
    cl_int err = clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
    if (err != CL_SUCCESS) return ocl_fail_cl(err, "clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)", "%s", what);
    if (!(*binary = calloc(size + 1, 1)))
        return gh_plugin_set_error(GH_OUT_OF_MEMORY, "%s: out of host memory for %zu bytes", what, size);
    err = clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof *binary, binary, NULL);
    if (err != CL_SUCCESS) {
        free(*binary);
        *binary = NULL;
        return ocl_fail_cl(err, "clGetProgramInfo(CL_PROGRAM_BINARIES)", "%s", what);
    }
    return GH_OK;
}
