/* ABI 1.5's type combinations (plugin.h, gh_type_combo and gh_gemm_args'
 * explicit_types): each kernel's list well-formed, every listed 8-bit
 * combination computing exactly on small integers (with scales and beta),
 * and the refusals: an unlisted combination GH_UNSUPPORTED, a bad scale or
 * explicit_types other than 0 or 1 GH_INVALID_ARGUMENT. Only with a plugin
 * that answered minor >= 5: an older one never sees these members. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemmhost/fp8.h"
#include "gemmhost/half.h"
#include "gemm_case.h"

/* nt with every edge 32: the layout every kernel takes (cuBLASLt's 8-bit
 * GEMMs and wgmma's FP8 want K-major B and rows in whole 16 bytes). */
#define M 32
#define N 32
#define K 32

/* The combos the host reads: minor >= 5 and the info's size covering them. */
static size_t combos_of(const conformance *c, const gh_kernel_info *ki, const gh_type_combo **out)
{
    *out = NULL;
    if (c->minor < 5 || !ki || !GH_HAS_MEMBER(ki, gh_kernel_info, n_combos)) return 0;
    *out = ki->combos;
    return ki->n_combos;
}

/* The first problem of entry i, or NULL. */
static const char *combo_problem(const gh_type_combo *all, size_t i, char *why, size_t size)
{
    const gh_type_combo *cb = &all[i];
    if (!GH_HAS_MEMBER(cb, gh_type_combo, promote_every))
        snprintf(why, size, "its size %zu does not cover promote_every (%zu)", cb->size, sizeof *cb);
    else if ((unsigned)cb->a >= GH_DTYPE_COUNT || (unsigned)cb->b >= GH_DTYPE_COUNT ||
             (unsigned)cb->c >= GH_DTYPE_COUNT)
        snprintf(why, size, "a type outside gh_dtype (A %d, B %d, C %d)", (int)cb->a, (int)cb->b, (int)cb->c);
    else if ((unsigned)cb->inputs > GH_PREC_TF32_TRUNCATED || (unsigned)cb->accumulate > GH_PREC_TF32_TRUNCATED)
        snprintf(why, size, "a precision outside gh_precision (inputs %d, accumulate %d)", (int)cb->inputs,
                 (int)cb->accumulate);
    else if (cb->promote_every && !cb->accumulate_bits)
        snprintf(why, size, "promote_every %u without accumulate_bits", cb->promote_every);
    else {
        for (size_t j = 0; j < i; j++)
            if (all[j].a == cb->a && all[j].b == cb->b && all[j].c == cb->c) {
                snprintf(why, size, "the same (A, B, C) as entry %zu", j);
                return why;
            }
        return NULL;
    }
    return why;
}

void conf_check_combos_info(const conformance *c)
{
    if (c->minor < 5) {
        check_skip("kernels.combos: the plugin answered minor %u: no type combinations", c->minor);
        return;
    }
    for (int k = 0; k < c->n_kernels; k++) {
        const gh_kernel_info *ki = c->api->kernel_info(c->ctx, k);
        const gh_type_combo *combos;
        const size_t n = combos_of(c, ki, &combos);
        if (!ki || !n) continue;
        if (!CHECK(combos != NULL, "kernels.combos: kernel %s: n_combos %zu with combos NULL", ki->name, n)) continue;
        for (size_t i = 0; i < n; i++) {
            char why[160];
            const char *problem = combo_problem(combos, i, why, sizeof why);
            CHECK(!problem, "kernels.combos: kernel %s: combos[%zu] well-formed%s%s", ki->name, i, problem ? ": " : "",
                  problem ? problem : "");
        }
    }
}

/* ---- one GEMM of given types on small integers ---- */

static int is_8bit(gh_dtype d)
{
    return d == GH_E4M3 || d == GH_E5M2 || d == GH_I8;
}

static size_t elem_size(gh_dtype d)
{
    return d == GH_F64 ? 8 : d == GH_F16 || d == GH_BF16 ? 2 : is_8bit(d) ? 1 : 4;
}

