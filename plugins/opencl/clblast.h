/* The `clblast` kernel: CLBlast's SGEMM, DGEMM and HGEMM (Debian's
 * libclblast1), loaded at run time with dlopen so that the plugin works where
 * the library is absent and says so. It is the OpenCL baseline the plugin's
 * own kernels are compared with, beside cuBLAS.
 *
 * Timing: for row-major products CLBlast 1.5.3 may launch several kernels
 * (pad or transpose A and B, multiply, copy C back) and the event it returns
 * covers only the last one. The call is timed by two markers on the device's
 * in-order queue, one enqueued just before the call and one just after:
 * everything CLBlast queued lies between them, so the device clock's interval
 * from the first marker's end to the second's is the whole call's work.
 * Where a driver gives markers no usable timestamps, the host clock from
 * before the call to the second marker's completion stands in (and the
 * result's clock says host). */
#ifndef GH_OPENCL_CLBLAST_H
#define GH_OPENCL_CLBLAST_H

#include <pthread.h>
#include <CL/cl.h>
#include <gemmhost/plugin.h>

/* CLBlast's C API, as clblast_c.h declares it (its enums passed as the
 * unsigned int GCC and Clang give them; clblast.c checks these against the
 * header where it is installed). */
typedef int (*ocl_clblast_sgemm_fn)(unsigned layout, unsigned trans_a, unsigned trans_b, size_t m, size_t n, size_t k,
                                    float alpha, cl_mem a, size_t a_offset, size_t a_ld, cl_mem b, size_t b_offset,
                                    size_t b_ld, float beta, cl_mem c, size_t c_offset, size_t c_ld,
                                    cl_command_queue *queue, cl_event *event);
typedef int (*ocl_clblast_dgemm_fn)(unsigned layout, unsigned trans_a, unsigned trans_b, size_t m, size_t n, size_t k,
                                    double alpha, cl_mem a, size_t a_offset, size_t a_ld, cl_mem b, size_t b_offset,
                                    size_t b_ld, double beta, cl_mem c, size_t c_offset, size_t c_ld,
                                    cl_command_queue *queue, cl_event *event);
typedef int (*ocl_clblast_hgemm_fn)(unsigned layout, unsigned trans_a, unsigned trans_b, size_t m, size_t n, size_t k,
                                    cl_half alpha, cl_mem a, size_t a_offset, size_t a_ld, cl_mem b, size_t b_offset,
                                    size_t b_ld, cl_half beta, cl_mem c, size_t c_offset, size_t c_ld,
                                    cl_command_queue *queue, cl_event *event);
typedef int (*ocl_clblast_clear_cache_fn)(void);
typedef int (*ocl_clblast_override_fn)(cl_device_id device, const char *kernel_name, unsigned precision,
                                       size_t num_parameters, const char **parameters_names,
                                       const size_t *parameters_values);

/* The library, loaded at the first clblast GEMM of a context. */
typedef struct ocl_clblast {
    pthread_mutex_t lock; /* devices may run on several threads: one of them loads */
    int tried;
    void *lib;
    ocl_clblast_sgemm_fn sgemm;
    ocl_clblast_dgemm_fn dgemm;
    ocl_clblast_hgemm_fn hgemm;
    ocl_clblast_clear_cache_fn clear_cache;
    ocl_clblast_override_fn override; /* NULL: clblast-tuned is refused, saying why_no_override */
    char why[768];                    /* why it did not load */
    char why_no_override[512];
} ocl_clblast;

/* The default library, and the option that names another. */
#define OCL_CLBLAST_LIBRARY "libclblast.so.1"

struct gh_plugin;
struct ocl_device;

void ocl_clblast_init(ocl_clblast *clblast);

/* C = alpha op(A) op(B) + beta C through CLBlast on dev (f32, f64, f16), and
 * the whole call's time in ms and the clock that measured it (the device's,
 * unless its markers have no timestamps). GH_UNSUPPORTED with the
 * reason where the library does not load (library: the option's value, or
 * NULL for OCL_CLBLAST_LIBRARY) or f16 lacks cl_khr_fp16; a CLBlast failure
 * is its status in words.
 *
 * tuned: NULL for kernel clblast; for clblast-tuned its parameters
 * (clblast_params.h), which with override=1 are applied before the call by
 * CLBlastOverrideParameters (Xgemm's, and GemmRoutine's
 * XGEMM_MIN_INDIRECT_SIZE 0 so that Xgemm runs at every size), and note
 * (note_size bytes) says what ran. CLBlast 1.5.3 keeps an override for the
 * rest of the process and cannot restore its own parameters: once one is
 * applied on a device in a precision, CLBlast's defaults (kernel clblast,
 * and clblast-tuned with override=0) are refused there, saying so. */
gh_status ocl_clblast_gemm(ocl_clblast *clblast, const char *library, struct ocl_device *dev, const gh_gemm_args *args,
                           const int64_t *tuned, double *kernel_ms, gh_clock *clock, char *note, size_t note_size);

/* Empties CLBlast's program cache (it holds programs of this context's
 * devices) and unloads; before the devices' contexts are released. */
void ocl_clblast_close(ocl_clblast *clblast);

#endif
