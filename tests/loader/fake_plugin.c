/* A fake plugin that misbehaves in one way, chosen at build time with
 * FAKE_MODE, so the loader and the run are tested against each way a real
 * plugin can go wrong. FAKE_GOOD behaves: one device that copies nothing and
 * leaves C untouched (so its results fail verification: unwritten). */
#include <stdio.h>
#include <string.h>
#include "gemmhost/plugin.h"

#define FAKE_GOOD 0
#define FAKE_WRONG_MAJOR 1
#define FAKE_NO_ENTRY 2
#define FAKE_FAILING_OPEN 3
#define FAKE_NO_DEVICE 4
#define FAKE_MINOR_TOO_NEW 5
#define FAKE_SHORT_TABLE 6

static _Thread_local char error_text[256] = "";

static const char *fake_last_error(gh_plugin *ctx) { (void)ctx; return error_text; }

struct gh_plugin { int unused; };
struct gh_buffer { char bytes[1]; };
static gh_plugin the_context;
static gh_buffer the_buffer;

static gh_status fake_open(const gh_option_value *o, size_t n, gh_plugin **out)
{
    (void)o; (void)n;
    if (FAKE_MODE == FAKE_FAILING_OPEN) {
        snprintf(error_text, sizeof error_text, "simulated driver failure in open");
        return GH_ERROR;
    }
    *out = &the_context;
    return GH_OK;
}
static void fake_close(gh_plugin *ctx) { (void)ctx; }
static int fake_device_count(gh_plugin *ctx)
{
    (void)ctx;
    if (FAKE_MODE == FAKE_NO_DEVICE) {
        snprintf(error_text, sizeof error_text, "no FakeGPU driver installed (libfakegpu.so.1 not found)");
        return 0;
    }
    return 1;
}
static const gh_device_info fake_info = {sizeof(gh_device_info), "Fake Device", "fake", "0", "none", "", 1, 0, 1, 0, 1, 1};
static const gh_device_info *fake_device_info(gh_plugin *ctx, int d) { (void)ctx; return d == 0 ? &fake_info : NULL; }
static const gh_kernel_info fake_kernel = {sizeof(gh_kernel_info), "noop", "writes nothing", 7u, NULL, 0};
static int fake_kernel_count(gh_plugin *ctx) { (void)ctx; return 1; }
static const gh_kernel_info *fake_kernel_info(gh_plugin *ctx, int k) { (void)ctx; return k == 0 ? &fake_kernel : NULL; }
static gh_status fake_alloc(gh_plugin *ctx, int d, uint64_t bytes, gh_buffer **out)
{
    (void)ctx; (void)d; (void)bytes;
    *out = &the_buffer;
    return GH_OK;
}
static void fake_free(gh_plugin *ctx, gh_buffer *b) { (void)ctx; (void)b; }
/* Remembers nothing: a download returns what the host last uploaded into C
 * only by accident of the host's own buffer, i.e. C stays as poisoned. */
static gh_status fake_upload(gh_plugin *ctx, gh_buffer *b, uint64_t off, const void *src, uint64_t n)
{
    (void)ctx; (void)b; (void)off; (void)src; (void)n;
    return GH_OK;
}
static gh_status fake_download(gh_plugin *ctx, gh_buffer *b, uint64_t off, void *dst, uint64_t n)
{
    (void)ctx; (void)b; (void)off;
    memset(dst, 0x7F, n); /* NaN-like for floats, the poison pattern for i32 */
    return GH_OK;
}
static gh_status fake_gemm(gh_plugin *ctx, int d, int k, const gh_gemm_args *a, gh_gemm_timing *t)
{
    (void)ctx; (void)d; (void)k; (void)a;
    t->kernel_ms = 1.0;
    t->clock = GH_CLOCK_DEVICE;
    return GH_OK;
}
static gh_status fake_sync(gh_plugin *ctx, int d) { (void)ctx; (void)d; return GH_OK; }
static void *fake_get_proc(const char *name) { (void)name; return NULL; }

static const gh_plugin_api fake_api = {
    .size = FAKE_MODE == FAKE_SHORT_TABLE ? offsetof(gh_plugin_api, gemm) : sizeof(gh_plugin_api),
    .abi_major = GEMMHOST_ABI_MAJOR, .abi_minor = GEMMHOST_ABI_MINOR,
    .name = FAKE_NAME, .description = "a fake plugin for the loader tests", .version = "0",
    .open = fake_open, .close = fake_close, .last_error = fake_last_error,
    .device_count = fake_device_count, .device_info = fake_device_info,
    .kernel_count = fake_kernel_count, .kernel_info = fake_kernel_info,
    .buffer_alloc = fake_alloc, .buffer_free = fake_free, .upload = fake_upload, .download = fake_download,
    .gemm = fake_gemm, .synchronize = fake_sync, .get_proc = fake_get_proc,
};

#if FAKE_MODE == FAKE_NO_ENTRY
GEMMHOST_EXPORT gh_status gemmhost_plugin_entry_misspelled(gh_entry_request *req)
#else
GEMMHOST_EXPORT gh_status gemmhost_plugin_entry(gh_entry_request *req)
#endif
{
    if (FAKE_MODE == FAKE_WRONG_MAJOR) {
        req->plugin_abi_major = GEMMHOST_ABI_MAJOR + 1;
        return GH_VERSION_MISMATCH;
    }
    req->plugin_abi_major = GEMMHOST_ABI_MAJOR;
    req->abi_minor = FAKE_MODE == FAKE_MINOR_TOO_NEW ? req->abi_minor + 1 : req->abi_minor;
    req->api = &fake_api;
    return GH_OK;
}
