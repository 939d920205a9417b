/*
 * gemmhost/plugin_helpers.h: the mechanics every plugin repeats, written once.
 * Header-only (static inline, C11, libc only), installed beside plugin.h; a
 * plugin that uses it is still one self-contained shared object.
 *
 *   GH_PLUGIN_ENTRY(table)        the exported entry, with the negotiation
 *   GH_PLUGIN_API_CALLS(prefix)   the table's calls, by their names
 *   GH_PLUGIN_OPTION(...)         one gh_option_info of the options table
 *   GH_PLUGIN_KERNEL(...)         one gh_kernel_info of the kernel table
 *   gh_plugin_kernel_dir(...)     the kernel_dir option or $GEMMHOST_KERNEL_DIR
 *   gh_plugin_set_error(...)      per-thread error text; returns the status
 *   gh_plugin_last_error          the `last_error` member, ready to use
 *   gh_plugin_read_options(...)   open()'s options against the plugin's table
 *   gh_plugin_check_device/index  device and kernel indexes
 *   gh_plugin_check_copy[_2d]     upload/download ranges
 *   gh_plugin_check_gemm(...)     every generic gemm argument check
 *   gh_plugin_check_params(...)   n_params and the "not one of ..." message
 *   GH_PLUGIN_PARAM(...)          one gh_param_info of a kernel's table
 *   gh_plugin_embedded_find(...)  a file embedded at build time, by name
 *   gh_plugin_dtype_name/size     "f32", 4 ...
 *
 * Each plugin keeps its own buffer type: the checks learn a buffer's size and
 * device through one small function the plugin writes (gh_plugin_extent_fn).
 *
 * Use, in the one .c file that holds the function table:
 *
 *   static const gh_plugin_api my_api = { ..., .last_error = gh_plugin_last_error, ... };
 *   GH_PLUGIN_ENTRY(my_api)
 *
 * GH_PLUGIN_ENTRY also defines the thread-local error text; the other files
 * of the plugin just include this header.
 */
#ifndef GEMMHOST_PLUGIN_HELPERS_H
#define GEMMHOST_PLUGIN_HELPERS_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "half.h"
#include "plugin.h"

#ifdef __cplusplus
#define GH_PLUGIN_THREAD_LOCAL thread_local
#else
#define GH_PLUGIN_THREAD_LOCAL _Thread_local
#endif

#if defined(__GNUC__)
#define GH_PLUGIN_HIDDEN       __attribute__((visibility("hidden")))
#define GH_PLUGIN_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define GH_PLUGIN_HIDDEN
#define GH_PLUGIN_PRINTF(f, a)
#endif

/* ---- dtypes ---- */

static inline const char *gh_plugin_dtype_name(gh_dtype d)
{
    switch (d) {
    case GH_F32: return "f32";
    case GH_F64: return "f64";
    case GH_I32: return "i32";
    case GH_F16: return "f16";
    case GH_BF16: return "bf16";
    case GH_E4M3: return "e4m3";
    case GH_E5M2: return "e5m2";
    case GH_I8: return "i8";
    }
    return "unknown dtype";
}

/* Bytes per element; 0 for a value outside gh_dtype. */
static inline size_t gh_plugin_dtype_size(gh_dtype d)
{
    switch (d) {
    case GH_F32: return 4;
    case GH_F64: return 8;
    case GH_I32: return 4;
    case GH_F16: return 2;
    case GH_BF16: return 2;
    case GH_E4M3:
    case GH_E5M2:
    case GH_I8: return 1;
    }
    return 0;
}

/* The unit roundoff (gemmhost/half.h) of a declared precision's roundings;
 * 0 for GH_PREC_AS_STORED (no rounding beyond the stored type's). */
static inline double gh_plugin_unit_roundoff(gh_precision p)
{
    switch (p) {
    case GH_PREC_TF32: return GH_U_TF32;
    case GH_PREC_BF16: return GH_U_BF16;
    case GH_PREC_F16: return GH_U_F16;
    case GH_PREC_F32: return GH_U_F32;
    case GH_PREC_F64: return GH_U_F64;
    case GH_PREC_TF32_TRUNCATED: return GH_U_TF32_TRUNCATED;
    case GH_PREC_AS_STORED: break;
    }
    return 0.0;
}

/* (minor 5) A GEMM's element types and scales, read by size: an older
 * host's args, or explicit_types 0, give B and C A's type and scales of 1. */
