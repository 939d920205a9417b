/*
 * gemmhost plugin ABI 1.5: the only header a plugin must include, and the
 * whole contract between the host and a plugin. Every rule below is a
 * sentence that tests/conformance (installed as `gemmhost-conformance`)
 * checks against any plugin; `gemmhost/plugin_helpers.h` implements the
 * mechanical parts (entry, argument checks, error text) once.
 * docs/plugin-abi.md has the requirements per minor and the host x plugin
 * version table.
 *
 * Each member of gh_plugin_api below is marked:
 *   (required)  minor 0; the host refuses to load a table where it is NULL.
 *   (optional)  may be NULL; the host then does without it.
 *   (minor 1)   read only when the negotiated minor is >= 1 and the table's
 *               size covers it; the groups say whether they are all-or-none.
 * and says what the host guarantees ("Host:") and what the plugin must do
 * ("Plugin:").
 *
 * ---- Loading and versions ----
 * A plugin is a shared object that exports exactly one symbol,
 * GEMMHOST_ENTRY_NAME ("gemmhost_plugin_entry"); everything else stays hidden
 * (-fvisibility=hidden). The host loads it with dlopen(path, RTLD_NOW |
 * RTLD_LOCAL), calls the entry once to negotiate versions and get the
 * function table, then opens contexts.
 *  - GEMMHOST_ABI_MAJOR must match exactly. The minor is negotiated: the host
 *    writes the newest minor it knows, the plugin answers min(that, the minor
 *    of its table). The host uses only what the answered minor has.
 *  - Every struct that crosses the boundary starts with its own size in bytes,
 *    except gh_option_value (see there). New members are only ever appended;
 *    a reader checks `size` with GH_HAS_MEMBER before touching a member, so a
 *    newer plugin accepts an older host's shorter structs (and the reverse)
 *    as long as the members it reads are present.
 *  - Changing the meaning of a member, or adding an enum value an old host
 *    would misread, is a major bump.
 *  - Extras that not every plugin has come through get_proc(name).
 *
 * ---- Statuses: one per kind of refusal ----
 * Every call returning gh_status answers GH_OK or exactly one of these, and
 * every refusal is decided before any work is launched or any output written:
 *  - GH_INVALID_ARGUMENT: a malformed call. A NULL pointer the member does
 *    not allow; m, n or k < 1; trans_a or trans_b not 0 or 1; a dtype value
 *    outside gh_dtype; a leading dimension below its row length; a device or
 *    kernel index out of range; a buffer of another device; an offset plus
 *    extent past the end of a buffer; a struct whose `size` does not cover
 *    the members the plugin reads; n_params other than the kernel's; a
 *    parameter value not allowed; an unknown option; for GH_I32, an alpha or
 *    beta that is not an integer in int32's range.
 *  - GH_UNSUPPORTED: a well-formed request this device or kernel cannot do:
 *    a dtype not in the kernel's mask, f64 on a device without fp64, a size or
 *    leading dimension over the index range the plugin's kernels use, a
 *    parameter over a device limit (work-group size, local memory).
 *  - GH_OUT_OF_MEMORY: an allocation (device or host memory) failed, e.g. a
 *    buffer larger than the device can hold.
 *  - GH_NO_DEVICE: the context has no device (device_count() is 0) and the
 *    call names one; the text says why, as device_count's does.
 *  - GH_VERSION_MISMATCH: only from the entry, for another major.
 *  - GH_ERROR: anything else (a driver failure, a lost device, a kernel that
 *    does not compile).
 * A call that is both malformed and beyond the device is malformed:
 * GH_INVALID_ARGUMENT.
 * Every status other than GH_OK sets the calling thread's last_error() text
 * to a non-empty sentence that names the call and the problem, e.g.
 * "gemm: kernel tiled: tile: 7 is not one of 4, 8, 16".
 *
 * ---- Ownership ----
 * The plugin owns every pointer it returns. Info structs and their strings
 * live until close() of the context that returned them; the table and
 * everything it points to (options included) as long as the library stays
 * loaded. The host owns what it passes in, and the plugin keeps no pointer
 * to it past the call (except the async calls' host memory and result
 * pointers, until stream_synchronize).
 *
 * ---- Threads ----
 * Several contexts may be open at once; open and the entry may be called
 * from any thread. Calls about different devices of one context may come
 * from different threads at once (the multi-device split does this); calls
 * about one device, and about one stream, come from one thread at a time.
 * last_error() is per calling thread.
 *
 * ---- Matrices ----
 * Row-major. op(A) is M x K, op(B) is K x N, C is M x N:
 *   C = alpha * op(A) * op(B) + beta * C
 * With trans_a = 0, A is stored as M rows of K, row i starting at element
 * a_offset + i * lda (lda >= K). With trans_a = 1, A is stored as K rows of M
 * (lda >= M) and op(A) = A^T. Likewise B (K x N, or N x K when transposed),
 * and C is M rows of N with ldc >= N. C's window is the M x N elements
 * c_offset + i * ldc + j (0 <= i < M, 0 <= j < N); the elements between its
 * rows (when ldc > N) are not part of it.
 */
