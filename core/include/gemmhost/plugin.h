/*
 * gemmhost plugin ABI: the only header a plugin includes.
 *
 * A plugin is a shared object that exports exactly one symbol,
 * GEMMHOST_ENTRY_NAME ("gemmhost_plugin_entry"); everything else stays hidden.
 * The host loads it with dlopen(path, RTLD_NOW | RTLD_LOCAL), calls the entry
 * once to negotiate versions and get the plugin's function table, then opens
 * one context per backend instance in the run's config.
 *
 * Rules that keep this ABI growing without breaking anyone:
 *  - GEMMHOST_ABI_MAJOR must match exactly. The minor version is negotiated:
 *    the host writes the newest minor it knows, the plugin answers with the
 *    newest minor both know.
 *  - Every struct that crosses the boundary starts with its own size in bytes.
 *    New members are only ever appended; a reader checks `size` before touching
 *    a member that a newer minor added (GH_HAS_MEMBER).
 *  - Changing the meaning of a member, or adding an enum value an old host would
 *    misread, is a major bump.
 *  - Extras that not every plugin has come through get_proc(name).
 *
 * Ownership: the plugin owns every pointer it returns. Strings and info structs
 * live until close() of the context that returned them (or, for the static
 * members of gh_plugin_api, as long as the library stays loaded).
 *
 * Threads: calls about different devices of one context may come from
 * different threads at once (the multi-device split does this); calls about
 * one device come from one thread at a time. last_error() reports the failed
 * call of the calling thread.
 *
 * Matrices are row-major. op(A) is M x K, op(B) is K x N, C is M x N:
 *   C = alpha * op(A) * op(B) + beta * C
 * With trans_a = 0, A is stored as M rows of K, row i starting at element
 * a_offset + i * lda (lda >= K). With trans_a = 1, A is stored as K rows of M
 * (lda >= M) and op(A) = A^T. Likewise B (K x N, or N x K when transposed), and
 * C is M rows of N with ldc >= N.
 */
#ifndef GEMMHOST_PLUGIN_H
#define GEMMHOST_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GEMMHOST_ABI_MAJOR 1
#define GEMMHOST_ABI_MINOR 1
#define GEMMHOST_ENTRY_NAME "gemmhost_plugin_entry"

/* Marks the one symbol a plugin exports (build plugins with
 * -fvisibility=hidden so nothing else leaks). */
#if defined(__GNUC__)
#define GEMMHOST_EXPORT __attribute__((visibility("default")))
#else
#define GEMMHOST_EXPORT
#endif

/* True when a struct of the given (reader-side) type, whose producer wrote
 * `size`, is large enough to hold `member`. */
#define GH_HAS_MEMBER(ptr, type, member) \
    ((ptr)->size >= offsetof(type, member) + sizeof(((type *)0)->member))

typedef enum gh_status {
    GH_OK = 0,
    GH_ERROR = 1,           /* any failure; last_error() says what */
    GH_UNSUPPORTED = 2,     /* valid request this device/kernel cannot do (e.g. f64
                               without fp64, a tile over the work-group limit) */
    GH_NO_DEVICE = 3,       /* no driver or no device; last_error() says why */
    GH_OUT_OF_MEMORY = 4,
    GH_INVALID_ARGUMENT = 5,
    GH_VERSION_MISMATCH = 6
} gh_status;

typedef enum gh_dtype {
    GH_F32 = 0,
    GH_F64 = 1,
    GH_I32 = 2
} gh_dtype;
#define GH_DTYPE_COUNT 3
#define GH_DTYPE_BIT(d) (1u << (unsigned)(d))

/* What one device is. Filled by the plugin, read-only for the host. */
typedef struct gh_device_info {
    size_t size;                  /* sizeof(gh_device_info) as the plugin knows it */
    const char *name;             /* e.g. "NVIDIA H100 80GB HBM3" */
    const char *vendor;           /* e.g. "NVIDIA Corporation" */
    const char *driver_version;   /* the driver's own version string */
    const char *api;              /* e.g. "OpenCL 3.0 CUDA", "Vulkan 1.3.239", "C (4 threads)" */
    const char *platform;         /* OpenCL platform, or "" */
    uint64_t global_mem_bytes;    /* device memory (host memory for CPU devices) */
    uint64_t local_mem_bytes;     /* shared/local memory per work-group; 0 if none */
    uint32_t compute_units;       /* SMs, compute units, or CPU threads */
    uint32_t max_workgroup_size;  /* invocations per work-group; 0 if not applicable */
    int32_t is_software;          /* 1 for CPU/software implementations (PoCL, lavapipe, C) */
    int32_t has_fp64;             /* 1 if f64 kernels can run */
} gh_device_info;

