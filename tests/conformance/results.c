/* Every kernel x dtype at its default parameters, on small odd shapes, each
 * transpose, alpha and beta non-trivial and beta 0 over a NaN C: the result
 * against an f64 host loop, no NaN read from C, nothing written outside C's
 * window, A and B untouched, and the timing written. */
#include <stdio.h>
#include <string.h>

#include "gemm_case.h"

static const int64_t shapes[][3] = {{1, 1, 1}, {7, 5, 3}, {33, 18, 21}};
#define N_SHAPES (sizeof shapes / sizeof shapes[0])

typedef struct timing_tally {
    int runs;
    char bad[256]; /* the first gemm whose timing broke the rule */
} timing_tally;

/* Runs one case; returns its status (GH_UNSUPPORTED is reported by the
 * caller, anything else not OK lands in v->result). */
static gh_status run_case(const conformance *c, int device, int kernel, const gh_kernel_info *ki, const gemm_case *gc,
                          uint64_t seed, gemm_verdict *v, timing_tally *tt, char *why, size_t why_size)
{
    gemm_setup s;
    const char *step = "";
    char text[160];
    gemm_case_text(gc, text, sizeof text);
    gh_status st = gemm_setup_make(c, device, ki, gc, seed, &s, &step);
    if (st != GH_OK) {
        if (!v->result[0])
            snprintf(v->result, sizeof v->result, "%s: %s: %s: %s", text, step, conf_status_name(st), conf_error(c));
        gemm_setup_free(c, &s);
        return st;
    }
    gh_gemm_timing timing = {.size = sizeof timing, .kernel_ms = -1, .clock = (gh_clock)99};
    st = c->api->gemm(c->ctx, device, kernel, &s.args, &timing);
    if (st == GH_UNSUPPORTED) {
        snprintf(why, why_size, "%s: %s", text, conf_error(c));
    } else if (st != GH_OK) {
        if (!v->result[0])
            snprintf(v->result, sizeof v->result, "%s: gemm: %s: %s", text, conf_status_name(st), conf_error(c));
    } else {
        gemm_verify(c, &s, v);
        tt->runs++;
        if (!tt->bad[0] &&
            !(timing.kernel_ms >= 0 && (timing.clock == GH_CLOCK_DEVICE || timing.clock == GH_CLOCK_HOST)))
            snprintf(tt->bad, sizeof tt->bad, "kernel %s %s: kernel_ms %g, clock %d", ki->name, text, timing.kernel_ms,
                     (int)timing.clock);
    }
    gemm_setup_free(c, &s);
    return st;
}