typedef struct gh_plugin_gemm_types {
    gh_dtype a, b, c;
    double scale_a, scale_b, scale_c;
} gh_plugin_gemm_types;

static inline gh_plugin_gemm_types gh_plugin_gemm_types_of(const gh_gemm_args *g)
{
    gh_plugin_gemm_types t = {g->dtype, g->dtype, g->dtype, 1.0, 1.0, 1.0};
    if (GH_HAS_MEMBER(g, gh_gemm_args, scale_c) && g->explicit_types == 1)
        t = (gh_plugin_gemm_types){g->dtype, g->b_dtype, g->c_dtype, g->scale_a, g->scale_b, g->scale_c};
    return t;
}

/* True when one GEMM is of one type throughout, with no scaling: what a
 * kernel's dtype mask covers. */
static inline int gh_plugin_gemm_types_uniform(const gh_plugin_gemm_types *t)
{
    return t->a == t->b && t->b == t->c && t->scale_a == 1.0 && t->scale_b == 1.0 && t->scale_c == 1.0;
}

/* The kernel's combination for (a, b, c), or NULL: its combos list, read by
 * size. */
static inline const gh_type_combo *gh_plugin_find_combo(const gh_kernel_info *k, gh_dtype a, gh_dtype b, gh_dtype c)
{
    if (!k || !GH_HAS_MEMBER(k, gh_kernel_info, n_combos)) return NULL;
    for (size_t i = 0; i < k->n_combos; i++)
        if (k->combos[i].a == a && k->combos[i].b == b && k->combos[i].c == c) return &k->combos[i];
    return NULL;
}

/* ---- the calling thread's error text ----
 * One buffer per thread, shared by every context: last_error() is per
 * calling thread whatever ctx it is given. It is "" until the thread's first
 * failure and is never cleared by a success. */

#ifndef GH_PLUGIN_ERROR_SIZE
#define GH_PLUGIN_ERROR_SIZE 16384 /* room for a useful stretch of a compiler log */
#endif

/* Defined once, by GH_PLUGIN_ENTRY; hidden, so plugins never share it. */
extern GH_PLUGIN_HIDDEN GH_PLUGIN_THREAD_LOCAL char gh_plugin_error_text[GH_PLUGIN_ERROR_SIZE];

static inline gh_status gh_plugin_vset_error(gh_status status, const char *fmt, va_list ap)
{
    vsnprintf(gh_plugin_error_text, sizeof gh_plugin_error_text, fmt, ap);
    if (!gh_plugin_error_text[0]) /* a failure is never silent */
        snprintf(gh_plugin_error_text, sizeof gh_plugin_error_text, "failed with status %d", (int)status);
    return status;
}

/* Sets the text and returns `status`: `return gh_plugin_set_error(GH_INVALID_ARGUMENT, "...", ...);` */
static inline GH_PLUGIN_PRINTF(2, 3) gh_status gh_plugin_set_error(gh_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gh_plugin_vset_error(status, fmt, ap);
    va_end(ap);
    return status;
}

/* Adds to the end of the text (a driver's code, a build log); what does not
 * fit is cut, and the cut is marked. */
static inline GH_PLUGIN_PRINTF(1, 2) void gh_plugin_append_error(const char *fmt, ...)
{
    static const char cut[] = " [... cut short]";
    size_t used = strlen(gh_plugin_error_text), room = sizeof gh_plugin_error_text - used;
    va_list ap;
    va_start(ap, fmt);
    int wanted = vsnprintf(gh_plugin_error_text + used, room, fmt, ap);
    va_end(ap);
    if (wanted >= 0 && (size_t)wanted >= room)
        memcpy(gh_plugin_error_text + sizeof gh_plugin_error_text - sizeof cut, cut, sizeof cut);
}

/* The `last_error` member itself: `.last_error = gh_plugin_last_error`. */
static inline const char *gh_plugin_last_error(gh_plugin *ctx)
{
    (void)ctx;
    return gh_plugin_error_text;
}

/* ---- the entry ---- */

/* The negotiation of plugin.h's gh_entry_request, for the table `api`. */
static inline gh_status gh_plugin_negotiate(gh_entry_request *req, const gh_plugin_api *api)
{
    if (!req || !GH_HAS_MEMBER(req, gh_entry_request, plugin_abi_major)) return GH_INVALID_ARGUMENT;
    req->plugin_abi_major = GEMMHOST_ABI_MAJOR;
    if (!GH_HAS_MEMBER(req, gh_entry_request, api)) return GH_INVALID_ARGUMENT;
    req->api = NULL;
    if (req->host_abi_major != GEMMHOST_ABI_MAJOR) return GH_VERSION_MISMATCH;
    if (req->abi_minor > api->abi_minor) req->abi_minor = api->abi_minor;
    req->api = api;
    return GH_OK;
}

