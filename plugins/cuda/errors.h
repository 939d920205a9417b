/*
 * Every CUDA, NVRTC and cuBLAS status becomes its name, its description and
 * the call that returned it, in the calling thread's error text
 * (gh_plugin_set_error of gemmhost/plugin_helpers.h).
 */
#ifndef GH_CUDA_ERRORS_H
#define GH_CUDA_ERRORS_H

#include "gemmhost/plugin_helpers.h"
#include "libs.h"

/* GH_OK for success; otherwise records "<what>: NAME: description" and
 * returns the matching gh_status. `what` is a printf format naming the call. */
gh_status gh_cu_check(CUresult r, const char *what, ...) GH_PLUGIN_PRINTF(2, 3);
gh_status gh_nvrtc_check(nvrtcResult r, const char *what, ...) GH_PLUGIN_PRINTF(2, 3);
gh_status gh_cublas_check(cublasStatus_t s, const char *what, ...) GH_PLUGIN_PRINTF(2, 3);

/* "NAME: description" of a CUresult, for messages built elsewhere. */
void gh_cu_describe(CUresult r, char *out, size_t out_size);

/* The NUL-terminated name of a cublasStatus_t, e.g. "CUBLAS_STATUS_NOT_SUPPORTED". */
const char *gh_cublas_status_name(cublasStatus_t s);

#endif
