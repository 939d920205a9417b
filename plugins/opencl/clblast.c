/* CLBlast through dlopen; see clblast.h. */
#define _GNU_SOURCE /* RTLD_NODELETE */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <gemmhost/half.h>
#include "clblast.h"
#include "clblast_params.h"
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
_Static_assert(__builtin_types_compatible_p(__typeof__(&CLBlastOverrideParameters), ocl_clblast_override_fn),
               "CLBlastOverrideParameters");
_Static_assert(CLBlastPrecisionHalf == 16 && CLBlastPrecisionSingle == 32 && CLBlastPrecisionDouble == 64,
               "CLBlast's precisions");
_Static_assert(CLBlastLayoutRowMajor == 101 && CLBlastTransposeNo == 111 && CLBlastTransposeYes == 112,
               "CLBlast's enums");
#endif

/* clblast_c.h's CLBlastLayout, CLBlastTranspose and CLBlastStatusCode values. */
enum { LAYOUT_ROW_MAJOR = 101, TRANSPOSE_NO = 111, TRANSPOSE_YES = 112 };
enum {
    CLBLAST_SUCCESS = 0,
    CLBLAST_INVALID_LOCAL_THREADS_TOTAL = -54,
    CLBLAST_INVALID_LOCAL_THREADS_DIM = -55,
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
    /* Only clblast-tuned needs it: its absence refuses that kernel alone. */
    if (!(*(void **)&clblast->override = dlsym(lib, "CLBlastOverrideParameters")))
        snprintf(clblast->why_no_override, sizeof clblast->why_no_override,
                 "%s has no CLBlastOverrideParameters, the call that applies the parameters", name);
    clblast->lib = lib;
}

