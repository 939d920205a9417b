/*
 * The CUDA driver, NVRTC, cuBLAS and cuBLASLt, loaded at run time with dlopen.
 *
 * Nothing of CUDA is linked into the plugin, so it loads on a machine with no
 * driver (libcuda.so.1 comes with the driver, not the toolkit) and explains
 * what is missing instead of failing to load. The toolkit headers give every
 * function's real prototype; each table member is declared with it.
 *
 * Each library is loaded once per process, on first use, and never unloaded:
 * CUDA libraries keep per-thread state and exit handlers that must outlive
 * any context the plugin closes.
 */
#ifndef GH_CUDA_LIBS_H
#define GH_CUDA_LIBS_H

#include <cuda.h>
#include <nvrtc.h>
#include <cublas_v2.h>
#include <cublasLt.h>

/* The headers #define some names to their versioned symbols (cuMemAlloc to
 * cuMemAlloc_v2, cublasSgemm to cublasSgemm_v2). A member declared with
 * GH_LIB_MEMBER takes the versioned name too, so cu->cuMemAlloc(...) calls
 * cuMemAlloc_v2, and the loader looks up that same versioned symbol. */
#define GH_LIB_MEMBER(fn) __typeof__(&fn) fn;

/* clang-format off */
#define GH_CU_FUNCTIONS(X)       \
    X(cuInit)                    \
    X(cuDriverGetVersion)        \
    X(cuGetErrorName)            \
    X(cuGetErrorString)          \
    X(cuDeviceGetCount)          \
    X(cuDeviceGet)               \
    X(cuDeviceGetName)           \
    X(cuDeviceTotalMem)          \
    X(cuDeviceGetAttribute)      \
    X(cuDevicePrimaryCtxRetain)  \
    X(cuDevicePrimaryCtxRelease) \
    X(cuCtxSetCurrent)           \
    X(cuCtxSynchronize)          \
    X(cuStreamCreate)            \
    X(cuStreamDestroy)           \
    X(cuStreamSynchronize)       \
    X(cuEventCreate)             \
    X(cuEventDestroy)            \
    X(cuEventRecord)             \
    X(cuEventSynchronize)        \
    X(cuEventElapsedTime)        \
    X(cuMemAlloc)                \
    X(cuMemFree)                 \
    X(cuMemcpyHtoDAsync)         \
    X(cuMemcpyDtoHAsync)         \
    X(cuMemcpy2DAsync)           \
    X(cuMemHostAlloc)            \
    X(cuMemFreeHost)             \
    X(cuMemHostRegister)         \
    X(cuMemHostUnregister)       \
    X(cuModuleLoadData)          \
    X(cuModuleUnload)            \
    X(cuModuleGetFunction)       \
    X(cuFuncGetAttribute)        \
    X(cuFuncSetAttribute)        \
    X(cuLaunchKernel)            \
    X(cuTensorMapEncodeTiled)    \
    X(cuDeviceGetPCIBusId)       \
    X(cuDeviceCanAccessPeer)     \
    X(cuCtxEnablePeerAccess)     \
    X(cuMemcpyPeerAsync)         \
    X(cuMemHostGetDevicePointer) \
    X(cuMemsetD8Async)           \
    X(cuStreamBeginCapture)      \
    X(cuStreamEndCapture)        \
    X(cuGraphInstantiateWithFlags) \
    X(cuGraphLaunch)             \
    X(cuGraphExecDestroy)        \
    X(cuGraphDestroy)
/* clang-format on */
/* Looked up too, but the driver loads without them: NULL in the table where
 * libcuda.so.1 lacks them, and what needs them refuses, naming them
 * (cuLaunchKernelEx, CUDA 11.8: wgmma's thread block clusters). */
/* clang-format off */
#define GH_CU_OPTIONAL_FUNCTIONS(X) \
    X(cuLaunchKernelEx)
/* clang-format on */

/* clang-format off */
#define GH_NVRTC_FUNCTIONS(X) \
    X(nvrtcVersion)           \
    X(nvrtcGetErrorString)    \
    X(nvrtcCreateProgram)     \
    X(nvrtcDestroyProgram)    \
    X(nvrtcCompileProgram)    \
    X(nvrtcGetProgramLogSize) \
    X(nvrtcGetProgramLog)     \
    X(nvrtcGetCUBINSize)      \
    X(nvrtcGetCUBIN)
/* clang-format on */

/* clang-format off */
#define GH_CUBLAS_FUNCTIONS(X) \
    X(cublasCreate)            \
    X(cublasDestroy)           \
    X(cublasGetVersion)        \
    X(cublasSetStream)         \
    X(cublasSetMathMode)       \
    X(cublasGetMathMode)       \
    X(cublasSetPointerMode)    \
    X(cublasSgemm)             \
    X(cublasDgemm)             \
    X(cublasGemmEx)
/* clang-format on */

/* clang-format off */
#define GH_CUBLASLT_FUNCTIONS(X)             \
    X(cublasLtCreate)                        \
    X(cublasLtDestroy)                       \
    X(cublasLtGetVersion)                    \
    X(cublasLtMatmulDescCreate)              \
    X(cublasLtMatmulDescDestroy)             \
    X(cublasLtMatmulDescSetAttribute)        \
    X(cublasLtMatrixLayoutCreate)            \
    X(cublasLtMatrixLayoutDestroy)           \
    X(cublasLtMatmulPreferenceCreate)        \
    X(cublasLtMatmulPreferenceDestroy)       \
    X(cublasLtMatmulPreferenceSetAttribute)  \
    X(cublasLtMatmulAlgoGetHeuristic)        \
    X(cublasLtMatmulAlgoConfigGetAttribute)  \
    X(cublasLtMatmul)
/* clang-format on */

typedef struct gh_cu_api {
    GH_CU_FUNCTIONS(GH_LIB_MEMBER)
    GH_CU_OPTIONAL_FUNCTIONS(GH_LIB_MEMBER)
} gh_cu_api;
typedef struct gh_nvrtc_api {
    GH_NVRTC_FUNCTIONS(GH_LIB_MEMBER)
} gh_nvrtc_api;
typedef struct gh_cublas_api {
    GH_CUBLAS_FUNCTIONS(GH_LIB_MEMBER)
} gh_cublas_api;
typedef struct gh_cublaslt_api {
    GH_CUBLASLT_FUNCTIONS(GH_LIB_MEMBER)
} gh_cublaslt_api;

/* Each returns the library's table, or NULL with *why set to a sentence
 * that says what was missing (static text, valid for the process). */

/* libcuda.so.1 with cuInit(0) done. NULL also when the driver is there but
 * cuInit fails, e.g. with CUDA_ERROR_NO_DEVICE. */
const gh_cu_api *gh_cuda_driver(const char **why);
const gh_nvrtc_api *gh_cuda_nvrtc(const char **why);
const gh_cublas_api *gh_cuda_cublas(const char **why);
/* libcublasLt, beside libcublas in every toolkit since CUDA 10.1. */
const gh_cublaslt_api *gh_cuda_cublaslt(const char **why);

#endif
