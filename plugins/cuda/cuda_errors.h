/*
 * Error text: one buffer per thread (plugin.h: last_error() reports the
 * calling thread's failure), tagged with the context it came from. Every
 * CUDA, NVRTC and cuBLAS status becomes its name, its description and the
 * call that returned it.
 */
#ifndef GH_CUDA_ERRORS_H
#define GH_CUDA_ERRORS_H

#include "cuda_plugin.h"

#if defined(__GNUC__)
#define GH_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define GH_PRINTF(f, a)
#endif

/* Sets the calling thread's error for ctx (NULL: no context) and returns st. */
gh_status gh_cuda_fail(const gh_plugin *ctx, gh_status st, const char *fmt, ...) GH_PRINTF(3, 4);

/* The calling thread's last error on ctx, else why ctx has no devices, else "". */
const char *gh_cuda_last_error(const gh_plugin *ctx);

/* Drops the calling thread's error if it belongs to ctx (at close). */
void gh_cuda_forget_errors(const gh_plugin *ctx);

/* GH_OK for success; otherwise records "<what>: NAME: description" and
 * returns the matching gh_status. `what` is a printf format naming the call. */
gh_status gh_cu_check(const gh_plugin *ctx, CUresult r, const char *what, ...) GH_PRINTF(3, 4);
gh_status gh_nvrtc_check(const gh_plugin *ctx, nvrtcResult r, const char *what, ...) GH_PRINTF(3, 4);
gh_status gh_cublas_check(const gh_plugin *ctx, cublasStatus_t s, const char *what, ...) GH_PRINTF(3, 4);

/* "NAME: description" of a CUresult, for messages built elsewhere. */
void gh_cu_describe(CUresult r, char *out, size_t out_size);

/* The NUL-terminated name of a cublasStatus_t, e.g. "CUBLAS_STATUS_NOT_SUPPORTED". */
const char *gh_cublas_status_name(cublasStatus_t s);

#endif