#ifndef GEMMHOST_PLUGIN_H
#define GEMMHOST_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GEMMHOST_ABI_MAJOR  1
#define GEMMHOST_ABI_MINOR  6
#define GEMMHOST_ENTRY_NAME "gemmhost_plugin_entry"

/* Marks the one symbol a plugin exports (build plugins with
 * -fvisibility=hidden so nothing else leaks). */
#if defined(__GNUC__)
#define GEMMHOST_EXPORT __attribute__((visibility("default")))
#else
#define GEMMHOST_EXPORT
#endif

/* True when a struct of the given (reader-side) type, whose producer wrote
 * `size`, is large enough to hold `member`. The only way a reader checks a
 * size: `size < sizeof(type)` would refuse an older peer's shorter struct
 * even where every member the reader needs is there. */
#define GH_HAS_MEMBER(ptr, type, member) ((ptr)->size >= offsetof(type, member) + sizeof(((type *)0)->member))

/* What each kind of refusal answers: see "Statuses" above. */
typedef enum gh_status {
    GH_OK = 0,
    GH_ERROR = 1,            /* any other failure; last_error() says what */
    GH_UNSUPPORTED = 2,      /* a well-formed request this device/kernel cannot do */
    GH_NO_DEVICE = 3,        /* the context has no device; last_error() says why */
    GH_OUT_OF_MEMORY = 4,    /* an allocation failed */
    GH_INVALID_ARGUMENT = 5, /* a malformed call */
    GH_VERSION_MISMATCH = 6  /* the entry: another major */
} gh_status;

/* Element types. f32 is computed in f32 (or better), f64 in f64; i32 is exact
 * 32-bit integer arithmetic (the host keeps values where nothing overflows).
 * (minor 2) f16 (IEEE binary16) and bf16 (bfloat16): A, B and C stored in
 * 16 bits, multiplied and summed in f32 unless the kernel declares otherwise
 * (gh_kernel_precision), alpha and beta used as f32. The host requests a
 * dtype only when the kernel's mask has it, and ignores mask bits of dtypes
 * it does not know, so a plugin may declare f16 to an older host. */
/* (minor 5) Three 8-bit types for A and B: e4m3 and e5m2 (OCP FP8: e4m3 has
 * no infinity, max 448, one NaN pattern per sign; e5m2 is IEEE-like, max
 * 57344) and i8 (two's complement). They come with another type for C
 * (gh_gemm_args.c_dtype: f32, f16 or bf16 for FP8, i32 for i8) and only
 * through a kernel's type combinations (gh_kernel_info.combos); a mask bit
 * of an 8-bit type means A, B and C all in it. */
typedef enum gh_dtype {
    GH_F32 = 0,
    GH_F64 = 1,
    GH_I32 = 2,
    GH_F16 = 3,
    GH_BF16 = 4,
    GH_E4M3 = 5, /* minor 5 */
    GH_E5M2 = 6, /* minor 5 */
    GH_I8 = 7    /* minor 5 */
} gh_dtype;
#define GH_DTYPE_COUNT  8
#define GH_DTYPE_BIT(d) (1u << (unsigned)(d))

/* What one device is. Filled by the plugin, read-only for the host, valid
 * until close(). Every string is non-NULL (possibly ""). */
