/* ABI minor 1: streams (create/destroy, 2D copies with pitches, gemm_async,
 * in-order work, results and timings at stream_synchronize) and pinned host
 * memory. Run only when the plugin offers them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_case.h"

#define COPY_BUFFER 4096
enum { ROWS = 5, WIDTH = 24, SRC_PITCH = 40, DST_PITCH = 32, DEV_PITCH = 64, DEV_OFFSET = 16 };

static void check_create(const conformance *c, int device)
{
    const gh_plugin_api *api = c->api;
    gh_stream *s = NULL;
    gh_status st = api->stream_create(c->ctx, -1, &s);
    conf_expect(c, "streams.create_bad_device", st, GH_INVALID_ARGUMENT, "stream_create on device -1");
    if (st == GH_OK) api->stream_destroy(c->ctx, s);
    conf_expect(c, "streams.create_null_out", api->stream_create(c->ctx, device, NULL), GH_INVALID_ARGUMENT,
                "stream_create with out NULL");
    api->stream_destroy(c->ctx, NULL);
    CHECK(1, "streams.destroy_null: stream_destroy(NULL) does nothing");
}

static void check_copies(const conformance *c, int device, gh_stream *stream)
{
    const gh_plugin_api *api = c->api;
    gh_buffer *buf = NULL;
    gh_status st = api->buffer_alloc(c->ctx, device, COPY_BUFFER, &buf);
    if (!CHECK(st == GH_OK, "streams.copy_2d: a %d-byte buffer (%s)", COPY_BUFFER, conf_status_name(st))) return;
    unsigned char fill[COPY_BUFFER], src[ROWS * SRC_PITCH], dst[ROWS * DST_PITCH], whole[COPY_BUFFER];
    memset(fill, 0x11, sizeof fill);
    for (size_t i = 0; i < sizeof src; i++) src[i] = (unsigned char)(i * 13 + 5);
    memset(dst, 0xee, sizeof dst);
    double up_ms = -1, down_ms = -1;
    gh_status s0 = api->upload(c->ctx, buf, 0, fill, COPY_BUFFER);
    gh_status s1 =
        api->upload_2d_async(c->ctx, stream, buf, DEV_OFFSET, DEV_PITCH, src, SRC_PITCH, WIDTH, ROWS, &up_ms);
    gh_status s2 =
        api->download_2d_async(c->ctx, stream, buf, DEV_OFFSET, DEV_PITCH, dst, DST_PITCH, WIDTH, ROWS, &down_ms);
    gh_status s3 = api->stream_synchronize(c->ctx, stream);
    int ok = s0 == GH_OK && s1 == GH_OK && s2 == GH_OK && s3 == GH_OK;
    for (int r = 0; r < ROWS && ok; r++)
        ok = memcmp(dst + r * DST_PITCH, src + r * SRC_PITCH, WIDTH) == 0 && dst[r * DST_PITCH + WIDTH] == 0xee &&
             dst[r * DST_PITCH + DST_PITCH - 1] == 0xee;
    CHECK(ok,
          "streams.copy_2d_round_trip: %d rows of %d bytes up (pitches %d, %d) and down (pitch %d) come back, "
          "host gaps untouched (%s, %s, %s)",
          ROWS, WIDTH, SRC_PITCH, DEV_PITCH, DST_PITCH, conf_status_name(s1), conf_status_name(s2),
          conf_status_name(s3));
    CHECK(up_ms >= 0 && down_ms >= 0, "streams.elapsed: stream_synchronize wrote both copies' elapsed_ms (%g, %g)",
          up_ms, down_ms);
    unsigned char expect[COPY_BUFFER];
    memcpy(expect, fill, sizeof expect);
    for (int r = 0; r < ROWS; r++) memcpy(expect + DEV_OFFSET + r * DEV_PITCH, src + r * SRC_PITCH, WIDTH);
    st = api->download(c->ctx, buf, 0, whole, COPY_BUFFER);
    CHECK(st == GH_OK && memcmp(whole, expect, sizeof whole) == 0,
          "streams.copy_2d_guard: the 2D upload changed its rows' bytes and nothing between or around them");

    conf_expect(c, "streams.copy_2d_past_end",
                api->upload_2d_async(c->ctx, stream, buf, COPY_BUFFER - 40, DEV_PITCH, src, SRC_PITCH, WIDTH, 2, NULL),
                GH_INVALID_ARGUMENT, "upload_2d_async whose second row runs past the buffer");
    conf_expect(
        c, "streams.copy_2d_past_end",
        api->download_2d_async(c->ctx, stream, buf, COPY_BUFFER - 40, DEV_PITCH, dst, DST_PITCH, WIDTH, 2, NULL),
        GH_INVALID_ARGUMENT, "download_2d_async whose second row runs past the buffer");
    conf_expect(c, "streams.copy_2d_pitch",
                api->upload_2d_async(c->ctx, stream, buf, 0, WIDTH - 1, src, SRC_PITCH, WIDTH, 2, NULL),
                GH_INVALID_ARGUMENT, "upload_2d_async with a pitch below the width");
    conf_expect(c, "streams.copy_2d_null",
                api->upload_2d_async(c->ctx, stream, NULL, 0, DEV_PITCH, src, SRC_PITCH, WIDTH, 1, NULL),
                GH_INVALID_ARGUMENT, "upload_2d_async into a NULL buffer");
    conf_expect(c, "streams.copy_2d_null",
                api->download_2d_async(c->ctx, stream, buf, 0, DEV_PITCH, NULL, DST_PITCH, WIDTH, 1, NULL),
                GH_INVALID_ARGUMENT, "download_2d_async into NULL host memory");
    conf_expect(c, "streams.refusals_queue_nothing", api->stream_synchronize(c->ctx, stream), GH_OK,
                "stream_synchronize after refused calls");
    api->buffer_free(c->ctx, buf);
}

/* gemm_async gives gemm's bytes, and work on one stream runs in order:
 * A arrives by upload_2d_async, then gemm_async, then C leaves by
 * download_2d_async, all queued before one synchronize. */