/* The error text's one definition; GH_PLUGIN_ENTRY places it. (A plugin that
 * writes its own entry puts this line in one of its files instead.) */
#define GH_PLUGIN_DEFINE_ERROR_TEXT \
    GH_PLUGIN_HIDDEN GH_PLUGIN_THREAD_LOCAL char gh_plugin_error_text[GH_PLUGIN_ERROR_SIZE]

/* The members every plugin's table starts with: its size and ABI version,
 * name, description and version, its options (a static array) and
 * last_error. The rest (open, close, device_count, ...) follow it:
 *   static const gh_plugin_api api = {
 *       GH_PLUGIN_API_HEAD("mine", "what it runs on", "1.0", options),
 *       .open = my_open, ...
 *   }; */
#define GH_PLUGIN_API_HEAD(NAME, DESCRIPTION, VERSION, OPTIONS)                                                    \
    .size = sizeof(gh_plugin_api), .abi_major = GEMMHOST_ABI_MAJOR, .abi_minor = GEMMHOST_ABI_MINOR, .name = NAME, \
    .description = DESCRIPTION, .version = VERSION, .options = OPTIONS,                                            \
    .n_options = sizeof(OPTIONS) / sizeof((OPTIONS)[0]), .last_error = gh_plugin_last_error

/* The calls of ABI minor 0 but get_proc, for a plugin that names them
 * P_open, P_close, P_device_count, ... (P: its prefix):
 *   GH_PLUGIN_API_CALLS(cpu), .get_proc = gh_plugin_no_extras, */
#define GH_PLUGIN_API_CALLS(P)                                                                              \
    .open = P##_open, .close = P##_close, .device_count = P##_device_count, .device_info = P##_device_info, \
    .kernel_count = P##_kernel_count, .kernel_info = P##_kernel_info, .buffer_alloc = P##_buffer_alloc,     \
    .buffer_free = P##_buffer_free, .upload = P##_upload, .download = P##_download, .gemm = P##_gemm,       \
    .synchronize = P##_synchronize

/* The streams and host memory of ABI minor 1, named as above. */
#define GH_PLUGIN_API_STREAM_CALLS(P)                                                                                 \
    .stream_create = P##_stream_create, .stream_destroy = P##_stream_destroy, .upload_2d_async = P##_upload_2d_async, \
    .download_2d_async = P##_download_2d_async, .gemm_async = P##_gemm_async,                                         \
    .stream_synchronize = P##_stream_synchronize, .host_alloc = P##_host_alloc, .host_free = P##_host_free

/* get_proc for a plugin with no extras. */
static inline void *gh_plugin_no_extras(const char *name)
{
    (void)name;
    return NULL;
}

/* One entry of the options table. */
#define GH_PLUGIN_OPTION(NAME, DEFAULT, DESCRIPTION)                                                       \
    {                                                                                                      \
        .size = sizeof(gh_option_info), .name = NAME, .description = DESCRIPTION, .default_value = DEFAULT \
    }

/* The folder of kernel sources to read instead of the built-in copies: the
 * kernel_dir option when it is set and not "", else $GEMMHOST_KERNEL_DIR
 * (one variable points every plugin at a kernel tree under work), else NULL. */
#define GH_PLUGIN_KERNEL_DIR_ENV "GEMMHOST_KERNEL_DIR"
static inline const char *gh_plugin_kernel_dir(const char *setting)
{
    if (setting && *setting) return setting;
    const char *env = getenv(GH_PLUGIN_KERNEL_DIR_ENV);
    return env && *env ? env : NULL;
}

/* The members of one gh_kernel_info in a kernel table:
 *   [MY_TILED] = {GH_PLUGIN_KERNEL("tiled", "what it does", dtypes), GH_PLUGIN_KERNEL_PARAMS(tiled_params)},
 * with GH_PLUGIN_KERNEL_PRECISIONS(array) where it declares its arithmetic.
 * The arrays must have their sizes in sight. */
#define GH_PLUGIN_KERNEL(NAME, DESCRIPTION, DTYPES) \
    .size = sizeof(gh_kernel_info), .name = NAME, .description = DESCRIPTION, .dtypes = DTYPES