typedef struct gh_device_info {
    size_t size;                 /* sizeof(gh_device_info) as the plugin knows it */
    const char *name;            /* e.g. "NVIDIA H100 80GB HBM3"; not "" */
    const char *vendor;          /* e.g. "NVIDIA Corporation" */
    const char *driver_version;  /* the driver's own version string */
    const char *api;             /* e.g. "OpenCL 3.0 CUDA", "Vulkan 1.3.239", "C (4 threads)" */
    const char *platform;        /* OpenCL platform, or "" */
    uint64_t global_mem_bytes;   /* device memory (host memory for CPU devices); > 0 */
    uint64_t local_mem_bytes;    /* shared/local memory per work-group; 0 if none */
    uint32_t compute_units;      /* SMs, compute units, or CPU threads; >= 1 */
    uint32_t max_workgroup_size; /* invocations per work-group; 0 if not applicable */
    int32_t is_software;         /* 0 or 1: 1 for CPU/software implementations (PoCL, lavapipe, C) */
    int32_t has_fp64;            /* 0 or 1: 1 if f64 kernels can run; 0 makes f64 GH_UNSUPPORTED */
    /* (minor 3) Where the device sits on the host's PCI bus, as sysfs names
     * it: "0000:1b:00.0" (domain:bus:device.function, lower-case hex), or ""
     * when unknown or not a PCI device. The host finds the device's NUMA
     * node from it; it reads it only where `size` covers it and takes NULL
     * as "". */
    const char *pci_address;
} gh_device_info;

/* A named integer parameter of a kernel, e.g. `tile`. Static data. */
typedef struct gh_param_info {
    size_t size;
    const char *name;        /* non-NULL, unique within its kernel */
    const char *description; /* non-NULL */
    int64_t default_value;   /* itself an allowed value */
    const int64_t *allowed;  /* if n_allowed > 0: the only values allowed (non-NULL) */
    size_t n_allowed;
    int64_t min_value, max_value; /* if n_allowed == 0: inclusive range, min <= max */
} gh_param_info;

/* (minor 2) A precision a kernel's arithmetic works in. */
typedef enum gh_precision {
    GH_PREC_AS_STORED = 0, /* inputs: multiplied as stored; accumulation: exact (i32) */
    GH_PREC_TF32 = 1,      /* 10 explicit mantissa bits, f32's range (tensor cores' f32 path) */
    GH_PREC_BF16 = 2,
    GH_PREC_F16 = 3,
    GH_PREC_F32 = 4,
    GH_PREC_F64 = 5,
    /* (minor 3) TF32 by dropping f32's 13 low mantissa bits
     * (round toward zero) rather than rounding to nearest: twice TF32's
     * error per input. Hopper's wgmma reads f32 from shared memory so. A
     * host that predates it knows no unit roundoff for it and holds the
     * kernel to a tighter bound, never a looser one. */
    GH_PREC_TF32_TRUNCATED = 6
} gh_precision;

/* (minor 2) The arithmetic a kernel does in one dtype, so that the host holds
 * it to the bound of what it declares, not of the storage type. A kernel
 * without an entry for a dtype is taken to multiply its inputs as stored and
 * to accumulate in f32 (f16, bf16, f32), f64 (f64) or exactly (i32): declare
 * what the hardware really does (e.g. f32 on TF32 tensor cores: inputs TF32,
 * accumulate F32; an f16 kernel that sums in f16: accumulate F16). */
typedef struct gh_kernel_precision {
    size_t size;
    gh_dtype dtype;
    gh_precision inputs;     /* what the multiplies see: AS_STORED, or rounded to TF32/BF16/F16 first */
    gh_precision accumulate; /* F16, BF16, F32, F64; AS_STORED only for i32 (exact) */
} gh_kernel_precision;

/* (minor 5) One combination of element types a kernel offers beyond its
 * dtype mask (which means A, B and C of one type), with the arithmetic it
 * does in it. A combination equal to a mask bit's (a == b == c) replaces
 * that dtype's gh_kernel_precision. The host requests a combination only
 * when the kernel lists it (or its mask has it) and ignores entries naming a
 * type it does not know. */