static void check_gemm_async(const conformance *c, int device, gh_stream *stream, int kernel, const gh_kernel_info *ki,
                             gh_dtype d)
{
    const gh_plugin_api *api = c->api;
    gemm_case gc = {d, 0, 1, 7, 5, 3, d == GH_I32 ? 2 : 1.5, d == GH_I32 ? -3 : -0.5};
    gemm_setup blocking, queued;
    const char *step = "";
    gh_status st = gemm_setup_make(c, device, ki, &gc, 21, &blocking, &step);
    if (st == GH_OK) st = gemm_setup_make(c, device, ki, &gc, 21, &queued, &step);
    else memset(&queued, 0, sizeof queued);
    gh_gemm_timing t1 = {.size = sizeof t1, .kernel_ms = -1, .clock = GH_CLOCK_DEVICE},
                   t2 = {.size = sizeof t2, .kernel_ms = -1, .clock = (gh_clock)99};
    if (st == GH_OK) st = api->gemm(c->ctx, device, kernel, &blocking.args, &t1);
    if (st != GH_OK) {
        check_skip("streams.gemm_async: kernel %s %s: %s: %s", ki->name, dtype_name(d), step, conf_error(c));
        gemm_setup_free(c, &blocking);
        gemm_setup_free(c, &queued);
        return;
    }
    /* A's buffer holds zeros until the queued upload puts A there. */
    size_t a_bytes = queued.a.elements * queued.a.elem, c_bytes = queued.c.elements * queued.c.elem;
    unsigned char *zeros = calloc(1, a_bytes), *c_async = malloc(c_bytes), *c_blocking = malloc(c_bytes);
    st = zeros && c_async && c_blocking ? api->upload(c->ctx, queued.a.buf, 0, zeros, a_bytes) : GH_OUT_OF_MEMORY;
    gh_status s1 = st == GH_OK ? api->upload_2d_async(c->ctx, stream, queued.a.buf, 0, a_bytes, queued.a.image, a_bytes,
                                                      a_bytes, 1, NULL)
                               : st;
    gh_status s2 = s1 == GH_OK ? api->gemm_async(c->ctx, stream, kernel, &queued.args, &t2) : s1;
    gh_status s3 = s2 == GH_OK ? api->download_2d_async(c->ctx, stream, queued.c.buf, 0, c_bytes, c_async, c_bytes,
                                                        c_bytes, 1, NULL)
                               : s2;
    gh_status s4 = s3 == GH_OK ? api->stream_synchronize(c->ctx, stream) : s3;
    gh_status s5 = s4 == GH_OK ? placed_download(c, &blocking.c, c_blocking) : s4;
    if (CHECK(s5 == GH_OK && memcmp(c_async, c_blocking, c_bytes) == 0,
              "streams.gemm_async: kernel %s %s: upload_2d_async, gemm_async, download_2d_async in order on one "
              "stream give gemm's bytes (%s)",
              ki->name, dtype_name(d), conf_outcome(c, s5))) {
        gemm_verdict v;
        memset(&v, 0, sizeof v);
        gemm_verify(c, &queued, &v);
        CHECK(!v.result[0] && !v.guard[0], "streams.gemm_async_result: ... and match the f64 host loop%s%s%s",
              v.result[0] || v.guard[0] ? ": " : "", v.result, v.guard);
        CHECK(t2.kernel_ms >= 0 && (t2.clock == GH_CLOCK_DEVICE || t2.clock == GH_CLOCK_HOST),
              "streams.gemm_async_timing: stream_synchronize wrote the timing (kernel_ms %g, clock %d)", t2.kernel_ms,
              (int)t2.clock);
    }
    gh_gemm_args bad = queued.args;
    bad.m = 0;
    conf_expect(c, "streams.gemm_async_refusal", api->gemm_async(c->ctx, stream, kernel, &bad, &t2),
                GH_INVALID_ARGUMENT, "gemm_async with m = 0 (refused at the call)");
    conf_expect(c, "streams.refusals_queue_nothing", api->stream_synchronize(c->ctx, stream), GH_OK,
                "stream_synchronize after a refused gemm_async");
    free(zeros);
    free(c_async);
    free(c_blocking);
    gemm_setup_free(c, &blocking);
    gemm_setup_free(c, &queued);
}

