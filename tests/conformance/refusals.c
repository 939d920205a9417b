/* gemm's refusals, one defect at a time from a request that runs: the
 * malformed ones are GH_INVALID_ARGUMENT, what the kernel or device cannot do
 * GH_UNSUPPORTED; none of them writes C. Then the parameter rules per kernel,
 * and a leading dimension over 32 bits (accepted, or GH_UNSUPPORTED). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_case.h"

/* A request that runs on this device: the first kernel x dtype (f32 first)
 * whose 4x4x4 gemm succeeds. */
static int find_baseline(const conformance *c, int device, gemm_setup *s, int *kernel, char *why, size_t size)
{
    static const gh_dtype order[] = {GH_F32, GH_F64, GH_I32};
    snprintf(why, size, "no kernel x dtype ran a 4x4x4 gemm");
    for (int k = 0; k < c->n_kernels; k++) {
        const gh_kernel_info *ki = c->api->kernel_info(c->ctx, k);
        if (!ki || ki->n_params > MAX_PARAMS) continue;
        for (int i = 0; i < 3; i++) {
            if (!(ki->dtypes & GH_DTYPE_BIT(order[i]))) continue;
            gemm_case gc = {order[i], 0, 0, 4, 4, 4, 1, order[i] == GH_I32 ? 2 : 0.5};
            const char *step = "";
            gh_status st = gemm_setup_make(c, device, ki, &gc, 11, s, &step);
            gh_gemm_timing t = {.size = sizeof t, .clock = GH_CLOCK_DEVICE};
            if (st == GH_OK) st = c->api->gemm(c->ctx, device, k, &s->args, &t);
            if (st == GH_OK && placed_upload(c, &s->c) == GH_OK) { /* C as it was, for "writes nothing" */
                *kernel = k;
                return 1;
            }
            snprintf(why, size, "kernel %s %s: %s: %s", ki->name, dtype_name(order[i]), conf_status_name(st),
                     conf_error(c));
            gemm_setup_free(c, s);
        }
    }
    return 0;
}

static gh_status run(const conformance *c, int device, int kernel, const gh_gemm_args *args)
{
    gh_gemm_timing t = {.size = sizeof t, .clock = GH_CLOCK_DEVICE};
    return c->api->gemm(c->ctx, device, kernel, args, &t);
}

/* Each malformed variation of the baseline: GH_INVALID_ARGUMENT. */
static void check_malformed(const conformance *c, int device, int kernel, const gemm_setup *s)
{
    const gh_gemm_args base = s->args;
    gh_gemm_args g;
    const gh_status bad = GH_INVALID_ARGUMENT;
#define REFUSE(id, what, change)                                   \
    do {                                                           \
        g = base;                                                  \
        change;                                                    \
        conf_expect(c, id, run(c, device, kernel, &g), bad, what); \
    } while (0)

    conf_expect(c, "gemm.refuse.args_null", run(c, device, kernel, NULL), bad, "args NULL");
    REFUSE("gemm.refuse.short_args", "args.size not covering n_params", g.size = offsetof(gh_gemm_args, n_params));
    REFUSE("gemm.refuse.dtype", "dtype 99 (not a gh_dtype)", g.dtype = (gh_dtype)99);
    REFUSE("gemm.refuse.trans", "trans_a = 2", g.trans_a = 2);
    REFUSE("gemm.refuse.trans", "trans_b = -1", g.trans_b = -1);
    REFUSE("gemm.refuse.size", "m = 0", g.m = 0);
    REFUSE("gemm.refuse.size", "n = 0", g.n = 0);
    REFUSE("gemm.refuse.size", "k = 0", g.k = 0);
    REFUSE("gemm.refuse.size", "m = -3", g.m = -3);
    REFUSE("gemm.refuse.ld", "lda below A's row length", g.lda = base.k - 1);
    REFUSE("gemm.refuse.ld", "ldb below B's row length", g.ldb = base.n - 1);
    REFUSE("gemm.refuse.ld", "ldc below C's row length", g.ldc = base.n - 1);
    REFUSE("gemm.refuse.null_buffer", "buffer A NULL", g.a = NULL);
    REFUSE("gemm.refuse.null_buffer", "buffer B NULL", g.b = NULL);
    REFUSE("gemm.refuse.null_buffer", "buffer C NULL", g.c = NULL);
    REFUSE("gemm.refuse.past_end", "A's last element past its buffer", g.a_offset = s->a.elements - 1);
    REFUSE("gemm.refuse.past_end", "B's last element past its buffer", g.b_offset = s->b.elements - 1);
    REFUSE("gemm.refuse.past_end", "C's last row past its buffer", g.c_offset = base.c_offset + 6);
    REFUSE("gemm.refuse.past_end", "C's offset + extent wrapping around 2^64", g.c_offset = UINT64_MAX - 2);
    REFUSE("gemm.refuse.i32_alpha", "i32 with alpha 0.5", (g.dtype = GH_I32, g.alpha = 0.5));
#undef REFUSE
    conf_expect(c, "gemm.refuse.device", run(c, -1, kernel, &base), bad, "device -1");
    char what[96];
    snprintf(what, sizeof what, "device %d (past the last)", c->n_devices);
    conf_expect(c, "gemm.refuse.device", run(c, c->n_devices, kernel, &base), bad, what);
    conf_expect(c, "gemm.refuse.kernel", run(c, device, -1, &base), bad, "kernel -1");
    snprintf(what, sizeof what, "kernel %d (past the last)", c->n_kernels);
    conf_expect(c, "gemm.refuse.kernel", run(c, device, c->n_kernels, &base), bad, what);
}

