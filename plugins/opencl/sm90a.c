#include <stdlib.h>
#include <string.h>
#include "errors.h"
#include "program_info.h"
#include "sm90a.h"

gh_status ocl_sm90a_rebuild(cl_context context, cl_device_id device, cl_program built, const char *options,
                            cl_program *out, char **log)
{
    *out = NULL;
    *log = NULL;
    char *ptx = NULL;
    gh_status status = ocl_program_binary(built, "sm_90a: the program's PTX", &ptx);
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
    if (err == CL_INVALID_BUILD_OPTIONS && *options) {
        /* A driver that takes the -cl-nv-* options for source, not for
         * binaries: build without them rather than not at all. */
        options = "";
        err = clBuildProgram(*out, 1, &device, options, NULL, NULL);
    }
    *log = ocl_program_log(*out, device);
    if (err != CL_SUCCESS) {
        status = ocl_fail_cl(err, "clBuildProgram", "sm_90a: building the retargeted PTX (%s)", options);
        gh_plugin_append_error("\n--- ptxas log ---\n%s", *log ? *log : "(the driver left no log)");
        return status;
    }
    return GH_OK;
}