/* A named integer parameter of a kernel, e.g. `tile`. */
typedef struct gh_param_info {
    size_t size;
    const char *name;
    const char *description;
    int64_t default_value;
    const int64_t *allowed;       /* if n_allowed > 0: the only values allowed */
    size_t n_allowed;
    int64_t min_value, max_value; /* if n_allowed == 0: inclusive range */
} gh_param_info;

typedef struct gh_kernel_info {
    size_t size;
    const char *name;             /* e.g. "naive", "tiled"; unique in the plugin */
    const char *description;
    uint32_t dtypes;              /* GH_DTYPE_BIT mask the kernel implements */
    const gh_param_info *params;  /* n_params entries, in the order gemm() takes them */
    size_t n_params;
} gh_kernel_info;

/* A string option the plugin accepts when a context is opened, e.g. an
 * OpenCL platform filter or a kernel source directory. */
typedef struct gh_option_info {
    size_t size;
    const char *name;
    const char *description;
    const char *default_value;    /* "" when unset */
} gh_option_info;

typedef struct gh_option_value {
    const char *name;             /* one of the plugin's options */
    const char *value;
} gh_option_value;

typedef struct gh_plugin gh_plugin; /* a plugin context, opaque to the host */
typedef struct gh_buffer gh_buffer; /* device memory, opaque to the host */
typedef struct gh_stream gh_stream; /* an in-order queue of work on one device (minor 1) */

typedef struct gh_gemm_args {
    size_t size;                  /* sizeof(gh_gemm_args) as the host knows it */
    gh_dtype dtype;
    int32_t trans_a, trans_b;     /* 0 or 1 */
    int64_t m, n, k;              /* each >= 1 */
    double alpha, beta;           /* for GH_I32: integral values, used as int32 */
    int64_t lda, ldb, ldc;        /* leading dimensions in elements (row-major) */
    gh_buffer *a, *b, *c;         /* from buffer_alloc on the same device */
    uint64_t a_offset, b_offset, c_offset; /* in elements, from the buffer's start */
    const int64_t *params;        /* values of the kernel's params, in its order */
    size_t n_params;
} gh_gemm_args;

typedef enum gh_clock {
    GH_CLOCK_DEVICE = 0,          /* events / profiling / timestamp queries */
    GH_CLOCK_HOST = 1             /* fallback: host clock around launch + wait */
} gh_clock;

typedef struct gh_gemm_timing {
    size_t size;                  /* set by the host */
    double kernel_ms;             /* the kernel's time */
    gh_clock clock;               /* which clock measured kernel_ms */
} gh_gemm_timing;