/* C on another device than the gemm's. */
static void check_other_device(const conformance *c, int device, int kernel, const gemm_setup *s)
{
    if (c->n_devices < 2) {
        check_skip("gemm.refuse.other_device: one device only");
        return;
    }
    const int other = (device + 1) % c->n_devices;
    gh_buffer *foreign = NULL;
    gh_status st = c->api->buffer_alloc(c->ctx, other, s->c.elements * s->c.elem, &foreign);
    if (st != GH_OK) {
        check_skip("gemm.refuse.other_device: no buffer on device %d: %s", other, conf_error(c));
        return;
    }
    gh_gemm_args g = s->args;
    g.c = foreign;
    char what[96];
    snprintf(what, sizeof what, "C allocated on device %d, gemm on device %d", other, device);
    conf_expect(c, "gemm.refuse.other_device", run(c, device, kernel, &g), GH_INVALID_ARGUMENT, what);
    c->api->buffer_free(c->ctx, foreign);
}

/* A value the parameter does not allow. */
static int64_t disallowed_value(const gh_param_info *p)
{
    if (p->n_allowed == 0) return p->max_value < INT64_MAX ? p->max_value + 1 : p->min_value - 1;
    static const int64_t candidates[] = {7, 3, 5, 1000003, -1};
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
        int allowed = 0;
        for (size_t a = 0; a < p->n_allowed; a++) allowed |= p->allowed[a] == candidates[i];
        if (!allowed) return candidates[i];
    }
    return INT64_MIN;
}

/* n_params exactly the kernel's, params non-NULL, values allowed. */
static void check_params(const conformance *c, int device)
{
    for (int k = 0; k < c->n_kernels; k++) {
        const gh_kernel_info *ki = c->api->kernel_info(c->ctx, k);
        if (!ki || ki->n_params + 1 > MAX_PARAMS) continue;
        const gh_dtype d = gemm_case_first_dtype(ki);
        gemm_case gc = {d, 0, 0, 4, 4, 4, 1, 0};
        gemm_setup s;
        const char *step = "";
        if (gemm_setup_make(c, device, ki, &gc, 13, &s, &step) != GH_OK) {
            check_skip("params: kernel %s: %s failed: %s", ki->name, step, conf_error(c));
            gemm_setup_free(c, &s);
            continue;
        }
        char what[256];
        gh_gemm_args g = s.args;
        if (ki->n_params > 0) {
            g.n_params = ki->n_params - 1;
            snprintf(what, sizeof what, "kernel %s (%zu params) given %zu", ki->name, ki->n_params, g.n_params);
            conf_expect(c, "params.short", run(c, device, k, &g), GH_INVALID_ARGUMENT, what);
            g = s.args;
            g.params = NULL;
            snprintf(what, sizeof what, "kernel %s: n_params %zu with params NULL", ki->name, ki->n_params);
            conf_expect(c, "params.null", run(c, device, k, &g), GH_INVALID_ARGUMENT, what);
            for (size_t p = 0; p < ki->n_params; p++) {
                g = s.args;
                const int64_t value = disallowed_value(&ki->params[p]);
                s.params[p] = value;
                g.params = s.params;
                snprintf(what, sizeof what, "kernel %s: %s = %lld", ki->name, ki->params[p].name, (long long)value);
                gh_status st = run(c, device, k, &g);
                s.params[p] = ki->params[p].default_value;
                if (conf_expect(c, "params.disallowed", st, GH_INVALID_ARGUMENT, what)) {
                    char number[32];
                    snprintf(number, sizeof number, "%lld", (long long)value);
                    const char *e = conf_error(c);
                    CHECK(strstr(e, ki->params[p].name) && strstr(e, number),
                          "params.disallowed_named: the refusal names %s and %s (\"%s\")", ki->params[p].name, number,
                          e);
                }
            }
        }
        g = s.args;
        s.params[ki->n_params] = ki->n_params ? ki->params[0].default_value : 1;
        g.params = s.params;
        g.n_params = ki->n_params + 1;
        snprintf(what, sizeof what, "kernel %s (%zu params) given %zu", ki->name, ki->n_params, g.n_params);
        conf_expect(c, "params.long", run(c, device, k, &g), GH_INVALID_ARGUMENT, what);
        gemm_setup_free(c, &s);
    }
}