static void put(gh_dtype d, unsigned char *buf, size_t i, double v)
{
    switch (d) {
    case GH_E4M3: buf[i] = gh_f64_to_e4m3(v); break;
    case GH_E5M2: buf[i] = gh_f64_to_e5m2(v); break;
    case GH_I8: buf[i] = (unsigned char)(int8_t)v; break;
    /* memcpy: the buffers are byte arrays, not aligned for wider types */
    case GH_F16: {
        const uint16_t h = gh_f64_to_f16(v);
        memcpy(buf + i * 2, &h, 2);
        break;
    }
    case GH_BF16: {
        const uint16_t h = gh_f64_to_bf16(v);
        memcpy(buf + i * 2, &h, 2);
        break;
    }
    case GH_F32: {
        const float f = (float)v;
        memcpy(buf + i * 4, &f, 4);
        break;
    }
    case GH_F64: memcpy(buf + i * 8, &v, 8); break;
    case GH_I32: {
        const int32_t w = (int32_t)v;
        memcpy(buf + i * 4, &w, 4);
        break;
    }
    }
}

static double get(gh_dtype d, const unsigned char *buf, size_t i)
{
    uint16_t h;
    float f;
    double x;
    int32_t w;
    switch (d) {
    case GH_E4M3: return gh_e4m3_to_f64(buf[i]);
    case GH_E5M2: return gh_e5m2_to_f64(buf[i]);
    case GH_I8: return (int8_t)buf[i];
    case GH_F16: return gh_f16_to_f64((memcpy(&h, buf + i * 2, 2), h));
    case GH_BF16: return gh_bf16_to_f64((memcpy(&h, buf + i * 2, 2), h));
    case GH_F32: return (memcpy(&f, buf + i * 4, 4), f);
    case GH_F64: return (memcpy(&x, buf + i * 8, 8), x);
    case GH_I32: return (memcpy(&w, buf + i * 4, 4), w);
    }
    return NAN;
}

/* Row-major M x K A, N x K B (used transposed: nt), M x N C; every value a small integer, so
 * that the product is exact in every type and any accumulation of >= 8 bits. */
typedef struct combo_case {
    gh_buffer *a, *b, *c;
    unsigned char host_a[M * K], host_b[K * N], host_c[M * N * 8], got[M * N * 8];
    gh_gemm_args args;
} combo_case;

static void free_case(const conformance *c, combo_case *cc)
{
    c->api->buffer_free(c->ctx, cc->a);
    c->api->buffer_free(c->ctx, cc->b);
    c->api->buffer_free(c->ctx, cc->c);
    memset(cc, 0, sizeof *cc);
}

/* Allocates and uploads; args for (a, b, c) with explicit_types 1. */
static gh_status make_case(const conformance *c, int device, const gh_kernel_info *ki, gh_dtype a, gh_dtype b,
                           gh_dtype cd, combo_case *cc)
{
    memset(cc, 0, sizeof *cc);
    for (int i = 0; i < M * K; i++) put(a, cc->host_a, (size_t)i, (double)((i * 7 + 3) % 5 - 2));
    for (int i = 0; i < K * N; i++) put(b, cc->host_b, (size_t)i, (double)((i * 3 + 1) % 5 - 2));
    for (int i = 0; i < M * N; i++) put(cd, cc->host_c, (size_t)i, (double)((i * 3 + 2) % 7 - 3));
    const size_t bytes_c = (size_t)(M * N) * elem_size(cd);
    gh_status s;
    if ((s = c->api->buffer_alloc(c->ctx, device, M * K, &cc->a)) ||
        (s = c->api->buffer_alloc(c->ctx, device, K * N, &cc->b)) ||
        (s = c->api->buffer_alloc(c->ctx, device, bytes_c, &cc->c)) ||
        (s = c->api->upload(c->ctx, cc->a, 0, cc->host_a, M * K)) ||
        (s = c->api->upload(c->ctx, cc->b, 0, cc->host_b, K * N)) ||
        (s = c->api->upload(c->ctx, cc->c, 0, cc->host_c, bytes_c)))
        return s;
    static int64_t params[64];
    for (size_t p = 0; p < ki->n_params && p < 64; p++) params[p] = ki->params[p].default_value;
    const int fp8 = a != GH_I8;
    cc->args = (gh_gemm_args){.size = sizeof cc->args,
                              .dtype = a,
                              .m = M,
                              .n = N,
                              .k = K,
                              .alpha = 2,
                              .beta = 1,
                              .trans_b = 1,
                              .lda = K,
                              .ldb = K,
                              .ldc = N,
                              .a = cc->a,
                              .b = cc->b,
                              .c = cc->c,
                              .params = ki->n_params ? params : NULL,
                              .n_params = ki->n_params,
                              .explicit_types = 1,
                              .b_dtype = b,
                              .c_dtype = cd,
                              /* powers of two, 1 in all for i8 (an i32 C takes no scale) */
                              .scale_a = fp8 ? 0.5 : 1,
                              .scale_b = fp8 ? 4 : 1,
                              .scale_c = fp8 ? 0.5 : 1};
    return GH_OK;
}

