/* The names and descriptions of CUDA, NVRTC and cuBLAS statuses; see errors.h. */
#include "errors.h"

#include <stdarg.h>
#include <stdio.h>

/* In a checker: `call`, the failed call in words, from its format `what`
 * and the arguments after it. */
#define FORMAT_CALL(call, what)                  \
    char call[512];                              \
    do {                                         \
        va_list ap_;                             \
        va_start(ap_, what);                     \
        vsnprintf(call, sizeof call, what, ap_); \
        va_end(ap_);                             \
    } while (0)

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
    FORMAT_CALL(call, what);
    char desc[512];
    gh_cu_describe(r, desc, sizeof desc);
    gh_status st = r == CUDA_ERROR_OUT_OF_MEMORY ? GH_OUT_OF_MEMORY
                   : r == CUDA_ERROR_NO_DEVICE   ? GH_NO_DEVICE
                                                 : GH_ERROR;
    return gh_plugin_set_error(st, "%s: %s", call, desc);
}

gh_status gh_nvrtc_check(nvrtcResult r, const char *what, ...)
{
    if (r == NVRTC_SUCCESS) return GH_OK;
    FORMAT_CALL(call, what);
    const gh_nvrtc_api *nv = gh_cuda_nvrtc(NULL);
    const char *name = nv ? nv->nvrtcGetErrorString(r) : NULL;
    gh_status st = r == NVRTC_ERROR_OUT_OF_MEMORY ? GH_OUT_OF_MEMORY : GH_ERROR;
    if (name) return gh_plugin_set_error(st, "%s: %s", call, name);
    return gh_plugin_set_error(st, "%s: nvrtcResult %d", call, (int)r);
}

/* Each cuBLAS status: its name and cuBLAS's own description of it. */
#define STATUS_ROW(code, text)                             \
    {                                                      \
        CUBLAS_STATUS_##code, "CUBLAS_STATUS_" #code, text \
    }
static const struct {
    cublasStatus_t status;
    const char *name, *text;
} cublas_statuses[] = {
    STATUS_ROW(SUCCESS, "success"),
    STATUS_ROW(NOT_INITIALIZED, "the cuBLAS library was not initialized"),
    STATUS_ROW(ALLOC_FAILED, "a resource allocation inside cuBLAS failed"),
    STATUS_ROW(INVALID_VALUE, "an unsupported value or parameter was passed"),
    STATUS_ROW(ARCH_MISMATCH, "the device lacks a feature the function needs"),
    STATUS_ROW(MAPPING_ERROR, "an access to GPU memory space failed"),
    STATUS_ROW(EXECUTION_FAILED, "the GPU program failed to execute"),
    STATUS_ROW(INTERNAL_ERROR, "an internal cuBLAS operation failed"),
    STATUS_ROW(NOT_SUPPORTED, "the requested functionality is not supported"),
    STATUS_ROW(LICENSE_ERROR, "the cuBLAS license check failed"),
};
#undef STATUS_ROW

/* The row of s, or -1 for a status this table does not know. */
static int cublas_status_row(cublasStatus_t s)
{
    for (size_t i = 0; i < sizeof cublas_statuses / sizeof cublas_statuses[0]; i++)
        if (cublas_statuses[i].status == s) return (int)i;
    return -1;
}

const char *gh_cublas_status_name(cublasStatus_t s)
{
    int row = cublas_status_row(s);
    return row < 0 ? "unknown cublasStatus_t" : cublas_statuses[row].name;
}

static const char *cublas_status_text(cublasStatus_t s)
{
    int row = cublas_status_row(s);
    return row < 0 ? "no description" : cublas_statuses[row].text;
}

gh_status gh_cublas_check(cublasStatus_t s, const char *what, ...)
{
    if (s == CUBLAS_STATUS_SUCCESS) return GH_OK;
    FORMAT_CALL(call, what);
    gh_status st = s == CUBLAS_STATUS_ALLOC_FAILED    ? GH_OUT_OF_MEMORY
                   : s == CUBLAS_STATUS_NOT_SUPPORTED ? GH_UNSUPPORTED
                   : s == CUBLAS_STATUS_ARCH_MISMATCH ? GH_UNSUPPORTED
                                                      : GH_ERROR;
    return gh_plugin_set_error(st, "%s: %s (%d): %s", call, gh_cublas_status_name(s), (int)s, cublas_status_text(s));
}
