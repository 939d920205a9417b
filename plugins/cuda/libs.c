/* Loads libcuda, libnvrtc, libcublas and libcublasLt by name; see libs.h. */
#include "libs.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* dlerror() after a failed dlopen, never NULL. */
static const char *dl_reason(void)
{
    const char *e = dlerror();
    return e ? e : "no reason given";
}

#define GH_STR_(x) #x
#define GH_STR(x)  GH_STR_(x) /* expands macros first: "cuMemAlloc_v2" */

/* Fetches one symbol into api.fn unless an earlier one was already missing. */
#define GH_LOAD_SYM(api, lib, missing, fn)               \
    if (!(missing)) {                                    \
        void *sym_ = dlsym((lib), GH_STR(fn));           \
        if (sym_) (api).fn = (__typeof__((api).fn))sym_; \
        else (missing) = GH_STR(fn);                     \
    }

/* dlopen by soname (LD_LIBRARY_PATH, the plugin's RUNPATH, the system
 * cache), then from the toolkit's usual folders: the one the plugin was built
 * against, and /usr/local/cuda's (the build may come from another machine). */
static void *open_toolkit_lib(const char *soname, char *why, size_t why_size)
{
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (lib) return lib;
    char first[256];
    snprintf(first, sizeof first, "%s", dl_reason());

    static const char *const dirs[] = {GH_CUDA_TOOLKIT_LIBDIR, "/usr/local/cuda/lib64", "/usr/local/cuda/lib"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; ++i) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dirs[i], soname);
        if ((lib = dlopen(path, RTLD_NOW | RTLD_LOCAL))) return lib;
    }
    snprintf(why, why_size, "%s not found (%s; also looked in %s, /usr/local/cuda/lib64 and /usr/local/cuda/lib)",
             soname, first, GH_CUDA_TOOLKIT_LIBDIR);
    return NULL;
}

/* ---- the driver ---- */

static pthread_once_t cu_once = PTHREAD_ONCE_INIT;
static gh_cu_api cu_api;
static const gh_cu_api *cu_ready;
static char cu_why[768];

static void load_driver(void)
{
    /* Only the driver's own library: the toolkit's stubs/libcuda.so would
     * load and then fail every call. */
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(cu_why, sizeof cu_why, "no CUDA driver: libcuda.so.1 not found (%s)", dl_reason());
        return;
    }
    const char *missing = NULL;
#define GH_LOAD_CU(fn) GH_LOAD_SYM(cu_api, lib, missing, fn)
    GH_CU_FUNCTIONS(GH_LOAD_CU)
#undef GH_LOAD_CU
    if (missing) {
        snprintf(cu_why, sizeof cu_why,
                 "CUDA driver too old: libcuda.so.1 has no %s (the plugin was built with CUDA %d)", missing,
                 GH_CUDA_TOOLKIT_MAJOR);
        return; /* lib stays loaded: harmless, and dlclose of a driver is not */
    }
#define GH_LOAD_CU_OPTIONAL(fn) cu_api.fn = (__typeof__(cu_api.fn))dlsym(lib, GH_STR(fn));
    GH_CU_OPTIONAL_FUNCTIONS(GH_LOAD_CU_OPTIONAL)
#undef GH_LOAD_CU_OPTIONAL

    CUresult r = cu_api.cuInit(0);
    if (r != CUDA_SUCCESS) {
        const char *name = NULL, *text = NULL;
        if (cu_api.cuGetErrorName(r, &name) != CUDA_SUCCESS) name = "unknown CUresult";
        if (cu_api.cuGetErrorString(r, &text) != CUDA_SUCCESS) text = "no description";
        if (r == CUDA_ERROR_NO_DEVICE)
            snprintf(cu_why, sizeof cu_why, "CUDA driver found but no CUDA device (cuInit: %s: %s)", name, text);
        else
            snprintf(cu_why, sizeof cu_why, "CUDA driver found but it did not start (cuInit: %s (%d): %s)", name,
                     (int)r, text);
        return;
    }
    cu_ready = &cu_api;
}

const gh_cu_api *gh_cuda_driver(const char **why)
{
    pthread_once(&cu_once, load_driver);
    if (!cu_ready && why) *why = cu_why;
    return cu_ready;
}