#define GH_PLUGIN_KERNEL_PARAMS(PARAMS)         .params = PARAMS, .n_params = GH_PLUGIN_COUNT(PARAMS)
#define GH_PLUGIN_KERNEL_PRECISIONS(PRECISIONS) .precisions = PRECISIONS, .n_precisions = GH_PLUGIN_COUNT(PRECISIONS)
#define GH_PLUGIN_KERNEL_COMBOS(COMBOS)         .combos = COMBOS, .n_combos = GH_PLUGIN_COUNT(COMBOS)

/* (minor 5) The 13 type combinations of a kernel that decodes 8-bit inputs
 * exactly and sums in f32 (FP8: every product of two FP8 values is exact in
 * f32) or exactly in i32 (i8), the classic kernels' arithmetic:
 *   static const gh_type_combo eight_bit_combos[] = GH_PLUGIN_EXACT_8BIT_COMBOS;
 * A, B in {e4m3, e5m2} with C in {f32, f16, bf16}; i8 x i8 -> i32.
 * GH_PLUGIN_HOPPER_8BIT_COMBOS: the same 13 on Hopper's FP8 tensor cores
 * (wgmma) with their own running sum never promoted into f32 registers: it
 * keeps GH_PLUGIN_HOPPER_FP8_SUM_BITS explicit mantissa bits (what
 * gemmhost's arithmetic probe measured on an H100, the same as cuBLASLt's
 * FAST_ACCUM: docs/kernels.md); i8 x i8 -> i32 exact.
 * GH_PLUGIN_8BIT_COMBOS_SUMMING(BITS) is either: FP8's running sum BITS
 * wide (0: f32's own). */
#define GH_PLUGIN_HOPPER_FP8_SUM_BITS 13
#define GH_PLUGIN_FP8_SUM_COMBO(A, B, C, BITS)                                  \
    {                                                                           \
        sizeof(gh_type_combo), A, B, C, GH_PREC_AS_STORED, GH_PREC_F32, BITS, 0 \
    }
#define GH_PLUGIN_FP8_PAIR_COMBOS(A, B, BITS)                                                 \
    GH_PLUGIN_FP8_SUM_COMBO(A, B, GH_F32, BITS), GH_PLUGIN_FP8_SUM_COMBO(A, B, GH_F16, BITS), \
        GH_PLUGIN_FP8_SUM_COMBO(A, B, GH_BF16, BITS)
#define GH_PLUGIN_8BIT_COMBOS_SUMMING(BITS)                                                                       \
    {                                                                                                             \
        GH_PLUGIN_FP8_PAIR_COMBOS(GH_E4M3, GH_E4M3, BITS), GH_PLUGIN_FP8_PAIR_COMBOS(GH_E4M3, GH_E5M2, BITS),     \
            GH_PLUGIN_FP8_PAIR_COMBOS(GH_E5M2, GH_E4M3, BITS), GH_PLUGIN_FP8_PAIR_COMBOS(GH_E5M2, GH_E5M2, BITS), \
        {                                                                                                         \
            sizeof(gh_type_combo), GH_I8, GH_I8, GH_I32, GH_PREC_AS_STORED, GH_PREC_AS_STORED, 0, 0               \
        }                                                                                                         \
    }
#define GH_PLUGIN_EXACT_8BIT_COMBOS  GH_PLUGIN_8BIT_COMBOS_SUMMING(0)
#define GH_PLUGIN_HOPPER_8BIT_COMBOS GH_PLUGIN_8BIT_COMBOS_SUMMING(GH_PLUGIN_HOPPER_FP8_SUM_BITS)

/* Defines the exported entry for the static table `api`, and the error text. */
#define GH_PLUGIN_ENTRY(api)                                                   \
    GH_PLUGIN_DEFINE_ERROR_TEXT;                                               \
    GEMMHOST_EXPORT gh_status gemmhost_plugin_entry(gh_entry_request *request) \
    {                                                                          \
        return gh_plugin_negotiate(request, &(api));                           \
    }

/* ---- options ---- */

/* Reads open()'s options against the plugin's table: settings[i] becomes the
 * value given for options[i], or NULL when it was not given. A NULL array,
 * name or value, or an unknown name: GH_INVALID_ARGUMENT naming it and the
 * options the plugin knows. */
