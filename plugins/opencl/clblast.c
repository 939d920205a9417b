/* CLBlast through dlopen; see clblast.h. */
#define _GNU_SOURCE /* RTLD_NODELETE */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <gemmhost/half.h>
#include "clblast.h"
#include "clblast_status.h"
#include "devices.h"
#include "errors.h"

#ifdef GH_HAVE_CLBLAST_H
/* Where libclblast-dev is installed, our declarations must be the header's. */
#include <clblast_c.h>
_Static_assert(__builtin_types_compatible_p(__typeof__(&CLBlastSgemm), ocl_clblast_sgemm_fn), "CLBlastSgemm");
_Static_assert(__builtin_types_compatible_p(__typeof__(&CLBlastDgemm), ocl_clblast_dgemm_fn), "CLBlastDgemm");
_Static_assert(__builtin_types_compatible_p(__typeof__(&CLBlastHgemm), ocl_clblast_hgemm_fn), "CLBlastHgemm");
_Static_assert(__builtin_types_compatible_p(__typeof__(&CLBlastClearCache), ocl_clblast_clear_cache_fn),
               "CLBlastClearCache");
_Static_assert(CLBlastLayoutRowMajor == 101 && CLBlastTransposeNo == 111 && CLBlastTransposeYes == 112,
               "CLBlast's enums");
#endif

/* clblast_c.h's CLBlastLayout, CLBlastTranspose and CLBlastStatusCode values. */
enum { LAYOUT_ROW_MAJOR = 101, TRANSPOSE_NO = 111, TRANSPOSE_YES = 112 };
enum {
    CLBLAST_SUCCESS = 0,
    CLBLAST_TEMP_BUFFER_ALLOC_FAILURE = -4,
    CLBLAST_OUT_OF_HOST_MEMORY = -6,
    CLBLAST_NOT_IMPLEMENTED = -1024,
    CLBLAST_INVALID_LOCAL_MEM_USAGE = -2046,
    CLBLAST_NO_HALF_PRECISION = -2045,
    CLBLAST_NO_DOUBLE_PRECISION = -2044,
};

void ocl_clblast_init(ocl_clblast *clblast)
{
    memset(clblast, 0, sizeof *clblast);
    pthread_mutex_init(&clblast->lock, NULL);
}

/* Sets clblast->lib and the calls, or clblast->why. RTLD_NODELETE: CLBlast is
 * C++ with caches in static objects, and those must not be destroyed while
 * the OpenCL drivers under it are still loaded (see CMakeLists.txt on the
 * plugin's own -z nodelete). */
static void load(ocl_clblast *clblast, const char *library)
{
    const char *name = library ? library : OCL_CLBLAST_LIBRARY;
    const char *hint = library ? "the library the option clblast names" : "install libclblast1";
    clblast->tried = 1;
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!lib) {
        const char *err = dlerror();
        snprintf(clblast->why, sizeof clblast->why, "CLBlast does not load (%s): %s", hint, err ? err : name);
        return;
    }
    static const char *const names[] = {"CLBlastSgemm", "CLBlastDgemm", "CLBlastHgemm", "CLBlastClearCache"};
    void *calls[4];
    for (int i = 0; i < 4; i++)
        if (!(calls[i] = dlsym(lib, names[i]))) {
            snprintf(clblast->why, sizeof clblast->why, "%s loads but has no %s: not CLBlast's C API (%s)", name,
                     names[i], hint);
            dlclose(lib);
            return;
        }
    *(void **)&clblast->sgemm = calls[0];
    *(void **)&clblast->dgemm = calls[1];
    *(void **)&clblast->hgemm = calls[2];
    *(void **)&clblast->clear_cache = calls[3];
    clblast->lib = lib;
}

/* The gh_status a CLBlast status stands for. */
static gh_status status_of(int code)
{
    switch (code) {
    case CLBLAST_TEMP_BUFFER_ALLOC_FAILURE:
    case CLBLAST_OUT_OF_HOST_MEMORY: return GH_OUT_OF_MEMORY;
    case CLBLAST_NOT_IMPLEMENTED:
    case CLBLAST_INVALID_LOCAL_MEM_USAGE:
    case CLBLAST_NO_HALF_PRECISION:
    case CLBLAST_NO_DOUBLE_PRECISION: return GH_UNSUPPORTED;
    default: return GH_ERROR;
    }
}

/* Calls CLBlast's GEMM of the dtype and returns its status; *routine names
 * it. The event CLBlast gives (its last kernel's only) is released unused:
 * the markers time the call. */
static int call(const ocl_clblast *clblast, ocl_device *dev, const gh_gemm_args *g, const char **routine)
{
    const unsigned ta = g->trans_a ? TRANSPOSE_YES : TRANSPOSE_NO, tb = g->trans_b ? TRANSPOSE_YES : TRANSPOSE_NO;
    const size_t m = (size_t)g->m, n = (size_t)g->n, k = (size_t)g->k;
    const size_t lda = (size_t)g->lda, ldb = (size_t)g->ldb, ldc = (size_t)g->ldc;
    const size_t a_off = (size_t)g->a_offset, b_off = (size_t)g->b_offset, c_off = (size_t)g->c_offset;
    cl_event last = NULL;
    int code;
    switch (g->dtype) {
    case GH_F64:
        *routine = "CLBlastDgemm";
        code = clblast->dgemm(LAYOUT_ROW_MAJOR, ta, tb, m, n, k, g->alpha, g->a->mem, a_off, lda, g->b->mem, b_off, ldb,
                              g->beta, g->c->mem, c_off, ldc, &dev->queue, &last);
        break;
    case GH_F16:
        *routine = "CLBlastHgemm";
        code = clblast->hgemm(LAYOUT_ROW_MAJOR, ta, tb, m, n, k, gh_f64_to_f16(g->alpha), g->a->mem, a_off, lda,
                              g->b->mem, b_off, ldb, gh_f64_to_f16(g->beta), g->c->mem, c_off, ldc, &dev->queue, &last);
        break;
    default:
        *routine = "CLBlastSgemm";
        code = clblast->sgemm(LAYOUT_ROW_MAJOR, ta, tb, m, n, k, (float)g->alpha, g->a->mem, a_off, lda, g->b->mem,
                              b_off, ldb, (float)g->beta, g->c->mem, c_off, ldc, &dev->queue, &last);
        break;
    }
    if (last) clReleaseEvent(last);
    return code;
}

