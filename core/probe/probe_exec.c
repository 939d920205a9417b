/* One probe case through a plugin; see probe_exec.h. */
#include "probe_exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data.h"
#include "proxy.h"
#include "util.h"

const char *probe_outcome_name(probe_outcome_kind k)
{
    switch (k) {
    case PROBE_RAN: return "ran";
    case PROBE_UNSUPPORTED: return "unsupported";
    case PROBE_ERROR: return "error";
    case PROBE_CRASHED: return "crashed";
    case PROBE_TIMEOUT: return "timeout";
    }
    return "?";
}

/* A failed call: the worker's fate when it died, else the plugin's words. */
static void failed(const probe_target *t, const char *call, gh_status s, probe_outcome *out)
{
    gh_fate fate;
    if (gh_proxy_take_fate(t->api, t->ctx, &fate)) {
        out->kind = fate.kind == GH_FATE_TIMEOUT ? PROBE_TIMEOUT : PROBE_CRASHED;
        snprintf(out->detail, sizeof out->detail, "%.600s%s%.1200s", fate.what,
                 fate.tail[0] ? "; its stderr ended with: " : "", fate.tail);
        for (char *p = out->detail; *p; p++) /* one line in the table */
            if (*p == '\n') *p = ' ';
        return;
    }
    const char *why = t->api->last_error(t->ctx);
    out->kind = s == GH_UNSUPPORTED ? PROBE_UNSUPPORTED : PROBE_ERROR;
    if (!why || !*why) why = "(no reason given)";
    /* plugins name the call themselves ("gemm: ..."): not twice */
    const int named = strncmp(why, call, strlen(call)) == 0 && why[strlen(call)] == ':';
    snprintf(out->detail, sizeof out->detail, "%s%s%s", named ? "" : call, named ? "" : ": ", why);
}

/* rows x cols of values (row-major, rows x cols; NULL: zeros) into a
 * matrix of at least that size, zeros beyond; transposed: stored as its
 * transpose. */
static int fill(gh_matrix *m, gh_dtype d, int64_t rows, int64_t cols, int64_t stored_rows, int64_t stored_cols,
                const double *values, int transposed)
{
    if (gh_matrix_alloc(m, d, stored_rows, stored_cols, stored_cols, 0) != 0) return -1;
    for (int64_t i = 0; i < stored_rows; i++)
        for (int64_t j = 0; j < stored_cols; j++) gh_matrix_set(m, i, j, 0.0);
    if (values)
        for (int64_t i = 0; i < rows; i++)
            for (int64_t j = 0; j < cols; j++) {
                if (transposed) gh_matrix_set(m, j, i, values[i * cols + j]);
                else gh_matrix_set(m, i, j, values[i * cols + j]);
            }
    return 0;
}

static int64_t round_up_16(int64_t v)
{
    return (v + 15) / 16 * 16;
}

/* Allocates a buffer and uploads m into it. */
static gh_status place(const probe_target *t, const gh_matrix *m, gh_buffer **buf)
{
    const uint64_t bytes = gh_matrix_storage_bytes(m);
    gh_status s = t->api->buffer_alloc(t->ctx, t->device, bytes, buf);
    if (s != GH_OK) {
        *buf = NULL;
        return s;
    }
    return t->api->upload(t->ctx, *buf, 0, m->storage, bytes);
}

void probe_exec(const probe_target *t, const probe_case *c, int kmajor, probe_outcome *out)
{
    memset(out, 0, sizeof *out);
    gh_matrix a = {0}, b = {0}, cm = {0};
    gh_buffer *ba = NULL, *bb = NULL, *bc = NULL;
    /* K-major: B stored as its transpose (nt), every edge padded with zeros
     * to a multiple of 16, so rows are whole 16 bytes; the zeros after the
     * case's K add nothing to a sum */
    const int64_t m = kmajor ? round_up_16(c->m) : c->m, n = kmajor ? round_up_16(c->n) : c->n,
                  k = kmajor ? round_up_16(c->k) : c->k;
    if (fill(&a, c->dtype, c->m, c->k, m, k, c->a, 0) ||
        fill(&b, c->b_dtype, c->k, c->n, kmajor ? n : k, kmajor ? k : n, c->b, kmajor) ||
        fill(&cm, c->c_dtype, c->m, c->n, m, n, NULL, 0)) {
        out->kind = PROBE_ERROR;
        snprintf(out->detail, sizeof out->detail, "out of host memory");
        goto done;
    }
    gh_status s;
    const char *call = "upload";
    if ((s = place(t, &a, &ba)) != GH_OK || (s = place(t, &b, &bb)) != GH_OK || (s = place(t, &cm, &bc)) != GH_OK) {
        failed(t, call, s, out);
        goto done;
    }
    gh_gemm_args args = {
        .size = sizeof args,
        .dtype = c->dtype,
        .m = m,
        .n = n,
        .k = k,
        .alpha = 1.0,
        .beta = 0.0,
        .trans_b = kmajor,
        .lda = k,
        .ldb = kmajor ? k : n,
        .ldc = n,
        .a = ba,
        .b = bb,
        .c = bc,
        .params = t->params,
        .n_params = t->n_params,
        .explicit_types = c->b_dtype != c->dtype || c->c_dtype != c->dtype,
        .b_dtype = c->b_dtype,
        .c_dtype = c->c_dtype,
        .scale_a = c->scale_a,
        .scale_b = c->scale_b,
        .scale_c = c->scale_c,
    };
    gh_gemm_timing timing = {.size = sizeof timing};
    if ((s = t->api->gemm(t->ctx, t->device, t->kernel, &args, &timing)) != GH_OK) {
        failed(t, "gemm", s, out);
        goto done;
    }
    if ((s = t->api->download(t->ctx, bc, 0, cm.storage, gh_matrix_storage_bytes(&cm))) != GH_OK) {
        failed(t, "download", s, out);
        goto done;
    }
    out->kind = PROBE_RAN;
    out->c = gh_xcalloc((size_t)(c->m * c->n), sizeof *out->c);
    for (int64_t i = 0; i < c->m; i++)
        for (int64_t j = 0; j < c->n; j++) out->c[i * c->n + j] = gh_matrix_get(&cm, i, j);
done:
    /* after a crash the proxy only drops its handles: the worker is gone */
    if (ba) t->api->buffer_free(t->ctx, ba);
    if (bb) t->api->buffer_free(t->ctx, bb);
    if (bc) t->api->buffer_free(t->ctx, bc);
    gh_matrix_free(&a);
    gh_matrix_free(&b);
    gh_matrix_free(&cm);
}

void probe_outcome_free(probe_outcome *out)
{
    free(out->c);
    out->c = NULL;
}
