/*
 * plugin_helpers.h's table helpers, as every plugin uses them: GH_PLUGIN_PARAM
 * fills one gh_param_info from (name, description, default, allowed array),
 * and gh_plugin_embedded_find finds a file of a gemmhost_embed table by name;
 * GH_PLUGIN_OPTION and GH_PLUGIN_KERNEL(_PARAMS, _PRECISIONS) fill the
 * options and kernel tables, GH_PLUGIN_API_CALLS names a plugin's calls by
 * its prefix, gh_plugin_open_options starts open(), and gh_plugin_kernel_dir
 * picks the kernel_dir option or $GEMMHOST_KERNEL_DIR.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#define CHECK_MAIN
#include <gemmhost/plugin_helpers.h>
#include "../check.h"

/* The error text GH_PLUGIN_ENTRY would define in a plugin. */
GH_PLUGIN_DEFINE_ERROR_TEXT;

static const int64_t tiles[] = {8, 16, 32};
static const gh_param_info params[] = {
    GH_PLUGIN_PARAM("tile", "edge of a tile", 16, tiles),
};

static const gh_option_info options[] = {GH_PLUGIN_OPTION("kernel_dir", "", "where the sources are")};
static const gh_kernel_precision tf32[] = {{sizeof(gh_kernel_precision), GH_F32, GH_PREC_TF32, GH_PREC_F32}};
static const gh_kernel_info kernels[] = {
    {GH_PLUGIN_KERNEL("naive", "one element each", GH_DTYPE_BIT(GH_F32))},
    {GH_PLUGIN_KERNEL("tiled", "tiles", GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64)), GH_PLUGIN_KERNEL_PARAMS(params),
     GH_PLUGIN_KERNEL_PRECISIONS(tf32)},
};

/* A table of calls named t_open, t_close, ... as GH_PLUGIN_API_CALLS wants. */
static gh_status t_open(const gh_option_value *values, size_t n_values, gh_plugin **out)
{
    const char *settings[1];
    return gh_plugin_open_options("t", options, 1, values, n_values, out, settings);
}
static void t_close(gh_plugin *ctx)
{
    (void)ctx;
}
static int t_device_count(gh_plugin *ctx)
{
    (void)ctx;
    return 0;
}
static const gh_device_info *t_device_info(gh_plugin *ctx, int device)
{
    (void)ctx, (void)device;
    return NULL;
}
static int t_kernel_count(gh_plugin *ctx)
{
    (void)ctx;
    return 2;
}
static const gh_kernel_info *t_kernel_info(gh_plugin *ctx, int kernel)
{
    (void)ctx;
    return &kernels[kernel];
}
static gh_status t_buffer_alloc(gh_plugin *ctx, int device, uint64_t bytes, gh_buffer **out)
{
    (void)ctx, (void)device, (void)bytes, (void)out;
    return GH_ERROR;
}
static void t_buffer_free(gh_plugin *ctx, gh_buffer *buf)
{
    (void)ctx, (void)buf;
}
static gh_status t_upload(gh_plugin *ctx, gh_buffer *dst, uint64_t offset, const void *src, uint64_t bytes)
{
    (void)ctx, (void)dst, (void)offset, (void)src, (void)bytes;
    return GH_ERROR;
}
static gh_status t_download(gh_plugin *ctx, gh_buffer *src, uint64_t offset, void *dst, uint64_t bytes)
{
    (void)ctx, (void)src, (void)offset, (void)dst, (void)bytes;
    return GH_ERROR;
}
static gh_status t_gemm(gh_plugin *ctx, int device, int kernel, const gh_gemm_args *args, gh_gemm_timing *timing)
{
    (void)ctx, (void)device, (void)kernel, (void)args, (void)timing;
    return GH_ERROR;
}
static gh_status t_synchronize(gh_plugin *ctx, int device)
{
    (void)ctx, (void)device;
    return GH_OK;
}
static const gh_plugin_api api = {
    GH_PLUGIN_API_HEAD("t", "a table for the helpers", "1", options),
    GH_PLUGIN_API_CALLS(t),
    .get_proc = gh_plugin_no_extras,
};

static const unsigned char naive_bytes[] = "naive\0", tiled_bytes[] = "tiled\0";
static const struct gh_embedded_file files[] = {
    {"naive.cl", naive_bytes, 5},
    {"tiled.cl", tiled_bytes, 5},
    {0, 0, 0},
};