/* The gh_status a CLBlast status stands for. */
static gh_status status_of(int code)
{
    switch (code) {
    case CLBLAST_TEMP_BUFFER_ALLOC_FAILURE:
    case CLBLAST_OUT_OF_HOST_MEMORY: return GH_OUT_OF_MEMORY;
    case CLBLAST_NOT_IMPLEMENTED:
    case CLBLAST_INVALID_LOCAL_THREADS_TOTAL:
    case CLBLAST_INVALID_LOCAL_THREADS_DIM:
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

/* CLBlast keeps overridden parameters in a process-wide cache that
 * CLBlastClearCache leaves alone: the devices and precisions (bit 0 f16, 1
 * f32, 2 f64) overridden in this process, whichever context did it. */
static struct {
    pthread_mutex_t lock;
    int count, full;
    struct {
        cl_device_id id;
        unsigned precisions;
    } devices[64];
} overridden = {.lock = PTHREAD_MUTEX_INITIALIZER};

static unsigned precision_bit(gh_dtype dtype)
{
    return dtype == GH_F16 ? 1u : dtype == GH_F64 ? 4u : 2u;
}

/* Marks (mark 1) or asks (mark 0) whether dev was overridden in dtype. */
static int overridden_on(cl_device_id id, gh_dtype dtype, int mark)
{
    pthread_mutex_lock(&overridden.lock);
    int found = overridden.full;
    int i = 0;
    while (i < overridden.count && overridden.devices[i].id != id) i++;
    if (i < overridden.count) found = (overridden.devices[i].precisions & precision_bit(dtype)) != 0;
    if (mark) {
        if (i == overridden.count && i < 64) overridden.devices[overridden.count++].id = id;
        if (i < 64) overridden.devices[i].precisions |= precision_bit(dtype);
        else overridden.full = 1; /* from here on every device counts as overridden */
    }
    pthread_mutex_unlock(&overridden.lock);
    return found;
}

/* One CLBlastOverrideParameters call, its status in words. */
static gh_status override_kernel(const ocl_clblast *clblast, const ocl_device *dev, gh_dtype dtype, const char *kernel,
                                 size_t count, const char **names, const size_t *values)
{
    const unsigned precision = dtype == GH_F16 ? 16 : dtype == GH_F64 ? 64 : 32;
    const int code = clblast->override(dev->id, kernel, precision, count, names, values);
    if (code == CLBLAST_SUCCESS) return GH_OK;
    char text[160];
    return gh_plugin_set_error(code == CLBLAST_OUT_OF_HOST_MEMORY ? GH_OUT_OF_MEMORY : GH_ERROR,
                               "gemm: clblast-tuned: CLBlastOverrideParameters(%s, %s) on '%s' failed: %s", kernel,
                               gh_plugin_dtype_name(dtype), dev->name,
                               ocl_clblast_status_text(code, text, sizeof text));
}

/* Refuses what the parameters or the device rule out, then applies Xgemm's
 * parameters and the indirect GEMM at every size (GemmRoutine's
 * XGEMM_MIN_INDIRECT_SIZE 0: CLBlast's XgemmDirect below it would not use
 * them). */
static gh_status apply_tuned(const ocl_clblast *clblast, const ocl_device *dev, gh_dtype dtype, const int64_t *p)
{
    char why[256];
    if (!ocl_clblast_tuned_fits(p, why, sizeof why))
        return gh_plugin_set_error(GH_UNSUPPORTED, "gemm: clblast-tuned: %s", why);
    if (!p[OCL_CLB_OVERRIDE]) return GH_OK;
    if (!clblast->override)
        return gh_plugin_set_error(GH_UNSUPPORTED, "gemm: clblast-tuned: %s", clblast->why_no_override);
    const long long threads = (long long)ocl_clblast_tuned_threads(p);
    if (dev->info.max_workgroup_size && threads > (long long)dev->info.max_workgroup_size)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "gemm: clblast-tuned: MDIMC * NDIMC is %lld work-items, over "
                                   "CL_DEVICE_MAX_WORK_GROUP_SIZE (%u) of '%s'",
                                   threads, dev->info.max_workgroup_size, dev->name);
    const uint64_t local = ocl_clblast_tuned_local_bytes(p, dtype);
    if (local > dev->info.local_mem_bytes)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "gemm: clblast-tuned: SA * KWG * MWG + SB * KWG * NWG in %s is %llu bytes of "
                                   "local memory, over CL_DEVICE_LOCAL_MEM_SIZE (%llu) of '%s'",
                                   gh_plugin_dtype_name(dtype), (unsigned long long)local,
                                   (unsigned long long)dev->info.local_mem_bytes, dev->name);
    const char *names[OCL_CLB_XGEMM_PARAMS];
    size_t values[OCL_CLB_XGEMM_PARAMS];
    ocl_clblast_xgemm_values(p, names, values);
    overridden_on(dev->id, dtype, 1); /* even a failed call may have left some */
    gh_status status = override_kernel(clblast, dev, dtype, "Xgemm", OCL_CLB_XGEMM_PARAMS, names, values);
    const char *routine_names[] = {"XGEMM_MIN_INDIRECT_SIZE"};
    const size_t routine_values[] = {0};
    if (status == GH_OK) status = override_kernel(clblast, dev, dtype, "GemmRoutine", 1, routine_names, routine_values);
    return status;
}

gh_status ocl_clblast_gemm(ocl_clblast *clblast, const char *library, ocl_device *dev, const gh_gemm_args *args,
                           const int64_t *tuned, double *kernel_ms, gh_clock *clock, char *note, size_t note_size)
{
    const char *kernel = tuned ? "clblast-tuned" : "clblast";
    pthread_mutex_lock(&clblast->lock);
    if (!clblast->tried) load(clblast, library);
    pthread_mutex_unlock(&clblast->lock);
    if (!clblast->lib) return gh_plugin_set_error(GH_UNSUPPORTED, "gemm: kernel %s: %s", kernel, clblast->why);
    if (args->dtype == GH_F16 && !dev->has_fp16)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "gemm: kernel %s: CLBlast's HGEMM computes in half precision and needs "
                                   "cl_khr_fp16, which '%s' does not offer",
                                   kernel, dev->name);
    gh_status status = GH_OK;
    if (tuned) status = apply_tuned(clblast, dev, args->dtype, tuned);
    if (status != GH_OK) return status;
    if ((!tuned || !tuned[OCL_CLB_OVERRIDE]) && overridden_on(dev->id, args->dtype, 0))
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "gemm: kernel %s: clblast-tuned overrode CLBlast's parameters on '%s' in %s earlier "
                                   "in this process, and CLBlast 1.5.3 keeps an override for the process with no way "
                                   "back to its own: run CLBlast's defaults in a backend (worker process) of their own",
                                   kernel, dev->name, gh_plugin_dtype_name(args->dtype));
    if (tuned && note) ocl_clblast_tuned_note(tuned, note, note_size);
    status = ocl_device_ready(dev);
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