typedef struct gh_type_combo {
    size_t size;
    gh_dtype a, b, c;        /* A's, B's and C's element types */
    gh_precision inputs;     /* as gh_kernel_precision: AS_STORED for 8-bit inputs */
    gh_precision accumulate; /* F32, F16 ...; AS_STORED: exact integer sums (i8 -> i32) */
    /* The running sum, when narrower than `accumulate` says: the explicit
     * mantissa bits it keeps (e.g. 13 for an FP8 tensor-core sum that is not
     * promoted); 0: accumulate's own precision. */
    uint32_t accumulate_bits;
    /* Every promote_every K-elements the narrow partial sum is added into a
     * full `accumulate` sum and restarted (two-level accumulation); 0: the
     * narrow sum runs over the whole K. Read only with accumulate_bits > 0. */
    uint32_t promote_every;
} gh_type_combo;

/* A kernel the plugin offers. Static data: the same on every device, with
 * or without one (device limits show up as GH_UNSUPPORTED from gemm). */
typedef struct gh_kernel_info {
    size_t size;
    const char *name;            /* e.g. "naive", "tiled"; non-empty, unique in the plugin */
    const char *description;     /* non-NULL */
    uint32_t dtypes;             /* GH_DTYPE_BIT mask the kernel implements; non-zero,
                                     no bit at or above GH_DTYPE_COUNT */
    const gh_param_info *params; /* n_params entries (non-NULL when n_params > 0),
                                     in the order gemm() takes their values */
    size_t n_params;
    /* (minor 2, optional) n_precisions entries (non-NULL when n_precisions >
     * 0), at most one per dtype of the mask; the host reads them only when
     * the negotiated minor is >= 2 and `size` covers them. */
    const gh_kernel_precision *precisions;
    size_t n_precisions;
    /* (minor 5, optional) n_combos entries (non-NULL when n_combos > 0), no
     * two with the same (a, b, c); read only when the negotiated minor is >=
     * 5 and `size` covers them. */
    const gh_type_combo *combos;
    size_t n_combos;
} gh_kernel_info;

/* A string option the plugin accepts when a context is opened, e.g. an
 * OpenCL platform filter or a kernel source directory. Static data. */
typedef struct gh_option_info {
    size_t size;
    const char *name;          /* non-NULL, unique */
    const char *description;   /* non-NULL */
    const char *default_value; /* non-NULL ("" when unset); open() accepts it, and
                                     giving it means the same as leaving the option out */
} gh_option_info;

/* One option given to open(). The one struct without a `size`, on purpose:
 * it is a plain array element the host builds, frozen as it is for the life
 * of major 1 (a new field would be a major bump). */
typedef struct gh_option_value {
    const char *name; /* one of the plugin's options */
    const char *value;
} gh_option_value;

typedef struct gh_plugin gh_plugin; /* a plugin context, opaque to the host */
typedef struct gh_buffer gh_buffer; /* device memory, opaque to the host */
typedef struct gh_stream gh_stream; /* an in-order queue of work on one device (minor 1) */

/* One GEMM request. Every member is minor 0, so a plugin requires
 * GH_HAS_MEMBER(args, gh_gemm_args, n_params) (else GH_INVALID_ARGUMENT). */
typedef struct gh_gemm_args {
    size_t size; /* sizeof(gh_gemm_args) as the host knows it */
    gh_dtype dtype;
    int32_t trans_a, trans_b;              /* 0 or 1 */
    int64_t m, n, k;                       /* each >= 1 */
    double alpha, beta;                    /* for GH_I32: integers in int32's range, used as int32 */
    int64_t lda, ldb, ldc;                 /* leading dimensions in elements (row-major) */
    gh_buffer *a, *b, *c;                  /* non-NULL, from buffer_alloc on the gemm's device */
    uint64_t a_offset, b_offset, c_offset; /* in elements, from the buffer's start */
    const int64_t *params;                 /* values of the kernel's params, in its order; may be
                                     NULL only when n_params is 0 */
    size_t n_params;                       /* exactly the kernel's n_params */
    /* (minor 5) With explicit_types 0 (or where `size` does not cover the
     * members below) A, B and C are all of `dtype` and every scale is 1, as
     * before. With explicit_types 1, `dtype` is A's type, b_dtype and
     * c_dtype are B's and C's, and the product is
     *   C = scale_c * (alpha * scale_a * scale_b * op(A) op(B) + beta * C)
     * with every scale finite and > 0, used as f32 (the host draws powers of
     * two unless told otherwise, so they are exact). An i32 C takes scales
     * of 1 only, and alpha and beta as for GH_I32. A (dtype, b_dtype,
     * c_dtype) the kernel does not offer: GH_UNSUPPORTED; explicit_types
     * other than 0 or 1: GH_INVALID_ARGUMENT. gh_plugin_gemm_types_of()
     * (plugin_helpers.h) reads them. */
    int32_t explicit_types;
    gh_dtype b_dtype, c_dtype;
    double scale_a, scale_b, scale_c;
} gh_gemm_args;