static inline gh_status gh_plugin_read_options(const char *plugin, const gh_option_info *options, size_t n_options,
                                               const gh_option_value *values, size_t n_values, const char **settings)
{
    for (size_t o = 0; o < n_options; o++) settings[o] = NULL;
    if (n_values && !values)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "open: %zu options but no array", n_values);
    for (size_t i = 0; i < n_values; i++) {
        if (!values[i].name || !values[i].value)
            return gh_plugin_set_error(GH_INVALID_ARGUMENT, "open: option %zu has no name or no value", i);
        size_t o = 0;
        while (o < n_options && strcmp(values[i].name, options[o].name) != 0) o++;
        if (o == n_options) {
            gh_plugin_set_error(GH_INVALID_ARGUMENT,
                                "open: unknown option \"%s\" (the %s plugin knows:", values[i].name, plugin);
            for (o = 0; o < n_options; o++) gh_plugin_append_error("%s %s", o ? "," : "", options[o].name);
            gh_plugin_append_error("%s)", n_options ? "" : " none");
            return GH_INVALID_ARGUMENT;
        }
        settings[o] = values[i].value;
    }
    return GH_OK;
}

/* open()'s first steps: `out` must be given, then the options are read as by
 * gh_plugin_read_options. */
static inline gh_status gh_plugin_open_options(const char *plugin, const gh_option_info *options, size_t n_options,
                                               const gh_option_value *values, size_t n_values, gh_plugin **out,
                                               const char **settings)
{
    for (size_t o = 0; o < n_options; o++) settings[o] = NULL;
    if (!out) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "open: out is NULL");
    return gh_plugin_read_options(plugin, options, n_options, values, n_values, settings);
}

/* ---- indexes and ranges ---- */

/* A device index: GH_NO_DEVICE (with `no_device_reason`, or a plain sentence
 * when NULL) when the context has none, GH_INVALID_ARGUMENT when out of range. */
static inline gh_status gh_plugin_check_device(const char *call, int device, int device_count,
                                               const char *no_device_reason)
{
    if (device_count <= 0)
        return gh_plugin_set_error(GH_NO_DEVICE, "%s: no device: %s", call,
                                   no_device_reason && *no_device_reason ? no_device_reason
                                                                         : "this context found none");
    if (device < 0 || device >= device_count)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: no device %d (this context has %d)", call, device,
                                   device_count);
    return GH_OK;
}

/* Any other index, e.g. ("gemm", "kernel", kernel, KERNEL_COUNT). */
static inline gh_status gh_plugin_check_index(const char *call, const char *what, int index, int count)
{
    if (index < 0 || index >= count)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: no %s %d (there are %d)", call, what, index, count);
    return GH_OK;
}

/* What the checks need to know of one of the plugin's buffers. */
typedef struct gh_plugin_extent {
    uint64_t bytes;
    int device;
} gh_plugin_extent;

/* Written by the plugin; called only with non-NULL buffers. */
typedef gh_plugin_extent (*gh_plugin_extent_fn)(const gh_buffer *buf);

/* The buffer members of plugin.h's table as function types, so that a
 * plugin's header declares its own by name, without repeating their
 * signatures: `gh_plugin_upload_fn ocl_upload;`. */
typedef gh_status gh_plugin_buffer_alloc_fn(gh_plugin *ctx, int device, uint64_t bytes, gh_buffer **out);
typedef void gh_plugin_buffer_free_fn(gh_plugin *ctx, gh_buffer *buf);
typedef gh_status gh_plugin_upload_fn(gh_plugin *ctx, gh_buffer *dst, uint64_t offset, const void *src, uint64_t bytes);
typedef gh_status gh_plugin_download_fn(gh_plugin *ctx, gh_buffer *src, uint64_t offset, void *dst, uint64_t bytes);
typedef gh_status gh_plugin_host_alloc_fn(gh_plugin *ctx, uint64_t bytes, void **out);
typedef void gh_plugin_host_free_fn(gh_plugin *ctx, void *ptr);
typedef gh_status gh_plugin_host_register_fn(gh_plugin *ctx, void *ptr, uint64_t bytes, uint32_t flags,
                                             const char **how);
typedef gh_status gh_plugin_host_unregister_fn(gh_plugin *ctx, void *ptr);
typedef gh_plugin_extent gh_plugin_extent_of_fn(const gh_buffer *buf);

