/* The calling thread's last failure, as text, and helpers that record one
 * and hand back the status to return, so a failing path is one line:
 *     return ocl_fail(GH_INVALID_ARGUMENT, "lda %lld < K %lld", ...);   */
#ifndef GH_OPENCL_LAST_ERROR_H
#define GH_OPENCL_LAST_ERROR_H

#include <CL/cl.h>
#include <gemmhost/plugin.h>

#if defined(__GNUC__)
#define GH_PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define GH_PRINTF(fmt_index, first_arg)
#endif

/* Replaces the thread's error text and returns `status`. */
gh_status ocl_fail(gh_status status, const char *fmt, ...) GH_PRINTF(2, 3);

/* For a failed OpenCL call: "<what>: <call>: CL_NAME (code)". The status is
 * GH_OUT_OF_MEMORY for the allocation failures and GH_ERROR otherwise. */
gh_status ocl_fail_cl(cl_int code, const char *call, const char *fmt, ...) GH_PRINTF(3, 4);

/* Adds to the end of the thread's error text (e.g. a compiler log); cut
 * short, with a note, when it does not fit. */
void ocl_error_append(const char *text);

/* "CL_OUT_OF_RESOURCES (-5)", or "unknown OpenCL error (-1234)", into buf. */
const char *ocl_cl_code_text(cl_int code, char *buf, size_t size);

/* Never NULL; "" when this thread has not failed yet. */
const char *ocl_last_error(void);

#endif