int main(void)
{
    const gh_param_info *p = &params[0];
    CHECK(GH_PLUGIN_COUNT(params) == 1, "GH_PLUGIN_COUNT: one entry (got %zu)", GH_PLUGIN_COUNT(params));
    CHECK(p->size == sizeof(gh_param_info), "GH_PLUGIN_PARAM: size is sizeof(gh_param_info) (got %zu)", p->size);
    CHECK(strcmp(p->name, "tile") == 0, "GH_PLUGIN_PARAM: name (got %s)", p->name);
    CHECK(strcmp(p->description, "edge of a tile") == 0, "GH_PLUGIN_PARAM: description (got %s)", p->description);
    CHECK(p->default_value == 16, "GH_PLUGIN_PARAM: default (got %lld)", (long long)p->default_value);
    CHECK(p->allowed == tiles && p->n_allowed == 3, "GH_PLUGIN_PARAM: the allowed array and its count (got %zu)",
          p->n_allowed);
    CHECK(p->min_value == 0 && p->max_value == 0, "GH_PLUGIN_PARAM: no range beside the allowed values");
    CHECK(gh_plugin_param_index(p, 32) == 2 && gh_plugin_param_index(p, 4) == -1,
          "GH_PLUGIN_PARAM: gh_plugin_param_index reads its allowed values");

    const struct gh_embedded_file *e = gh_plugin_embedded_find(files, "tiled.cl");
    CHECK(e == &files[1], "gh_plugin_embedded_find: tiled.cl is the second entry");
    CHECK(e && e->size == 5 && memcmp(e->data, "tiled", 5) == 0, "gh_plugin_embedded_find: its bytes and size");
    CHECK(gh_plugin_embedded_find(files, "naive.cl") == &files[0], "gh_plugin_embedded_find: the first entry");
    CHECK(gh_plugin_embedded_find(files, "blocked.cl") == NULL, "gh_plugin_embedded_find: a missing file is NULL");
    CHECK(gh_plugin_embedded_find(files, "tiled") == NULL, "gh_plugin_embedded_find: a name must match whole");

    const gh_option_info *o = &options[0];
    CHECK(o->size == sizeof(gh_option_info) && strcmp(o->name, "kernel_dir") == 0 &&
              strcmp(o->description, "where the sources are") == 0 && strcmp(o->default_value, "") == 0,
          "GH_PLUGIN_OPTION: size, name, description and default");

    CHECK(kernels[0].size == sizeof(gh_kernel_info) && strcmp(kernels[0].name, "naive") == 0 &&
              strcmp(kernels[0].description, "one element each") == 0 && kernels[0].dtypes == GH_DTYPE_BIT(GH_F32),
          "GH_PLUGIN_KERNEL: size, name, description and dtypes");
    CHECK(!kernels[0].params && !kernels[0].n_params && !kernels[0].precisions && !kernels[0].n_precisions,
          "GH_PLUGIN_KERNEL alone: no parameters, no declared arithmetic");
    CHECK(kernels[1].params == params && kernels[1].n_params == 1, "GH_PLUGIN_KERNEL_PARAMS: the array and its count");
    CHECK(kernels[1].precisions == tf32 && kernels[1].n_precisions == 1,
          "GH_PLUGIN_KERNEL_PRECISIONS: the array and its count");

    CHECK(api.open == t_open && api.close == t_close && api.device_count == t_device_count &&
              api.device_info == t_device_info && api.kernel_count == t_kernel_count &&
              api.kernel_info == t_kernel_info && api.buffer_alloc == t_buffer_alloc &&
              api.buffer_free == t_buffer_free && api.upload == t_upload && api.download == t_download &&
              api.gemm == t_gemm && api.synchronize == t_synchronize,
          "GH_PLUGIN_API_CALLS(t): every call of ABI minor 0 is t_<member>");
    CHECK(api.get_proc && api.get_proc("anything") == NULL, "gh_plugin_no_extras: no extras");

    gh_plugin *ctx = NULL;
    CHECK(api.open(NULL, 0, NULL) == GH_INVALID_ARGUMENT && strstr(gh_plugin_error_text, "out is NULL"),
          "gh_plugin_open_options: a NULL out is refused, and said so (%s)", gh_plugin_error_text);
    gh_option_value unknown = {"tile", "8"};
    CHECK(api.open(&unknown, 1, &ctx) == GH_INVALID_ARGUMENT && strstr(gh_plugin_error_text, "tile"),
          "gh_plugin_open_options: an unknown option is refused, named (%s)", gh_plugin_error_text);
    gh_option_value known = {"kernel_dir", "/k"};
    CHECK(api.open(&known, 1, &ctx) == GH_OK, "gh_plugin_open_options: a known option is read");

    unsetenv(GH_PLUGIN_KERNEL_DIR_ENV);
    CHECK(gh_plugin_kernel_dir(NULL) == NULL && gh_plugin_kernel_dir("") == NULL,
          "gh_plugin_kernel_dir: none given, none in the environment: NULL");
    setenv(GH_PLUGIN_KERNEL_DIR_ENV, "/env", 1);
    CHECK(gh_plugin_kernel_dir(NULL) && strcmp(gh_plugin_kernel_dir(NULL), "/env") == 0 &&
              strcmp(gh_plugin_kernel_dir(""), "/env") == 0,
          "gh_plugin_kernel_dir: the option unset or \"\": $" GH_PLUGIN_KERNEL_DIR_ENV);
    CHECK(strcmp(gh_plugin_kernel_dir("/opt"), "/opt") == 0, "gh_plugin_kernel_dir: the option before the environment");
    setenv(GH_PLUGIN_KERNEL_DIR_ENV, "", 1);
    CHECK(gh_plugin_kernel_dir(NULL) == NULL, "gh_plugin_kernel_dir: an empty $" GH_PLUGIN_KERNEL_DIR_ENV " is none");
    return check_summary("plugin_helpers tables");
}