void conf_check_streams(const conformance *c, int device)
{
    check_create(c, device);
    gh_stream *stream = NULL;
    gh_status st = c->api->stream_create(c->ctx, device, &stream);
    if (!CHECK(st == GH_OK && stream, "streams.create: a stream on device %d (%s)", device, conf_outcome(c, st)))
        return;
    check_copies(c, device, stream);
    for (int k = 0; k < c->n_kernels; k++) {
        const gh_kernel_info *ki = c->api->kernel_info(c->ctx, k);
        if (!ki || ki->n_params > MAX_PARAMS) continue;
        const gh_dtype d = gemm_case_first_dtype(ki);
        check_gemm_async(c, device, stream, k, ki, d);
    }
    c->api->stream_destroy(c->ctx, stream);
}

void conf_check_host_alloc(const conformance *c)
{
    const gh_plugin_api *api = c->api;
    void *p = NULL;
    gh_status st = api->host_alloc(c->ctx, 4096, &p);
    if (CHECK(st == GH_OK && p, "host_alloc.ok: 4096 bytes (%s)", conf_status_name(st))) {
        memset(p, 0x5a, 4096); /* all of it is writable */
        const unsigned char *bytes = p;
        CHECK(bytes[0] == 0x5a && bytes[4095] == 0x5a, "host_alloc.usable: every byte reads back");
        api->host_free(c->ctx, p);
    }
    p = NULL;
    st = api->host_alloc(c->ctx, 0, &p);
    conf_expect(c, "host_alloc.zero", st, GH_INVALID_ARGUMENT, "host_alloc of 0 bytes");
    if (st == GH_OK) api->host_free(c->ctx, p);
    conf_expect(c, "host_alloc.null_out", api->host_alloc(c->ctx, 64, NULL), GH_INVALID_ARGUMENT,
                "host_alloc with out NULL");
    api->host_free(c->ctx, NULL);
    CHECK(1, "host_alloc.free_null: host_free(NULL) does nothing");
}