/* a * b + c without wrapping: 0 and *out, or 1 when it would overflow. */
static inline int gh_plugin_mul_add_u64(uint64_t a, uint64_t b, uint64_t c, uint64_t *out)
{
    if (a && b > UINT64_MAX / a) return 1;
    if (a * b > UINT64_MAX - c) return 1;
    *out = a * b + c;
    return 0;
}

/* upload/download: a non-NULL buffer, a host pointer unless bytes is 0, and
 * offset + bytes within the buffer. */
static inline gh_status gh_plugin_check_copy(const char *call, const gh_buffer *buf, gh_plugin_extent_fn extent,
                                             uint64_t offset, const void *host, uint64_t bytes)
{
    if (!buf) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: the buffer is NULL", call);
    if (!host && bytes) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: the host pointer is NULL", call);
    uint64_t size = extent(buf).bytes;
    if (offset > size || bytes > size - offset)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: %llu bytes at offset %llu run past a buffer of %llu bytes",
                                   call, (unsigned long long)bytes, (unsigned long long)offset,
                                   (unsigned long long)size);
    return GH_OK;
}

/* A 2D copy of `rows` rows of `width` bytes, `pitch` apart in the buffer and
 * `host_pitch` apart in host memory. */
static inline gh_status gh_plugin_check_copy_2d(const char *call, const gh_buffer *buf, gh_plugin_extent_fn extent,
                                                uint64_t offset, uint64_t pitch, const void *host, uint64_t host_pitch,
                                                uint64_t width, uint64_t rows)
{
    if (!buf) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: the buffer is NULL", call);
    if (rows == 0 || width == 0) return GH_OK;
    if (!host) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: the host pointer is NULL", call);
    if (rows > 1 && (pitch < width || host_pitch < width))
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: pitch %llu or host pitch %llu is less than the width %llu",
                                   call, (unsigned long long)pitch, (unsigned long long)host_pitch,
                                   (unsigned long long)width);
    uint64_t span;
    if (gh_plugin_mul_add_u64(rows - 1, pitch, width, &span)) span = UINT64_MAX;
    return gh_plugin_check_copy(call, buf, extent, offset, host, span);
}

/* ---- kernel parameters ---- */

/* Entries of a static array. */
#define GH_PLUGIN_COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* One entry of a kernel's parameter table: its name, what it does, its
 * default and the static array of its allowed values, e.g.
 *   static const int64_t tiles[] = {8, 16, 32};
 *   static const gh_param_info params[] = {GH_PLUGIN_PARAM("tile", "edge of ...", 16, tiles)}; */
#define GH_PLUGIN_PARAM(NAME, DESCRIPTION, DEFAULT, ALLOWED)                                               \
    {                                                                                                      \
        .size = sizeof(gh_param_info), .name = NAME, .description = DESCRIPTION, .default_value = DEFAULT, \
        .allowed = ALLOWED, .n_allowed = GH_PLUGIN_COUNT(ALLOWED),                                         \
    }

/* The position of `value` among p's allowed values, or 0 for a value within
 * a range parameter's min..max; -1 when the value is not allowed. */
static inline int gh_plugin_param_index(const gh_param_info *p, int64_t value)
{
    if (p->n_allowed == 0) return value >= p->min_value && value <= p->max_value ? 0 : -1;
    for (size_t i = 0; i < p->n_allowed; i++)
        if (p->allowed[i] == value) return (int)i;
    return -1;
}

/* n_params exactly the kernel's, params non-NULL when there are any, and
 * each value allowed: "gemm: kernel tiled: tile: 7 is not one of 4, 8, 16". */
static inline gh_status gh_plugin_check_params(const char *call, const gh_kernel_info *kernel, const int64_t *params,
                                               size_t n_params)
{
    if (n_params != kernel->n_params)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: kernel %s takes %zu parameter%s, got %zu", call,
                                   kernel->name, kernel->n_params, kernel->n_params == 1 ? "" : "s", n_params);
    if (n_params && !params)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: kernel %s: %zu parameters but params is NULL", call,
                                   kernel->name, n_params);
    for (size_t i = 0; i < n_params; i++) {
        const gh_param_info *p = &kernel->params[i];
        if (gh_plugin_param_index(p, params[i]) >= 0) continue;
        if (p->n_allowed == 0)
            return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: kernel %s: %s: %lld is outside %lld..%lld", call,
                                       kernel->name, p->name, (long long)params[i], (long long)p->min_value,
                                       (long long)p->max_value);
        gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: kernel %s: %s: %lld is not one of", call, kernel->name, p->name,
                            (long long)params[i]);
        for (size_t a = 0; a < p->n_allowed; a++)
            gh_plugin_append_error("%s %lld", a ? "," : "", (long long)p->allowed[a]);
        return GH_INVALID_ARGUMENT;
    }
    return GH_OK;
}