/* One kernel x dtype over every shape and transpose; returns how many ran. */
static int check_kernel_dtype(const conformance *c, int device, int kernel, const gh_kernel_info *ki, gh_dtype d,
                              timing_tally *tt)
{
    gemm_verdict v;
    memset(&v, 0, sizeof v);
    char unsupported[512] = "";
    int ran = 0, cases = 0;
    const double alpha = d == GH_I32 ? 2 : 1.5, beta = d == GH_I32 ? -3 : -0.5;
    for (size_t sh = 0; sh < N_SHAPES; sh++)
        for (int t = 0; t < 4; t++)
            for (int b0 = 0; b0 < 2; b0++) {
                gemm_case gc = {d, t & 1, t >> 1, shapes[sh][0], shapes[sh][1], shapes[sh][2], alpha, b0 ? 0 : beta};
                char why[512] = "";
                uint64_t seed =
                    0x9e3779b97f4a7c15ull ^ (uint64_t)(kernel * 131 + (int)d * 17 + (int)sh * 5 + t * 2 + b0);
                gh_status st = run_case(c, device, kernel, ki, &gc, seed, &v, tt, why, sizeof why);
                cases++;
                ran += st == GH_OK;
                if (st == GH_UNSUPPORTED && !unsupported[0]) snprintf(unsupported, sizeof unsupported, "%s", why);
            }
    const char *k = ki->name;
    const char *dn = dtype_name(d);
    if (ran == 0 && unsupported[0]) {
        check_skip("gemm: device %d kernel %s %s: GH_UNSUPPORTED at default parameters: %s", device, k, dn,
                   unsupported);
        return 0;
    }
    if (unsupported[0])
        check_note("gemm: device %d kernel %s %s: %d of %d cases GH_UNSUPPORTED, e.g. %s", device, k, dn, cases - ran,
                   cases, unsupported);
    CHECK(!v.result[0],
          "gemm.result: device %d kernel %s %s: %d cases (nn/tn/nt/tt x %zu shapes x beta %g and 0) "
          "match the f64 host loop%s%s",
          device, k, dn, ran, N_SHAPES, beta, v.result[0] ? ": " : "", v.result);
    if (d != GH_I32)
        CHECK(!v.nan[0],
              "gemm.beta0_nan: device %d kernel %s %s: with beta 0 and C filled with NaN, no NaN in the "
              "output%s%s",
              device, k, dn, v.nan[0] ? ": " : "", v.nan);
    CHECK(!v.guard[0], "gemm.c_guard: device %d kernel %s %s: nothing outside C's window changed%s%s", device, k, dn,
          v.guard[0] ? ": " : "", v.guard);
    CHECK(!v.untouched[0], "gemm.a_b_untouched: device %d kernel %s %s: A's and B's buffers unchanged%s%s", device, k,
          dn, v.untouched[0] ? ": " : "", v.untouched);
    return ran;
}

/* A timing whose size covers no member must come back as it went. */
static void check_timing_size(const conformance *c, int device, int kernel, const gh_kernel_info *ki, gh_dtype d)
{
    gemm_case gc = {d, 0, 0, 3, 2, 4, 1, 0};
    gemm_setup s;
    const char *step = "";
    gh_status st = gemm_setup_make(c, device, ki, &gc, 7, &s, &step);
    if (st == GH_OK) {
        gh_gemm_timing timing = {.size = sizeof(size_t), .kernel_ms = -7, .clock = (gh_clock)99};
        st = c->api->gemm(c->ctx, device, kernel, &s.args, &timing);
        CHECK(st == GH_OK && timing.kernel_ms == -7 && timing.clock == (gh_clock)99,
              "gemm.timing_size: a timing whose size covers no member is left alone (%s, kernel_ms %g, clock %d)",
              conf_status_name(st), timing.kernel_ms, (int)timing.clock);
    } else {
        check_verdict(0, "gemm.timing_size: %s: %s: %s", step, conf_status_name(st), conf_error(c));
    }
    gemm_setup_free(c, &s);
}

void conf_check_results(const conformance *c, int device)
{
    timing_tally tt = {0};
    int total = 0, first_kernel = -1;
    gh_dtype first_dtype = GH_F32;
    for (int kernel = 0; kernel < c->n_kernels; kernel++) {
        const gh_kernel_info *ki = c->api->kernel_info(c->ctx, kernel);
        if (!ki || ki->n_params > MAX_PARAMS) continue;
        for (int d = 0; d < GH_DTYPE_COUNT; d++) {
            if (!(ki->dtypes & GH_DTYPE_BIT(d))) continue;
            int ran = check_kernel_dtype(c, device, kernel, ki, (gh_dtype)d, &tt);
            if (ran && first_kernel < 0) {
                first_kernel = kernel;
                first_dtype = (gh_dtype)d;
            }
            total += ran;
        }
    }
    if (!CHECK(total > 0,
               "gemm.runs: device %d: at least one kernel x dtype runs at its default parameters (%d "
               "gemms ran)",
               device, total))
        return;
    CHECK(!tt.bad[0], "gemm.timing: device %d: every successful gemm wrote kernel_ms >= 0 and a gh_clock (%d runs)%s%s",
          device, tt.runs, tt.bad[0] ? ": " : "", tt.bad);
    check_timing_size(c, device, first_kernel, c->api->kernel_info(c->ctx, first_kernel), first_dtype);
}
