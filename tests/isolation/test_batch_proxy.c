/* gemm_batch_async (ABI 1.6) through the proxy: one request for n launches.
 * A plugin with streams but no gemm_batch_async (fake_streams, ABI 1.5): the
 * worker queues n gemm_async launches and reports their mean as the one
 * timing, in step with gemm_async calls queued around it; n 0 is refused with
 * nothing queued. A plugin with its own (fake_streams_batch): called once,
 * gemm_async never. And the split of K (ABI 1.6's timing members) travels,
 * written by the size of the host's timing.
 * The fakes' gemm reports its call's number (1, 2 ...) as kernel_ms.
 * Usage: test_batch_proxy FAKES_DIR (and, as gemmhost, --worker ...). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"
#include "proxy.h"
#include "worker.h"

static int passed, failed;

static int check(int ok, const char *fmt, const char *detail)
{
    if (ok) passed++;
    else failed++;
    printf("%s: ", ok ? "ok" : "FAIL");
    printf(fmt, detail ? detail : "");
    printf("\n");
    return ok;
}

typedef struct fixture {
    gh_loaded_plugin plugin;
    const gh_plugin_api *api;
    gh_plugin *ctx;
    gh_buffer *a, *b, *c;
    gh_gemm_args args;
    gh_stream *stream;
} fixture;

/* A 2x2 f32 GEMM: C = A B with A = [1 2; 3 4], B = [5 6; 7 8]. */
static int setup(fixture *f, const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/gemmhost-%s.so", dir, name);
    memset(f, 0, sizeof *f);
    if (!check(gh_proxy_load(path, -1, &f->plugin) == 0, "loads in a worker %s", f->plugin.error)) return -1;
    f->api = f->plugin.api;
    gh_status s = gh_proxy_open(&f->plugin, NULL, 0, NULL, &f->ctx);
    if (!check(s == GH_OK, "opens %s", s == GH_OK ? "" : f->api->last_error(NULL))) return -1;
    const float a[] = {1, 2, 3, 4}, b[] = {5, 6, 7, 8};
    const gh_plugin_api *api = f->api;
    int ok = api->buffer_alloc(f->ctx, 0, 16, &f->a) == GH_OK && api->buffer_alloc(f->ctx, 0, 16, &f->b) == GH_OK &&
             api->buffer_alloc(f->ctx, 0, 16, &f->c) == GH_OK && api->upload(f->ctx, f->a, 0, a, 16) == GH_OK &&
             api->upload(f->ctx, f->b, 0, b, 16) == GH_OK && api->stream_create(f->ctx, 0, &f->stream) == GH_OK;
    f->args = (gh_gemm_args){.size = sizeof f->args,
                             .dtype = GH_F32,
                             .m = 2,
                             .n = 2,
                             .k = 2,
                             .alpha = 1,
                             .lda = 2,
                             .ldb = 2,
                             .ldc = 2,
                             .a = f->a,
                             .b = f->b,
                             .c = f->c};
    return check(ok, "buffers and a stream %s", ok ? "" : api->last_error(f->ctx)) ? 0 : -1;
}

static void teardown(fixture *f)
{
    if (f->ctx) {
        f->api->stream_destroy(f->ctx, f->stream);
        f->api->buffer_free(f->ctx, f->a);
        f->api->buffer_free(f->ctx, f->b);
        f->api->buffer_free(f->ctx, f->c);
        f->api->close(f->ctx);
    }
    gh_proxy_unload(&f->plugin);
    free(f->plugin.path);
    free(f->plugin.name);
    free(f->plugin.error);
}

static gh_gemm_timing fresh(void)
{
    return (gh_gemm_timing){.size = sizeof(gh_gemm_timing), .kernel_ms = -1, .clock = (gh_clock)9};
}

static int c_is_product(fixture *f)
{
    float c[4] = {0};
    return f->api->download(f->ctx, f->c, 0, c, sizeof c) == GH_OK && c[0] == 19 && c[1] == 22 && c[2] == 43 &&
           c[3] == 50;
}