typedef struct gh_plugin_api {
    size_t size;                  /* sizeof(gh_plugin_api) as the plugin knows it */
    uint32_t abi_major;           /* GEMMHOST_ABI_MAJOR the plugin was built with */
    uint32_t abi_minor;           /* GEMMHOST_ABI_MINOR the plugin was built with */
    const char *name;             /* short name used in configs: "cpu", "opencl" ... */
    const char *description;
    const char *version;          /* the plugin's own version */

    const gh_option_info *options; /* n_options entries, static */
    size_t n_options;

    /* Opens a context with the given options (unknown names are an error).
     * Succeeds even when there is no driver or device: then device_count()
     * is 0 and last_error() says why. *out is set whenever GH_OK is returned. */
    gh_status (*open)(const gh_option_value *options, size_t n_options, gh_plugin **out);
    /* Frees everything the context owns, buffers included. */
    void (*close)(gh_plugin *ctx);
    /* Text of the calling thread's last failure on this context (ctx may be
     * NULL for a failed open). Never NULL; valid until the next call. */
    const char *(*last_error)(gh_plugin *ctx);

    int (*device_count)(gh_plugin *ctx);
    const gh_device_info *(*device_info)(gh_plugin *ctx, int device);

    int (*kernel_count)(gh_plugin *ctx);
    const gh_kernel_info *(*kernel_info)(gh_plugin *ctx, int kernel);

    gh_status (*buffer_alloc)(gh_plugin *ctx, int device, uint64_t bytes, gh_buffer **out);
    void (*buffer_free)(gh_plugin *ctx, gh_buffer *buf);
    /* Blocking copies between host memory and a buffer, at a byte offset. */
    gh_status (*upload)(gh_plugin *ctx, gh_buffer *dst, uint64_t offset, const void *src, uint64_t bytes);
    gh_status (*download)(gh_plugin *ctx, gh_buffer *src, uint64_t offset, void *dst, uint64_t bytes);

    /* Runs one GEMM with the given kernel on the given device and waits for
     * it; fills *timing. A request the device cannot run (dtype, parameter over
     * a device limit) returns GH_UNSUPPORTED before launching, with the limit
     * named in last_error(). */
    gh_status (*gemm)(gh_plugin *ctx, int device, int kernel, const gh_gemm_args *args,
                      gh_gemm_timing *timing);
    /* Waits for all work queued on the device. */
    gh_status (*synchronize)(gh_plugin *ctx, int device);

    /* Optional extras by name; NULL when unknown. */
    void *(*get_proc)(const char *name);

    /* ---- Added in ABI minor 1: streams and pinned host memory, so that one
     * product split over devices overlaps its transfers with computation.
     * The host reads these only when the negotiated minor is >= 1 and `size`
     * covers them; each may still be NULL: not offered, and the host falls
     * back to the blocking calls above.
     *
     * Work queued on one stream runs in order; work on different streams of
     * one device may overlap. Async calls return once the work is queued;
     * host memory they read or write must stay valid, and the `*_ms`
     * pointers they were given must stay valid, until stream_synchronize
     * returns, which then writes each `*_ms` (elapsed time by the device's
     * clock; NULL pointers are allowed). A failure of queued work is reported
     * by stream_synchronize. */
    gh_status (*stream_create)(gh_plugin *ctx, int device, gh_stream **out);
    void (*stream_destroy)(gh_plugin *ctx, gh_stream *stream);
    /* Copies `rows` rows of `width` bytes; row r of the source starts at
     * src + r * src_pitch, of the buffer at offset + r * pitch (bytes). */
    gh_status (*upload_2d_async)(gh_plugin *ctx, gh_stream *stream, gh_buffer *dst, uint64_t offset, uint64_t pitch,
                                 const void *src, uint64_t src_pitch, uint64_t width, uint64_t rows,
                                 double *elapsed_ms);
    gh_status (*download_2d_async)(gh_plugin *ctx, gh_stream *stream, gh_buffer *src, uint64_t offset,
                                   uint64_t pitch, void *dst, uint64_t dst_pitch, uint64_t width, uint64_t rows,
                                   double *elapsed_ms);
    /* As gemm() on the stream's device; timing is written at synchronize. */
    gh_status (*gemm_async)(gh_plugin *ctx, gh_stream *stream, int kernel, const gh_gemm_args *args,
                            gh_gemm_timing *timing);
    gh_status (*stream_synchronize)(gh_plugin *ctx, gh_stream *stream);
    /* Host memory the device copies fastest from and to (page-locked where
     * the API has it). Freed with host_free before close. */
    gh_status (*host_alloc)(gh_plugin *ctx, uint64_t bytes, void **out);
    void (*host_free)(gh_plugin *ctx, void *ptr);
} gh_plugin_api;

/* The size of a minor-0 function table: the host needs at least this much. */
#define GH_PLUGIN_API_MINOR0_SIZE (offsetof(gh_plugin_api, get_proc) + sizeof(void *(*)(const char *)))

/* The entry call's in/out record. */
typedef struct gh_entry_request {
    size_t size;                  /* in: sizeof(gh_entry_request) as the host knows it */
    uint32_t host_abi_major;      /* in */
    uint32_t abi_minor;           /* in: host's newest minor; out: newest both know */
    uint32_t plugin_abi_major;    /* out: always written, even on mismatch */
    const gh_plugin_api *api;     /* out: static table, NULL on failure */
} gh_entry_request;

typedef gh_status (*gh_entry_fn)(gh_entry_request *request);

/* Declaration of the entry a plugin defines. */
GEMMHOST_EXPORT gh_status gemmhost_plugin_entry(gh_entry_request *request);

#ifdef __cplusplus
}
#endif

#endif /* GEMMHOST_PLUGIN_H */
