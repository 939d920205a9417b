/* ABI minor 6: gemm_batch_async, when the plugin offers it. n launches of
 * one GEMM (beta 0, so each gives the same C) leave gemm's bytes and one
 * timing, finite and > 0; n = 0 is refused at the call with nothing queued. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_case.h"

enum { LAUNCHES = 3 };

static void check_kernel(const conformance *c, int device, gh_stream *stream, int kernel, const gh_kernel_info *ki,
                         gh_dtype d)
{
    const gh_plugin_api *api = c->api;
    gemm_case gc = {d, 1, 0, 6, 5, 4, d == GH_I32 ? 3 : 1.25, 0};
    gemm_setup blocking, batched;
    const char *step = "";
    gh_status st = gemm_setup_make(c, device, ki, &gc, 33, &blocking, &step);
    if (st == GH_OK) st = gemm_setup_make(c, device, ki, &gc, 33, &batched, &step);
    else memset(&batched, 0, sizeof batched);
    gh_gemm_timing t1 = {.size = sizeof t1, .clock = GH_CLOCK_DEVICE},
                   tb = {.size = sizeof tb, .kernel_ms = -1, .clock = (gh_clock)99};
    if (st == GH_OK) st = api->gemm(c->ctx, device, kernel, &blocking.args, &t1);
    if (st != GH_OK) {
        check_skip("batch.result: kernel %s %s: %s: %s", ki->name, dtype_name(d), step, conf_error(c));
        gemm_setup_free(c, &blocking);
        gemm_setup_free(c, &batched);
        return;
    }
    size_t c_bytes = batched.c.elements * batched.c.elem;
    unsigned char *c_batch = malloc(c_bytes), *c_blocking = malloc(c_bytes);
    gh_status s1 = c_batch && c_blocking ? api->gemm_batch_async(c->ctx, stream, kernel, &batched.args, LAUNCHES, &tb)
                                         : GH_OUT_OF_MEMORY;
    gh_status s2 = s1 == GH_OK ? api->stream_synchronize(c->ctx, stream) : s1;
    gh_status s3 = s2 == GH_OK ? placed_download(c, &batched.c, c_batch) : s2;
    gh_status s4 = s3 == GH_OK ? placed_download(c, &blocking.c, c_blocking) : s3;
    if (CHECK(s4 == GH_OK && memcmp(c_batch, c_blocking, c_bytes) == 0,
              "batch.result: kernel %s %s: gemm_batch_async of %d launches (beta 0) gives gemm's bytes (%s)", ki->name,
              dtype_name(d), LAUNCHES, conf_outcome(c, s4))) {
        gemm_verdict v;
        memset(&v, 0, sizeof v);
        gemm_verify(c, &batched, &v);
        CHECK(!v.result[0] && !v.guard[0], "batch.verify: ... and match the f64 host loop%s%s%s",
              v.result[0] || v.guard[0] ? ": " : "", v.result, v.guard);
        CHECK(isfinite(tb.kernel_ms) && tb.kernel_ms > 0 && (tb.clock == GH_CLOCK_DEVICE || tb.clock == GH_CLOCK_HOST),
              "batch.timing: stream_synchronize wrote the one timing, finite and > 0 (kernel_ms %g, clock %d)",
              tb.kernel_ms, (int)tb.clock);
    }
    gh_gemm_timing t0 = {.size = sizeof t0, .kernel_ms = -1, .clock = (gh_clock)99};
    conf_expect(c, "batch.refuse_zero", api->gemm_batch_async(c->ctx, stream, kernel, &batched.args, 0, &t0),
                GH_INVALID_ARGUMENT, "gemm_batch_async with n = 0");
    gh_status s5 = api->stream_synchronize(c->ctx, stream);
    CHECK(s5 == GH_OK && t0.kernel_ms == -1 && t0.clock == (gh_clock)99,
          "batch.refusals_queue_nothing: the refused batch queued nothing: its timing is untouched after "
          "stream_synchronize (%s, kernel_ms %g)",
          conf_outcome(c, s5), t0.kernel_ms);
    free(c_batch);
    free(c_blocking);
    gemm_setup_free(c, &blocking);
    gemm_setup_free(c, &batched);
}

void conf_check_batch(const conformance *c, int device)
{
    gh_stream *stream = NULL;
    gh_status st = c->api->stream_create(c->ctx, device, &stream);
    if (!CHECK(st == GH_OK && stream, "batch.stream: a stream on device %d (%s)", device, conf_outcome(c, st))) return;
    for (int k = 0; k < c->n_kernels; k++) {
        const gh_kernel_info *ki = c->api->kernel_info(c->ctx, k);
        if (!ki || ki->n_params > MAX_PARAMS) continue;
        const gh_dtype d = gemm_case_first_dtype(ki);
        check_kernel(c, device, stream, k, ki, d);
    }
    c->api->stream_destroy(c->ctx, stream);
}