/* What the kernel or device cannot do: GH_UNSUPPORTED. */
static void check_unsupported(const conformance *c, int device)
{
    const gh_device_info *di = c->api->device_info(c->ctx, device);
    int tested_mask = 0, tested_fp64 = 0;
    for (int k = 0; k < c->n_kernels; k++) {
        const gh_kernel_info *ki = c->api->kernel_info(c->ctx, k);
        if (!ki || ki->n_params > MAX_PARAMS) continue;
        for (int d = 0; d < GH_DTYPE_COUNT; d++) {
            const int in_mask = (ki->dtypes & GH_DTYPE_BIT(d)) != 0;
            const int no_fp64 = d == GH_F64 && in_mask && di && !di->has_fp64;
            if ((in_mask && !no_fp64) || (!in_mask && tested_mask) || (no_fp64 && tested_fp64)) continue;
            gemm_case gc = {(gh_dtype)d, 0, 0, 4, 4, 4, 1, 0};
            gemm_setup s;
            const char *step = "";
            if (gemm_setup_make(c, device, ki, &gc, 17, &s, &step) == GH_OK) {
                char what[160];
                snprintf(what, sizeof what, "kernel %s with %s, %s", ki->name, dtype_name((gh_dtype)d),
                         no_fp64 ? "on a device without fp64" : "not in its dtype mask");
                conf_expect(c, no_fp64 ? "gemm.unsupported.fp64" : "gemm.unsupported.dtype", run(c, device, k, &s.args),
                            GH_UNSUPPORTED, what);
                tested_mask |= !in_mask;
                tested_fp64 |= no_fp64;
            }
            gemm_setup_free(c, &s);
        }
    }
    if (!tested_mask) check_skip("gemm.unsupported.dtype: every kernel implements every dtype");
}

/* m = n = k = 1 with leading dimensions over 32 bits: a well-formed request
 * (one row each) that a plugin indexing with 32 bits may refuse as
 * GH_UNSUPPORTED; one that runs must get it right. */
static void check_index_range(const conformance *c, int device, int kernel, const gemm_setup *s)
{
    gh_gemm_args g = s->args;
    g.m = g.n = g.k = 1;
    g.lda = g.ldb = g.ldc = ((int64_t)1 << 33) + 1;
    gh_status st = run(c, device, kernel, &g);
    if (!conf_expect2(c, "gemm.index_range", st, GH_OK, GH_UNSUPPORTED, "1x1x1 with leading dimensions 2^33 + 1") ||
        st != GH_OK)
        return;
    unsigned char got[16];
    st = c->api->download(c->ctx, s->c.buf, s->c.offset * s->c.elem, got, s->c.elem);
    const double a = placed_get(&s->a, s->a.image, s->a.offset), b = placed_get(&s->b, s->b.image, s->b.offset);
    const double c0 = placed_get(&s->c, s->c.image, s->c.offset);
    const double want = g.alpha * a * b + g.beta * c0;
    placed one = s->c; /* C's first element, read from got[] */
    const double value = placed_get(&one, got, 0);
    const double bound = conf_bound(&s->arith, 1, want, fabs(g.alpha * a * b) + fabs(g.beta * c0));
    CHECK(st == GH_OK && fabs(value - want) <= bound,
          "gemm.index_range: ... and when it runs, C(0,0) = %g is right (%g, bound %.3g)", value, want, bound);
    placed_upload(c, &s->c); /* as it was, for the next checks */
}

void conf_check_refusals(const conformance *c, int device)
{
    gemm_setup s;
    int kernel = -1;
    char why[512];
    if (!find_baseline(c, device, &s, &kernel, why, sizeof why)) {
        check_skip("gemm.refuse: device %d: no request runs to vary: %s", device, why);
    } else {
        check_malformed(c, device, kernel, &s);
        check_other_device(c, device, kernel, &s);
        unsigned char *now = malloc(s.c.elements * s.c.elem);
        gh_status st = now ? placed_download(c, &s.c, now) : GH_OUT_OF_MEMORY;
        CHECK(st == GH_OK && memcmp(now, s.c.image, s.c.elements * s.c.elem) == 0,
              "gemm.refusals_write_nothing: device %d: C's buffer is as it was after every refusal", device);
        free(now);
        check_index_range(c, device, kernel, &s);
        gemm_setup_free(c, &s);
    }
    check_params(c, device);
    check_unsupported(c, device);
}