/* Waits for a marker; a failed command before it shows as the marker's
 * (negative) execution status. */
static cl_int wait_marker(cl_event marker)
{
    cl_int err = clWaitForEvents(1, &marker);
    if (err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) {
        cl_int exec = 0;
        if (clGetEventInfo(marker, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof exec, &exec, NULL) == CL_SUCCESS &&
            exec < 0)
            err = exec;
    }
    return err;
}

static cl_int marker_end(cl_event marker, cl_ulong *end)
{
    return clGetEventProfilingInfo(marker, CL_PROFILING_COMMAND_END, sizeof *end, end, NULL);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* Runs the call between two markers and measures from the end of the first
 * to the end of the second by the device clock. A driver that gives markers
 * no timestamps (CL_PROFILING_INFO_NOT_AVAILABLE) or none in order gets the
 * host clock from before the call to the second marker's completion
 * instead, and *clock says so. */
static gh_status timed_call(const ocl_clblast *clblast, ocl_device *dev, const gh_gemm_args *g, double *kernel_ms,
                            gh_clock *clock)
{
    cl_event before = NULL, after = NULL;
    cl_int err = clEnqueueMarkerWithWaitList(dev->queue, 0, NULL, &before);
    if (err != CL_SUCCESS)
        return ocl_fail_cl(err, "clEnqueueMarkerWithWaitList", "gemm: clblast: the marker before the call on '%s'",
                           dev->name);
    const char *routine = "";
    const double host_start = now_ms();
    const int code = call(clblast, dev, g, &routine);
    if (code != CLBLAST_SUCCESS) {
        /* Whatever it queued before failing is let finish: the next call
         * starts on an idle queue. clFinish's own failure would only hide
         * CLBlast's reason. */
        clFinish(dev->queue);
        clReleaseEvent(before);
        char text[160];
        return gh_plugin_set_error(status_of(code), "gemm: clblast: %s on '%s' failed: %s", routine, dev->name,
                                   ocl_clblast_status_text(code, text, sizeof text));
    }
    err = clEnqueueMarkerWithWaitList(dev->queue, 0, NULL, &after);
    if (err != CL_SUCCESS) {
        clFinish(dev->queue);
        clReleaseEvent(before);
        return ocl_fail_cl(err, "clEnqueueMarkerWithWaitList", "gemm: clblast: the marker after %s on '%s'", routine,
                           dev->name);
    }
    gh_status status = GH_OK;
    if ((err = wait_marker(after)) != CL_SUCCESS) {
        status = ocl_fail_cl(err, "clWaitForEvents", "gemm: clblast: %s on '%s' failed", routine, dev->name);
    } else {
        const double host_ms = now_ms() - host_start;
        cl_ulong start = 0, end = 0;
        err = marker_end(before, &start);
        if (err == CL_SUCCESS) err = marker_end(after, &end);
        if (err == CL_SUCCESS && end > start) {
            *kernel_ms = (double)(end - start) * 1e-6;
            *clock = GH_CLOCK_DEVICE;
        } else if (err == CL_SUCCESS || err == CL_PROFILING_INFO_NOT_AVAILABLE) {
            *kernel_ms = host_ms;
            *clock = GH_CLOCK_HOST;
        } else {
            status = ocl_fail_cl(err, "clGetEventProfilingInfo", "gemm: clblast: timing %s on '%s' by its markers",
                                 routine, dev->name);
        }
    }
    clReleaseEvent(before);
    clReleaseEvent(after);
    return status;
}

gh_status ocl_clblast_gemm(ocl_clblast *clblast, const char *library, ocl_device *dev, const gh_gemm_args *args,
                           double *kernel_ms, gh_clock *clock)
{
    pthread_mutex_lock(&clblast->lock);
    if (!clblast->tried) load(clblast, library);
    pthread_mutex_unlock(&clblast->lock);
    if (!clblast->lib) return gh_plugin_set_error(GH_UNSUPPORTED, "gemm: kernel clblast: %s", clblast->why);
    if (args->dtype == GH_F16 && !dev->has_fp16)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "gemm: kernel clblast: CLBlast's HGEMM computes in half precision and needs "
                                   "cl_khr_fp16, which '%s' does not offer",
                                   dev->name);
    gh_status status = ocl_device_ready(dev);
    if (status != GH_OK) return status;
    return timed_call(clblast, dev, args, kernel_ms, clock);
}

void ocl_clblast_close(ocl_clblast *clblast)
{
    if (clblast->lib) {
        /* Process-wide: another context in this process rebuilds its
         * programs at its next call, which is slow but right. close() has
         * no one to report a failure to but stderr. */
        const int code = clblast->clear_cache();
        if (code != CLBLAST_SUCCESS) {
            char text[160];
            fprintf(stderr, "gemmhost-opencl: CLBlastClearCache at close: %s\n",
                    ocl_clblast_status_text(code, text, sizeof text));
        }
        dlclose(clblast->lib);
    }
    pthread_mutex_destroy(&clblast->lock);
    memset(clblast, 0, sizeof *clblast);
}
