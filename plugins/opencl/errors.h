/* OpenCL status codes turned into words, and an OpenCL call's failure
 * recorded as the calling thread's last_error (gemmhost/plugin_helpers.h
 * keeps the text; every other failure sets it with gh_plugin_set_error). */
#ifndef GH_OPENCL_ERRORS_H
#define GH_OPENCL_ERRORS_H

#include <CL/cl.h>
#include <gemmhost/plugin_helpers.h>

/* "CL_OUT_OF_RESOURCES" for -5; NULL for a code no header names. */
const char *cl_error_name(cl_int code);

/* "CL_OUT_OF_RESOURCES (-5)", or "unknown OpenCL error (-1234)", into buf. */
const char *ocl_cl_code_text(cl_int code, char *buf, size_t size);

/* For a failed OpenCL call: sets "<what>: <call>: CL_NAME (code)" and returns
 * GH_OUT_OF_MEMORY for the allocation failures, GH_ERROR otherwise. */
gh_status ocl_fail_cl(cl_int code, const char *call, const char *fmt, ...) GH_PLUGIN_PRINTF(3, 4);

#endif