static gh_status run(const conformance *c, int device, int kernel, const gh_gemm_args *g)
{
    gh_gemm_timing t = {.size = sizeof t, .clock = GH_CLOCK_DEVICE};
    return c->api->gemm(c->ctx, device, kernel, g, &t);
}

/* The listed combination computes exactly: C = scale_c (alpha scale_a scale_b A B + beta C0). */
static void check_combo_result(const conformance *c, int device, int kernel, const gh_kernel_info *ki,
                               const gh_type_combo *cb)
{
    char what[128];
    snprintf(what, sizeof what, "gemm.combo: kernel %s, A %s x B %s -> C %s", ki->name, dtype_name(cb->a),
             dtype_name(cb->b), dtype_name(cb->c));
    combo_case cc;
    gh_status s = make_case(c, device, ki, cb->a, cb->b, cb->c, &cc);
    if (s == GH_OK && (s = run(c, device, kernel, &cc.args)) == GH_UNSUPPORTED) {
        /* The kernel refuses this device (e.g. OpenCL mma off NVIDIA), as
         * the one-dtype checks allow at default parameters: a skip with its
         * reason, not a pass. */
        check_skip("%s: GH_UNSUPPORTED at default parameters: %s", what, conf_outcome(c, s));
        free_case(c, &cc);
        return;
    }
    if (s == GH_OK) s = c->api->download(c->ctx, cc.c, 0, cc.got, (uint64_t)(M * N) * elem_size(cb->c));
    if (!CHECK(s == GH_OK, "%s: runs (got %s)", what, conf_outcome(c, s))) {
        free_case(c, &cc);
        return;
    }
    const gh_gemm_args *g = &cc.args;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double sum = 0;
            for (int p = 0; p < K; p++)
                sum += get(cb->a, cc.host_a, (size_t)(i * K + p)) * get(cb->b, cc.host_b, (size_t)(j * K + p));
            const double want = g->scale_c * (g->alpha * g->scale_a * g->scale_b * sum +
                                              g->beta * get(cb->c, cc.host_c, (size_t)(i * N + j)));
            /* exact in f32; an f16 or bf16 C holds it rounded once, to nearest even */
            unsigned char stored[8];
            put(cb->c, stored, 0, want);
            const double want_stored = get(cb->c, stored, 0);
            const double got = get(cb->c, cc.got, (size_t)(i * N + j));
            if (got != want_stored) {
                CHECK(0, "%s: C[%d,%d] = %g, expected exactly %g (small integers, power-of-two scales)", what, i, j,
                      got, want_stored);
                free_case(c, &cc);
                return;
            }
        }
    CHECK(1, "%s: exact on small integers with scales and beta", what);
    free_case(c, &cc);
}

static int listed(const gh_type_combo *combos, size_t n, gh_dtype a, gh_dtype b, gh_dtype cd)
{
    for (size_t i = 0; i < n; i++)
        if (combos[i].a == a && combos[i].b == b && combos[i].c == cd) return 1;
    return 0;
}

