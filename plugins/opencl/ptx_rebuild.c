#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "errors.h"
#include "program_info.h"
#include "ptx_rebuild.h"

/* "sm_90a" or "register cap", for messages. */
static const char *edit_name(const ocl_ptx_edit *edit)
{
    return edit->sm90a ? "sm_90a" : "register cap";
}

/* *text (to free): the PTX with edit's changes (at least one). */
static gh_status edited(const char *ptx, const ocl_ptx_edit *edit, char **text)
{
    const char *why = "nothing to change in the PTX";
    *text = NULL;
    if (edit->sm90a && !(*text = ocl_ptx_to_sm90a(ptx, &why))) goto failed;
    if (edit->max_registers) {
        char *capped = ocl_ptx_cap_registers(*text ? *text : ptx, edit->max_registers, &why);
        free(*text);
        if (!(*text = capped)) goto failed;
    }
    if (*text) return GH_OK;
failed:
    return gh_plugin_set_error(strstr(why, "memory") ? GH_OUT_OF_MEMORY : GH_ERROR, "%s: %s", edit_name(edit), why);
}

gh_status ocl_ptx_rebuild(cl_context context, cl_device_id device, cl_program built, const char *options,
                          const ocl_ptx_edit *edit, cl_program *out, char **log)
{
    *out = NULL;
    *log = NULL;
    char *ptx = NULL;
    const char *what = edit_name(edit);
    char step[64];
    snprintf(step, sizeof step, "%s: the program's PTX", what);
    gh_status status = ocl_program_binary(built, step, &ptx);
    if (status != GH_OK) return status;
    char *text = NULL;
    status = edited(ptx, edit, &text);
    free(ptx);
    if (status != GH_OK) return status;
    size_t length = strlen(text);
    const unsigned char *binaries[1] = {(const unsigned char *)text};
    cl_int binary_status = CL_SUCCESS, err;
    *out = clCreateProgramWithBinary(context, 1, &device, &length, binaries, &binary_status, &err);
    if (err == CL_SUCCESS) err = binary_status;
    free(text);
    if (err != CL_SUCCESS) {
        if (*out) clReleaseProgram(*out);
        *out = NULL;
        return ocl_fail_cl(err, "clCreateProgramWithBinary", "%s: loading the edited PTX", what);
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
        status = ocl_fail_cl(err, "clBuildProgram", "%s: building the edited PTX (%s)", what, options);
        gh_plugin_append_error("\n--- ptxas log ---\n%s", *log ? *log : "(the driver left no log)");
        return status;
    }
    return GH_OK;
}
