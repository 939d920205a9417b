/* The names and descriptions of CUDA, NVRTC and cuBLAS statuses; see errors.h. */
#include "errors.h"

#include <stdarg.h>
#include <stdio.h>

void gh_cu_describe(CUresult r, char *out, size_t out_size)
{
    const gh_cu_api *cu = gh_cuda_driver(NULL);
    const char *name = NULL, *text = NULL;
    if (cu) {
        if (cu->cuGetErrorName(r, &name) != CUDA_SUCCESS) name = NULL;
        if (cu->cuGetErrorString(r, &text) != CUDA_SUCCESS) text = NULL;
    }
    if (name) snprintf(out, out_size, "%s: %s", name, text ? text : "no description");
    else snprintf(out, out_size, "CUresult %d (unknown to this driver)", (int)r);
}

gh_status gh_cu_check(CUresult r, const char *what, ...)
{
    if (r == CUDA_SUCCESS) return GH_OK;
    char call[512], desc[512];
    va_list ap;
    va_start(ap, what);
    vsnprintf(call, sizeof call, what, ap);
    va_end(ap);
    gh_cu_describe(r, desc, sizeof desc);
    gh_status st = r == CUDA_ERROR_OUT_OF_MEMORY ? GH_OUT_OF_MEMORY
                   : r == CUDA_ERROR_NO_DEVICE   ? GH_NO_DEVICE
                                                 : GH_ERROR;
    return gh_plugin_set_error(st, "%s: %s", call, desc);
}

gh_status gh_nvrtc_check(nvrtcResult r, const char *what, ...)
{
    if (r == NVRTC_SUCCESS) return GH_OK;
    char call[512];
    va_list ap;
    va_start(ap, what);
    vsnprintf(call, sizeof call, what, ap);
    va_end(ap);
    const gh_nvrtc_api *nv = gh_cuda_nvrtc(NULL);
    const char *name = nv ? nv->nvrtcGetErrorString(r) : NULL;
    gh_status st = r == NVRTC_ERROR_OUT_OF_MEMORY ? GH_OUT_OF_MEMORY : GH_ERROR;
    if (name) return gh_plugin_set_error(st, "%s: %s", call, name);
    return gh_plugin_set_error(st, "%s: nvrtcResult %d", call, (int)r);
}

const char *gh_cublas_status_name(cublasStatus_t s)
{
    switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
    }
    return "unknown cublasStatus_t";
}

static const char *cublas_status_text(cublasStatus_t s)
{
    switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "the cuBLAS library was not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED: return "a resource allocation inside cuBLAS failed";
    case CUBLAS_STATUS_INVALID_VALUE: return "an unsupported value or parameter was passed";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "the device lacks a feature the function needs";
    case CUBLAS_STATUS_MAPPING_ERROR: return "an access to GPU memory space failed";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "an internal cuBLAS operation failed";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "the requested functionality is not supported";
    case CUBLAS_STATUS_LICENSE_ERROR: return "the cuBLAS license check failed";
    }
    return "no description";
}

gh_status gh_cublas_check(cublasStatus_t s, const char *what, ...)
{
    if (s == CUBLAS_STATUS_SUCCESS) return GH_OK;
    char call[512];
    va_list ap;
    va_start(ap, what);
    vsnprintf(call, sizeof call, what, ap);
    va_end(ap);
    gh_status st = s == CUBLAS_STATUS_ALLOC_FAILED    ? GH_OUT_OF_MEMORY
                   : s == CUBLAS_STATUS_NOT_SUPPORTED ? GH_UNSUPPORTED
                   : s == CUBLAS_STATUS_ARCH_MISMATCH ? GH_UNSUPPORTED
                                                      : GH_ERROR;
    return gh_plugin_set_error(st, "%s: %s (%d): %s", call, gh_cublas_status_name(s), (int)s, cublas_status_text(s));
}