/* explicit_types 2, a bad scale, an unlisted combination; on the first kernel. */
static void check_combo_refusals(const conformance *c, int device, const gh_kernel_info *ki,
                                 const gh_type_combo *combos, size_t n)
{
    static const gh_dtype cands[][3] = {{GH_E4M3, GH_E4M3, GH_F32}, {GH_E5M2, GH_E5M2, GH_F32},
                                        {GH_E4M3, GH_E5M2, GH_F32}, {GH_E5M2, GH_E4M3, GH_F32},
                                        {GH_I8, GH_I8, GH_I32},     {GH_E5M2, GH_E5M2, GH_BF16}};
    /* a listed combination for the malformed variations, else e4m3 -> f32 */
    const gh_dtype a = n ? combos[0].a : GH_E4M3, b = n ? combos[0].b : GH_E4M3, cd = n ? combos[0].c : GH_F32;
    combo_case cc;
    gh_status s = make_case(c, device, ki, a, b, cd, &cc);
    if (!CHECK(s == GH_OK, "gemm.refuse.types: buffers for kernel %s (got %s)", ki->name, conf_outcome(c, s))) {
        free_case(c, &cc);
        return;
    }
    gh_gemm_args g = cc.args;
    g.explicit_types = 2;
    conf_expect(c, "gemm.refuse.explicit_types", run(c, device, 0, &g), GH_INVALID_ARGUMENT, "explicit_types 2");
    g = cc.args;
    g.explicit_types = -1;
    conf_expect(c, "gemm.refuse.explicit_types", run(c, device, 0, &g), GH_INVALID_ARGUMENT, "explicit_types -1");
    const double bad[] = {0, -1, NAN, INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char what[64];
        g = cc.args;
        if (g.c_dtype == GH_I32) g.scale_a = g.scale_b = g.scale_c = 1;
        double *scale = i % 3 == 0 ? &g.scale_a : i % 3 == 1 ? &g.scale_b : &g.scale_c;
        *scale = bad[i];
        snprintf(what, sizeof what, "scale_%c = %g", "abc"[i % 3], bad[i]);
        conf_expect(c, "gemm.refuse.scale", run(c, device, 0, &g), GH_INVALID_ARGUMENT, what);
    }
    free_case(c, &cc);
    for (size_t i = 0; i < sizeof cands / sizeof cands[0]; i++) {
        if (listed(combos, n, cands[i][0], cands[i][1], cands[i][2])) continue;
        s = make_case(c, device, ki, cands[i][0], cands[i][1], cands[i][2], &cc);
        if (s == GH_OK) {
            char what[96];
            snprintf(what, sizeof what, "A %s x B %s -> C %s, which kernel %s does not list", dtype_name(cands[i][0]),
                     dtype_name(cands[i][1]), dtype_name(cands[i][2]), ki->name);
            conf_expect(c, "gemm.refuse.combo_unlisted", run(c, device, 0, &cc.args), GH_UNSUPPORTED, what);
        }
        free_case(c, &cc);
        return;
    }
    check_skip("gemm.refuse.combo_unlisted: kernel %s lists every combination tried", ki->name);
}

void conf_check_combos(const conformance *c, int device)
{
    if (c->minor < 5) {
        check_skip("gemm.combo: device %d: the plugin answered minor %u: no explicit types", device, c->minor);
        return;
    }
    for (int k = 0; k < c->n_kernels; k++) {
        const gh_kernel_info *ki = c->api->kernel_info(c->ctx, k);
        if (!ki || ki->n_params > 64) continue;
        const gh_type_combo *combos;
        const size_t n = combos_of(c, ki, &combos);
        if (k == 0) check_combo_refusals(c, device, ki, combos, n);
        for (size_t i = 0; combos && i < n; i++) {
            char why[160];
            if (combo_problem(combos, i, why, sizeof why)) continue;      /* kernels.combos says why */
            if (!is_8bit(combos[i].a) || !is_8bit(combos[i].b)) continue; /* the other groups cover one type */
            check_combo_result(c, device, k, ki, &combos[i]);
        }
    }
}