typedef enum gh_clock {
    GH_CLOCK_DEVICE = 0, /* events / profiling / timestamp queries */
    GH_CLOCK_HOST = 1    /* fallback: host clock around launch + wait */
} gh_clock;

/* Written by the plugin on success: only the members `size` covers. */
typedef struct gh_gemm_timing {
    size_t size;      /* set by the host */
    double kernel_ms; /* the kernel's time, finite and > 0 (the host fails a result with another) */
    gh_clock clock;   /* which clock measured kernel_ms */
    /* Appended in ABI 1.3 (read by size, like every member): a sentence on
     * how the GEMM ran that the result should carry, e.g. the algorithm a
     * vendor library chose and how; "" (the host's zeroed value) for none. */
    char note[240];
    /* Appended in ABI 1.6: a split of K the call made beyond what its kernel
     * declares, e.g. a vendor library's split-K whose pieces were summed in
     * C's f16: K summed in split_pieces pieces (0 or 1: no split) whose sum
     * kept split_precision. The host widens the result's bound by
     * gamma_pieces(split_precision's unit roundoff) x sum |alpha a b|
     * (docs/verification.md), and the result says so. */
    uint32_t split_pieces;
    gh_precision split_precision;
} gh_gemm_timing;

typedef struct gh_plugin_api {
    size_t size;             /* sizeof(gh_plugin_api) as the plugin knows it; at least
                                     GH_PLUGIN_API_MINOR0_SIZE, at least
                                     GH_PLUGIN_API_MINOR1_SIZE when it answers minor 1 */
    uint32_t abi_major;      /* GEMMHOST_ABI_MAJOR the plugin was built with */
    uint32_t abi_minor;      /* the newest minor this table implements */
    const char *name;        /* (required) short name used in configs: "cpu", "opencl" ... */
    const char *description; /* (required) non-NULL */
    const char *version;     /* (required) the plugin's own version, non-NULL */

    const gh_option_info *options; /* n_options entries, static; non-NULL when n_options > 0 */
    size_t n_options;

    /* (required) Opens a context.
     * Host: may call it from any thread, several times (contexts are
     *   independent). `options` holds n_options entries.
     * Plugin: sets *out and returns GH_OK, or refuses (leaving *out alone or
     *   setting it to NULL; the host reads it only after GH_OK):
     *   out NULL, options NULL with n_options > 0, a NULL name or value, or a
     *   name not among the table's options: GH_INVALID_ARGUMENT; a bad value:
     *   GH_INVALID_ARGUMENT naming the option. No driver or no device is not
     *   a failure: open succeeds, device_count() is 0 and says why. */
    gh_status (*open)(const gh_option_value *options, size_t n_options, gh_plugin **out);
    /* (required) Frees everything the context owns: buffers and streams not
     * yet freed included. close(NULL) does nothing.
     * Host: calls it once per context, when no other call on it is running. */
    void (*close)(gh_plugin *ctx);
    /* (required) The calling thread's last failure, as a sentence.
     * Host: may pass any ctx, including NULL (after a failed open).
     * Plugin: the text is per calling thread (thread-local), the same whatever
     *   ctx is passed; "" while the thread has had no failure, never NULL.
     *   Every non-OK status sets it non-empty; success does not clear it.
     *   Valid until the thread's next call into the plugin. */
    const char *(*last_error)(gh_plugin *ctx);

    /* (required) How many devices the context has; 0 when there is no
     * driver or device, and then last_error() on the same thread says why. */
    int (*device_count)(gh_plugin *ctx);
    /* (required) Device `device` (0 <= device < device_count()), or NULL for
     * any other index. */
    const gh_device_info *(*device_info)(gh_plugin *ctx, int device);

    /* (required) How many kernels; >= 1, the same with or without a device. */
    int (*kernel_count)(gh_plugin *ctx);
    /* (required) Kernel `kernel` (0 <= kernel < kernel_count()), or NULL for
     * any other index. */
    const gh_kernel_info *(*kernel_info)(gh_plugin *ctx, int kernel);

    /* (required) Allocates `bytes` of device memory.
     * Plugin: out NULL, bytes 0 or a device index out of range:
     *   GH_INVALID_ARGUMENT (GH_NO_DEVICE when there is none); more than the
     *   device can hold: GH_OUT_OF_MEMORY. Contents start undefined. */
    gh_status (*buffer_alloc)(gh_plugin *ctx, int device, uint64_t bytes, gh_buffer **out);
    /* (required) Frees a buffer of this context; NULL does nothing.
     * Host: no work using the buffer is queued or running. */
    void (*buffer_free)(gh_plugin *ctx, gh_buffer *buf);
    /* (required) Blocking copies between host memory and a buffer, at a byte
     * offset; they return when the copy is complete.
     * Plugin: a NULL buffer, a NULL host pointer with bytes > 0, or
     *   offset + bytes past the buffer's end (without wrapping around):
     *   GH_INVALID_ARGUMENT. bytes 0 within the buffer is GH_OK and copies
     *   nothing. No byte outside [offset, offset + bytes) changes. */
    gh_status (*upload)(gh_plugin *ctx, gh_buffer *dst, uint64_t offset, const void *src, uint64_t bytes);
    gh_status (*download)(gh_plugin *ctx, gh_buffer *src, uint64_t offset, void *dst, uint64_t bytes);

    /* (required) Runs one GEMM with the given kernel on the given device,
     * waits for it, and fills *timing.
     * Host: timing is non-NULL; C's window overlaps neither A nor B; no
     *   other call about this device runs at the same time.
     * Plugin:
     *   - refuses, before launching anything and writing nothing, with the
     *     status "Statuses" above gives (GH_INVALID_ARGUMENT for a malformed
     *     call, GH_UNSUPPORTED for what this device or kernel cannot do);
     *   - n_params equals the kernel's n_params exactly, and each value is
     *     allowed (in `allowed`, or within min..max); the last_error of a
     *     disallowed value lists the allowed ones: "tile: 7 is not one of
     *     4, 8, 16";
     *   - beta == 0: does not read C (the host fills it with NaN, and a NaN
     *     in the result is a failure): C = alpha * op(A) * op(B);
     *   - writes nothing outside C's window: no element around C or in the
     *     gaps between its rows changes, and nothing in A's or B's buffer;
     *   - on GH_OK writes kernel_ms (the kernel's time by the device's clock,
     *     > 0) and clock, each only if timing->size covers it. */
    gh_status (*gemm)(gh_plugin *ctx, int device, int kernel, const gh_gemm_args *args, gh_gemm_timing *timing);
    /* (required) Waits for all work queued on the device (GH_NO_DEVICE /
     * GH_INVALID_ARGUMENT for a missing device). */
    gh_status (*synchronize)(gh_plugin *ctx, int device);

    /* (optional, may be NULL) Extras by name: a function pointer, or NULL for
     * a name the plugin does not know. */
    void *(*get_proc)(const char *name);

    /* ---- ABI minor 1: streams and pinned host memory, so that one product
     * split over devices overlaps its transfers with computation.
     *
     * The host reads these only when the negotiated minor is >= 1; a plugin
     * that answers minor 1 has a table whose size covers them all
     * (GH_PLUGIN_API_MINOR1_SIZE).
     *
     * (minor 1, all or none) The six stream members are set together or all
     * left NULL; the host uses streams only when all six are there and falls
     * back to the blocking calls otherwise, and it refuses to load a plugin
     * that sets some but not all of them.
     *
     * Work queued on one stream runs in order; work on different streams of
     * one device may overlap. Async calls check their arguments at once
     * (GH_INVALID_ARGUMENT from the call itself, nothing queued) and return
     * once the work is queued; the host memory they read or write, and the
     * `*_ms` and timing pointers they were given, stay valid until
     * stream_synchronize returns, which writes each `*_ms` (elapsed time by
     * the device's clock; NULL pointers are allowed) and timing. A failure of
     * queued work is reported by stream_synchronize. */
    /* Creates a stream on a device (GH_INVALID_ARGUMENT: out NULL or device
     * out of range; GH_NO_DEVICE when the context has none). */
    gh_status (*stream_create)(gh_plugin *ctx, int device, gh_stream **out);
    /* Destroys a stream; work still queued may be dropped (the host
     * synchronizes first when it wants it). NULL does nothing. */
    void (*stream_destroy)(gh_plugin *ctx, gh_stream *stream);
    /* Copies `rows` rows of `width` bytes; row r of the host memory starts at
     * src + r * src_pitch, of the buffer at offset + r * pitch (bytes).
     * rows or width 0 copies nothing. GH_INVALID_ARGUMENT: a NULL stream,
     * buffer or host pointer, a pitch below width (rows > 1), or the last
     * byte past the buffer's end. Bytes between the rows do not change. */
    gh_status (*upload_2d_async)(gh_plugin *ctx, gh_stream *stream, gh_buffer *dst, uint64_t offset, uint64_t pitch,
                                 const void *src, uint64_t src_pitch, uint64_t width, uint64_t rows,
                                 double *elapsed_ms);
    gh_status (*download_2d_async)(gh_plugin *ctx, gh_stream *stream, gh_buffer *src, uint64_t offset, uint64_t pitch,
                                   void *dst, uint64_t dst_pitch, uint64_t width, uint64_t rows, double *elapsed_ms);
    /* As gemm() on the stream's device, with the same refusals at the call
     * and the same result; timing is written at stream_synchronize. */
    gh_status (*gemm_async)(gh_plugin *ctx, gh_stream *stream, int kernel, const gh_gemm_args *args,
                            gh_gemm_timing *timing);
    /* Waits for the stream's queued work; returns the first failure of it. */
    gh_status (*stream_synchronize)(gh_plugin *ctx, gh_stream *stream);

    /* (minor 1, optional pair) Host memory the device copies fastest from
     * and to (page-locked where the API has it). Both set or both NULL; the
     * host uses them only when both are there. host_alloc: out NULL or bytes
     * 0 is GH_INVALID_ARGUMENT, a failed allocation GH_OUT_OF_MEMORY. The
     * host frees every block with host_free before close; host_free(NULL)
     * does nothing. */
    gh_status (*host_alloc)(gh_plugin *ctx, uint64_t bytes, void **out);
    void (*host_free)(gh_plugin *ctx, void *ptr);

    /* ---- ABI minor 3 ----
     * (minor 3, optional, may be NULL) Copies `bytes` from buffer src at byte
     * src_offset to buffer dst at dst_offset, both buffers of this context,
     * on the same device or two devices (directly between the devices where
     * the driver can: peer access, NVLink), and returns when the copy is
     * complete. The host reads it only when the negotiated minor is >= 3 and
     * the table's size covers it; it uses it to send one upload of a matrix
     * to the other devices (core/split: b_copy = peer).
     * Host: calls it from dst's device's thread; the work that wrote src's
     *   range is complete and nothing writes it during the copy, but other
     *   calls about src's device (reading src, e.g. a GEMM) may run at the
     *   same time from its own thread.
     * Plugin: a NULL buffer, a buffer of another context, src_offset + bytes
     *   or dst_offset + bytes past its buffer's end, or the same buffer with
     *   overlapping ranges: GH_INVALID_ARGUMENT. Two devices that cannot copy
     *   directly: GH_UNSUPPORTED, decided before anything is copied, with
     *   last_error naming both devices and why ("copy_peer: device 0 cannot
     *   access device 1: cuDeviceCanAccessPeer = 0"); the host then copies
     *   through host memory. bytes 0 within both buffers is GH_OK and copies
     *   nothing; no byte of dst outside [dst_offset, dst_offset + bytes)
     *   changes, nothing of src does. */
    gh_status (*copy_peer)(gh_plugin *ctx, gh_buffer *src, uint64_t src_offset, gh_buffer *dst, uint64_t dst_offset,
                           uint64_t bytes);

    /* ---- ABI minor 4 ----
     * (minor 4, optional pair, both set or both NULL) Makes host memory the
     * host did not get from host_alloc (e.g. shared memory under isolation)
     * reachable by DMA: CUDA pins it (cuMemHostRegister), Vulkan imports it
     * (VK_EXT_external_memory_host). The host reads them only when the
     * negotiated minor is >= 4 and the table's size covers them.
     * Host: [ptr, ptr + bytes) stays mapped until host_unregister(ptr), which
     *   it calls with the same ptr before unmapping; flags is
     *   GH_HOST_REGISTER_READ_ONLY when the memory is mapped read-only (the
     *   devices only read it), else 0. Later copies from and to any part of
     *   the range (the blocking and the async ones) take the fast path.
     * Plugin: ptr NULL, bytes 0, how NULL or an unknown flag:
     *   GH_INVALID_ARGUMENT. On GH_OK sets *how to a static phrase naming
     *   what it did ("pinned (cuMemHostRegister)", "imported
     *   (VK_EXT_external_memory_host)", or "nothing to register: ..." for a
     *   device that computes in host memory). Memory it cannot register:
     *   GH_UNSUPPORTED with last_error saying why; copies from it then work
     *   as before (pageable). host_unregister of a pointer it did not
     *   register: GH_INVALID_ARGUMENT. */
    gh_status (*host_register)(gh_plugin *ctx, void *ptr, uint64_t bytes, uint32_t flags, const char **how);
    gh_status (*host_unregister)(gh_plugin *ctx, void *ptr);

    /* ---- ABI minor 6 ----
     * (minor 6, optional, may be NULL) Queues n launches of the same GEMM on
     * the stream, back to back, with the result of n gemm_async calls, and at
     * stream_synchronize writes into *timing (if not NULL) their total time
     * over n by the device's clock, and a note on how they were timed. For
     * kernels short enough that a lone launch's latency would dominate their
     * time (the host's batch = N): the plugin does its per-call host work
     * once, and where its timer measures the stream rather than the kernel
     * (CUDA events) it holds the stream until all n are queued, so no host
     * gap falls inside the timed region. Refusals as gemm_async; n 0:
     * GH_INVALID_ARGUMENT. The host reads it only when the negotiated minor
     * is >= 6 and the table's size covers it; else it calls gemm_async n
     * times. */
    gh_status (*gemm_batch_async)(gh_plugin *ctx, gh_stream *stream, int kernel, const gh_gemm_args *args, uint32_t n,
                                  gh_gemm_timing *timing);
} gh_plugin_api;