/* ---- NVRTC ---- */

static pthread_once_t nvrtc_once = PTHREAD_ONCE_INIT;
static gh_nvrtc_api nvrtc_api;
static const gh_nvrtc_api *nvrtc_ready;
static char nvrtc_why[1100];

static void load_nvrtc(void)
{
    char why[1024];
    void *lib = open_toolkit_lib("libnvrtc.so." GH_STR(GH_CUDA_TOOLKIT_MAJOR), why, sizeof why);
    if (!lib) {
        snprintf(nvrtc_why, sizeof nvrtc_why, "NVRTC not found: %s", why);
        return;
    }
    const char *missing = NULL;
#define GH_LOAD_NVRTC(fn) GH_LOAD_SYM(nvrtc_api, lib, missing, fn)
    GH_NVRTC_FUNCTIONS(GH_LOAD_NVRTC)
#undef GH_LOAD_NVRTC
    if (missing) {
        snprintf(nvrtc_why, sizeof nvrtc_why, "NVRTC too old: libnvrtc has no %s", missing);
        return;
    }
    nvrtc_ready = &nvrtc_api;
}

const gh_nvrtc_api *gh_cuda_nvrtc(const char **why)
{
    pthread_once(&nvrtc_once, load_nvrtc);
    if (!nvrtc_ready && why) *why = nvrtc_why;
    return nvrtc_ready;
}

/* ---- cuBLAS ---- */

static pthread_once_t cublas_once = PTHREAD_ONCE_INIT;
static gh_cublas_api cublas_api;
static const gh_cublas_api *cublas_ready;
static char cublas_why[1100];

static void load_cublas(void)
{
    char why[1024];
    void *lib = open_toolkit_lib("libcublas.so." GH_STR(GH_CUDA_TOOLKIT_MAJOR), why, sizeof why);
    if (!lib) {
        snprintf(cublas_why, sizeof cublas_why, "cuBLAS not found: %s", why);
        return;
    }
    const char *missing = NULL;
#define GH_LOAD_CUBLAS(fn) GH_LOAD_SYM(cublas_api, lib, missing, fn)
    GH_CUBLAS_FUNCTIONS(GH_LOAD_CUBLAS)
#undef GH_LOAD_CUBLAS
    if (missing) {
        snprintf(cublas_why, sizeof cublas_why, "cuBLAS too old: libcublas has no %s", missing);
        return;
    }
    cublas_ready = &cublas_api;
}

const gh_cublas_api *gh_cuda_cublas(const char **why)
{
    pthread_once(&cublas_once, load_cublas);
    if (!cublas_ready && why) *why = cublas_why;
    return cublas_ready;
}

/* ---- cuBLASLt ---- */

static pthread_once_t cublaslt_once = PTHREAD_ONCE_INIT;
static gh_cublaslt_api cublaslt_api;
static const gh_cublaslt_api *cublaslt_ready;
static char cublaslt_why[1100];

static void load_cublaslt(void)
{
    char why[1024];
    void *lib = open_toolkit_lib("libcublasLt.so." GH_STR(GH_CUDA_TOOLKIT_MAJOR), why, sizeof why);
    if (!lib) {
        snprintf(cublaslt_why, sizeof cublaslt_why, "cuBLASLt not found: %s", why);
        return;
    }
    const char *missing = NULL;
#define GH_LOAD_CUBLASLT(fn) GH_LOAD_SYM(cublaslt_api, lib, missing, fn)
    GH_CUBLASLT_FUNCTIONS(GH_LOAD_CUBLASLT)
#undef GH_LOAD_CUBLASLT
    if (missing) {
        snprintf(cublaslt_why, sizeof cublaslt_why, "cuBLASLt too old: libcublasLt has no %s", missing);
        return;
    }
    cublaslt_ready = &cublaslt_api;
}

const gh_cublaslt_api *gh_cuda_cublaslt(const char **why)
{
    pthread_once(&cublaslt_once, load_cublaslt);
    if (!cublaslt_ready && why) *why = cublaslt_why;
    return cublaslt_ready;
}