/* ---- embedded files ----
 * The table cmake/Embed.cmake generates (gemmhost_embed): a plugin's kernel
 * sources or SPIR-V, NULL-terminated; each file's bytes end with a NUL. */

struct gh_embedded_file {
    const char *name; /* the file's name, e.g. "tiled.cl" */
    const unsigned char *data;
    unsigned long size; /* bytes, not counting the NUL after them */
};

/* The entry of `table` named `name`, or NULL when none is. */
static inline const struct gh_embedded_file *gh_plugin_embedded_find(const struct gh_embedded_file *table,
                                                                     const char *name)
{
    for (const struct gh_embedded_file *e = table; e->name; e++)
        if (strcmp(e->name, name) == 0) return e;
    return NULL;
}

/* ---- gemm arguments ---- */

/* Where a gemm runs, for gh_plugin_check_gemm. */
typedef struct gh_plugin_gemm_target {
    int device;                        /* the device the call names (checked already) */
    const gh_device_info *device_info; /* its info: has_fp64 is checked */
    const gh_kernel_info *kernel_info; /* the kernel the call names (checked already) */
    int64_t index_limit;               /* largest m, n, k and ld the kernels index; 0: none */
    gh_plugin_extent_fn extent;        /* size and device of one of the plugin's buffers */
} gh_plugin_gemm_target;

/* One stored matrix: `rows` rows of `cols` elements, `ld` apart, from
 * element `offset` of buf. */
static inline gh_status gh_plugin_check_matrix(const char *call, char name, const gh_buffer *buf, uint64_t offset,
                                               int64_t rows, int64_t cols, int64_t ld, size_t elem,
                                               const gh_plugin_gemm_target *t)
{
    if (!buf) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: buffer %c is NULL", call, name);
    gh_plugin_extent e = t->extent(buf);
    if (e.device != t->device)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: buffer %c belongs to device %d, not %d", call, name,
                                   e.device, t->device);
    if (ld < cols)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT,
                                   "%s: ld%c = %lld is less than the %lld columns %c is stored with", call,
                                   name - 'A' + 'a', (long long)ld, (long long)cols, name);
    /* One past the last element, in elements, then in bytes. */
    uint64_t end, end_bytes;
    if (gh_plugin_mul_add_u64((uint64_t)(rows - 1), (uint64_t)ld, (uint64_t)cols, &end) || end > UINT64_MAX - offset ||
        gh_plugin_mul_add_u64(end + offset, elem, 0, &end_bytes) || end_bytes > e.bytes)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT,
                                   "%s: %c (%lld rows of %lld, ld %lld, at element %llu) runs past its buffer of "
                                   "%llu bytes",
                                   call, name, (long long)rows, (long long)cols, (long long)ld,
                                   (unsigned long long)offset, (unsigned long long)e.bytes);
    return GH_OK;
}

static inline int gh_plugin_is_int32(double x)
{
    return x >= INT32_MIN && x <= INT32_MAX && x == (double)(int32_t)x;
}

/* Every check plugin.h asks of a gemm that does not depend on the API, in
 * order: the malformed (GH_INVALID_ARGUMENT) first, then what the kernel or
 * device cannot do (GH_UNSUPPORTED). What is left to the plugin: its own
 * device limits (work-group size, local memory). */