/* fake_streams: no gemm_batch_async, so the worker's emulation. */
static void without_batch(const char *dir)
{
    fixture f;
    if (setup(&f, dir, "fake_streams") != 0) return teardown(&f);
    const gh_plugin_api *api = f.api;
    char minor[32];
    snprintf(minor, sizeof minor, "%u", f.plugin.abi_minor);
    check(f.plugin.abi_minor == 5 && gh_plugin_has_batch(api, f.plugin.abi_minor),
          "an ABI-1.%s plugin with streams gets the proxy's gemm_batch_async", minor);

    gh_gemm_timing t = fresh();
    gh_status s = api->gemm_batch_async(f.ctx, f.stream, 0, &f.args, 4, &t);
    gh_status w = api->stream_synchronize(f.ctx, f.stream);
    check(s == GH_OK && w == GH_OK, "gemm_batch_async of 4 and its sync succeed %s",
          s == GH_OK && w == GH_OK ? "" : api->last_error(f.ctx));
    check(t.kernel_ms == 2.5, "its timing is the mean of the 4 launches' (1, 2, 3, 4 ms: 2.5)%s", "");
    check(t.clock == GH_CLOCK_DEVICE, "on the device's clock%s", "");
    check(strstr(t.note, "4 gemm_async launches (the plugin has no gemm_batch_async)") != NULL, "the note says how: %s",
          t.note);
    check(t.split_pieces == 2 && t.split_precision == GH_PREC_F16, "the launches' split of K travels%s", "");
    check(c_is_product(&f), "C is A B%s", "");

    gh_gemm_timing zero = fresh();
    s = api->gemm_batch_async(f.ctx, f.stream, 0, &f.args, 0, &zero);
    check(s == GH_INVALID_ARGUMENT && strstr(api->last_error(f.ctx), "n is 0"), "n 0 is refused: %s",
          api->last_error(f.ctx));
    /* Nothing was queued for it: the calls around a batch settle in order. */
    gh_gemm_timing t1 = fresh(), tb = fresh(), t3 = fresh();
    gh_status s1 = api->gemm_async(f.ctx, f.stream, 0, &f.args, &t1);
    gh_status s2 = api->gemm_batch_async(f.ctx, f.stream, 0, &f.args, 2, &tb);
    gh_status s3 = api->gemm_async(f.ctx, f.stream, 0, &f.args, &t3);
    w = api->stream_synchronize(f.ctx, f.stream);
    int ok = s1 == GH_OK && s2 == GH_OK && s3 == GH_OK && w == GH_OK;
    check(ok, "gemm_async, a batch of 2, gemm_async %s", ok ? "" : api->last_error(f.ctx));
    check(t1.kernel_ms == 5 && tb.kernel_ms == 6.5 && t3.kernel_ms == 8 && zero.kernel_ms == -1,
          "each timing is its own call's (5; 6 and 7: 6.5; 8), none for the refused batch%s", "");

    /* A host timing of ABI 1.5's size: the split is not written past it. */
    gh_gemm_timing old = fresh();
    old.size = offsetof(gh_gemm_timing, split_pieces);
    old.split_pieces = 77;
    s = api->gemm_batch_async(f.ctx, f.stream, 0, &f.args, 1, &old);
    w = api->stream_synchronize(f.ctx, f.stream);
    check(s == GH_OK && w == GH_OK && old.kernel_ms == 9 && old.split_pieces == 77 && old.split_precision == 0,
          "a shorter timing gets kernel_ms, not the split%s", "");
    gh_gemm_timing blocking = fresh();
    s = api->gemm(f.ctx, 0, 0, &f.args, &blocking);
    check(s == GH_OK && blocking.kernel_ms == 10 && blocking.split_pieces == 2 &&
              blocking.split_precision == GH_PREC_F16,
          "a blocking gemm's split of K travels too%s", "");
    teardown(&f);
}

/* fake_streams_batch: its own gemm_batch_async, called once per batch. */
static void with_batch(const char *dir)
{
    fixture f;
    if (setup(&f, dir, "fake_streams_batch") != 0) return teardown(&f);
    const gh_plugin_api *api = f.api;
    check(f.plugin.abi_minor == GEMMHOST_ABI_MINOR && gh_plugin_has_batch(api, f.plugin.abi_minor),
          "an ABI-1.6 plugin's gemm_batch_async is offered%s", "");
    gh_gemm_timing t = fresh(), t2 = fresh();
    gh_status s = api->gemm_batch_async(f.ctx, f.stream, 0, &f.args, 4, &t);
    gh_status s2 = api->gemm_batch_async(f.ctx, f.stream, 0, &f.args, 2, &t2);
    gh_status w = api->stream_synchronize(f.ctx, f.stream);
    int ok = s == GH_OK && s2 == GH_OK && w == GH_OK;
    check(ok, "two batches and their sync succeed %s", ok ? "" : api->last_error(f.ctx));
    check(strstr(t.note, "fake gemm_batch_async call 1: 4 launches, 0 gemm_async calls before") != NULL,
          "the plugin's own was called once for 4 launches: %s", t.note);
    check(strstr(t2.note, "fake gemm_batch_async call 2: 2 launches, 0 gemm_async calls before") != NULL,
          "and once for the next batch: %s", t2.note);
    check(t.kernel_ms == 2.5 && t2.kernel_ms == 5.5 && t.split_pieces == 2 && t.split_precision == GH_PREC_F16,
          "their timings and splits are the plugin's%s", "");
    check(c_is_product(&f), "C is A B%s", "");
    s = api->gemm_batch_async(f.ctx, f.stream, 0, &f.args, 0, &t);
    check(s == GH_INVALID_ARGUMENT && api->stream_synchronize(f.ctx, f.stream) == GH_OK, "n 0 is refused: %s",
          api->last_error(f.ctx));
    teardown(&f);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], GH_WORKER_ARG) == 0) return gh_worker_main(argc, argv);
    if (argc != 2) {
        fprintf(stderr, "usage: test_batch_proxy FAKES_DIR\n");
        return 2;
    }
    without_batch(argv[1]);
    with_batch(argv[1]);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