#define GH_HOST_REGISTER_READ_ONLY 1u

/* The size of a minor-0 function table: the host needs at least this much. */
#define GH_PLUGIN_API_MINOR0_SIZE (offsetof(gh_plugin_api, get_proc) + sizeof(void *(*)(const char *)))
/* The size of a minor-1 table: a plugin answering minor 1 has at least this. */
#define GH_PLUGIN_API_MINOR1_SIZE (offsetof(gh_plugin_api, host_free) + sizeof(void (*)(gh_plugin *, void *)))

/* The entry call's in/out record.
 * Plugin (the entry): request NULL, or a size that does not cover `api`:
 *   GH_INVALID_ARGUMENT (writing plugin_abi_major if the size covers it).
 *   Otherwise it always writes plugin_abi_major; another host_abi_major:
 *   GH_VERSION_MISMATCH with api NULL; else abi_minor = min(abi_minor, the
 *   table's abi_minor), api = the table, GH_OK. A longer request (a newer
 *   host) is fine. The entry keeps no state: calling it again answers the
 *   same. */
typedef struct gh_entry_request {
    size_t size;               /* in: sizeof(gh_entry_request) as the host knows it */
    uint32_t host_abi_major;   /* in */
    uint32_t abi_minor;        /* in: host's newest minor; out: newest both know */
    uint32_t plugin_abi_major; /* out: always written, even on mismatch */
    const gh_plugin_api *api;  /* out: static table, NULL on failure */
} gh_entry_request;

typedef gh_status (*gh_entry_fn)(gh_entry_request *request);

/* Declaration of the entry a plugin defines (GH_PLUGIN_ENTRY in
 * gemmhost/plugin_helpers.h defines it). */
GEMMHOST_EXPORT gh_status gemmhost_plugin_entry(gh_entry_request *request);

#ifdef __cplusplus
}
#endif

#endif /* GEMMHOST_PLUGIN_H */