static inline gh_status gh_plugin_check_gemm(const char *call, const gh_gemm_args *g, const gh_plugin_gemm_target *t)
{
    if (!g) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: args is NULL", call);
    if (!GH_HAS_MEMBER(g, gh_gemm_args, n_params))
        return gh_plugin_set_error(GH_INVALID_ARGUMENT,
                                   "%s: args.size %zu does not cover gh_gemm_args of ABI 1.0 (%zu)", call, g->size,
                                   offsetof(gh_gemm_args, n_params) + sizeof g->n_params);
    if (GH_HAS_MEMBER(g, gh_gemm_args, explicit_types) && g->explicit_types != 0 && g->explicit_types != 1)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: explicit_types must be 0 or 1 (got %d)", call,
                                   (int)g->explicit_types);
    const gh_plugin_gemm_types ty = gh_plugin_gemm_types_of(g);
    const size_t elem_a = gh_plugin_dtype_size(ty.a), elem_b = gh_plugin_dtype_size(ty.b),
                 elem_c = gh_plugin_dtype_size(ty.c);
    if (!elem_a || !elem_b || !elem_c)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: unknown dtype (A %d, B %d, C %d)", call, (int)ty.a,
                                   (int)ty.b, (int)ty.c);
    /* x - x == 0 is false for NaN and the infinities */
    if (!(ty.scale_a > 0 && ty.scale_b > 0 && ty.scale_c > 0 && ty.scale_a - ty.scale_a == 0 &&
          ty.scale_b - ty.scale_b == 0 && ty.scale_c - ty.scale_c == 0))
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: scales must be finite and > 0 (got %g, %g, %g)", call,
                                   ty.scale_a, ty.scale_b, ty.scale_c);
    if (ty.c == GH_I32 && (ty.scale_a != 1.0 || ty.scale_b != 1.0 || ty.scale_c != 1.0))
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: an i32 C takes scales of 1 only (got %g, %g, %g)", call,
                                   ty.scale_a, ty.scale_b, ty.scale_c);
    if ((g->trans_a != 0 && g->trans_a != 1) || (g->trans_b != 0 && g->trans_b != 1))
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: trans_a and trans_b must be 0 or 1 (got %d and %d)", call,
                                   (int)g->trans_a, (int)g->trans_b);
    if (g->m < 1 || g->n < 1 || g->k < 1)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: M, N and K must be at least 1 (got %lld x %lld x %lld)",
                                   call, (long long)g->m, (long long)g->n, (long long)g->k);
    if (ty.c == GH_I32 && (!gh_plugin_is_int32(g->alpha) || !gh_plugin_is_int32(g->beta)))
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: an i32 C needs integral alpha and beta (got %g and %g)",
                                   call, g->alpha, g->beta);
    gh_status s;
    if ((s = gh_plugin_check_matrix(call, 'A', g->a, g->a_offset, g->trans_a ? g->k : g->m, g->trans_a ? g->m : g->k,
                                    g->lda, elem_a, t)) ||
        (s = gh_plugin_check_matrix(call, 'B', g->b, g->b_offset, g->trans_b ? g->n : g->k, g->trans_b ? g->k : g->n,
                                    g->ldb, elem_b, t)) ||
        (s = gh_plugin_check_matrix(call, 'C', g->c, g->c_offset, g->m, g->n, g->ldc, elem_c, t)) ||
        (s = gh_plugin_check_params(call, t->kernel_info, g->params, g->n_params)))
        return s;

    const int in_mask = ty.a == ty.b && ty.b == ty.c && (t->kernel_info->dtypes & GH_DTYPE_BIT(ty.a));
    const gh_type_combo *combo = gh_plugin_find_combo(t->kernel_info, ty.a, ty.b, ty.c);
    if (in_mask && !combo && !gh_plugin_gemm_types_uniform(&ty))
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "%s: kernel %s takes scales other than 1 only in the type "
                                   "combinations it lists",
                                   call, t->kernel_info->name);
    if (!in_mask && !combo) {
        if (ty.a == ty.b && ty.b == ty.c)
            return gh_plugin_set_error(GH_UNSUPPORTED, "%s: kernel %s has no %s version", call, t->kernel_info->name,
                                       gh_plugin_dtype_name(ty.a));
        return gh_plugin_set_error(GH_UNSUPPORTED, "%s: kernel %s has no version with A %s, B %s, C %s", call,
                                   t->kernel_info->name, gh_plugin_dtype_name(ty.a), gh_plugin_dtype_name(ty.b),
                                   gh_plugin_dtype_name(ty.c));
    }
    if (g->dtype == GH_F64 && t->device_info && !t->device_info->has_fp64)
        return gh_plugin_set_error(GH_UNSUPPORTED, "%s: device %s has no fp64", call, t->device_info->name);
    const int64_t limit = t->index_limit;
    if (limit > 0 &&
        (g->m > limit || g->n > limit || g->k > limit || g->lda > limit || g->ldb > limit || g->ldc > limit))
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "%s: %lld x %lld x %lld with ld %lld, %lld, %lld is over this plugin's index "
                                   "limit of %lld",
                                   call, (long long)g->m, (long long)g->n, (long long)g->k, (long long)g->lda,
                                   (long long)g->ldb, (long long)g->ldc, (long long)limit);
    return GH_OK;
}

#endif /* GEMMHOST_PLUGIN_HELPERS_H */
