/* f16 and bf16: the feature they need, and the store's rounding bit for bit. */
#include "half_checks.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "gemm_args.h"
#include "gemmhost/half.h"

#define FEATURE "storageBuffer16BitAccess"

/* The kernel's default parameter values into c. */
static void defaults(const plugin *pl, int kernel, gemm_case *c)
{
    const gh_kernel_info *k = pl->api->kernel_info(pl->ctx, kernel);
    c->kernel = kernel;
    c->n_params = k->n_params < MAX_PARAMS ? k->n_params : MAX_PARAMS;
    for (size_t i = 0; i < c->n_params; i++) c->params[i] = k->params[i].default_value;
}

static int kernel_named(const plugin *pl, const char *name)
{
    for (int k = 0; k < pl->api->kernel_count(pl->ctx); k++)
        if (strcmp(pl->api->kernel_info(pl->ctx, k)->name, name) == 0) return k;
    return -1;
}

int half_supported(const plugin *pl, int device)
{
    const gh_device_info *info = pl->api->device_info(pl->ctx, device);
    gemm_case c = {.device = device};
    defaults(pl, 0, &c);
    const int64_t shape[3] = {1, 1, 1};
    make_problem(&c.p, GH_F16, 0, 0, shape, &scenarios[0]);
    char why[512] = "";
    if (run_case(pl, &c, why, sizeof why, NULL)) return 1;
    int refused = strstr(why, "returned 2:") != NULL;
    if (refused && strstr(why, FEATURE) && strstr(why, info->name))
        check_skip("device %d: every f16 and bf16 case: %s", device, why);
    else CHECK(0, "device %d: f16 1x1x1 runs, or is refused naming the device and " FEATURE ": %s", device, why);
    return !refused; /* it ran, but wrong: the sweep shows where else */
}

/* ---- the store's rounding ---------------------------------------------- */

enum { PATTERNS = 65536 };

static float widen(gh_dtype dtype, uint16_t h)
{
    return dtype == GH_F16 ? gh_f16_to_f32(h) : gh_bf16_to_f32(h);
}

static uint16_t narrow(gh_dtype dtype, float f)
{
    return dtype == GH_F16 ? gh_f32_to_f16(f) : gh_f32_to_bf16(f);
}

static int is_subnormal32(float f)
{
    return f != 0 && fabsf(f) < FLT_MIN;
}

/* v lies exactly halfway between two neighbouring 16-bit values. */
static int is_tie(gh_dtype dtype, float v)
{
    float x = fabsf(v);
    uint16_t h = narrow(dtype, x);
    float r = widen(dtype, h);
    if (r == x || isinf(r) || isnan(r)) return 0;
    float other = widen(dtype, (uint16_t)(r < x ? h + 1 : h - 1));
    return (double)x - r == fabs((double)other - x);
}

/* C(0, j) = alpha * A(0, 0) * B(0, j) with A = 1, beta 0 over NaN, by the
 * naive kernel at its defaults; got gets C's row. */
static int row_gemm(const plugin *pl, int device, gh_dtype dtype, float alpha, const uint16_t *b, uint16_t *got,
                    char *why, size_t size)
{
    const gh_plugin_api *api = pl->api;
    gemm_case c = {.device = device};
    defaults(pl, kernel_named(pl, "naive"), &c);
    uint16_t one = narrow(dtype, 1.0f), poison[PATTERNS];
    for (size_t j = 0; j < PATTERNS; j++) poison[j] = dtype == GH_F16 ? GH_F16_NAN : GH_BF16_NAN;
    gh_buffer *da = NULL, *db = NULL, *dc = NULL;
    gh_status st;
    int done = 0;
    if ((st = api->buffer_alloc(pl->ctx, device, sizeof one, &da)) != GH_OK ||
        (st = api->buffer_alloc(pl->ctx, device, sizeof poison, &db)) != GH_OK ||
        (st = api->buffer_alloc(pl->ctx, device, sizeof poison, &dc)) != GH_OK ||
        (st = api->upload(pl->ctx, da, 0, &one, sizeof one)) != GH_OK ||
        (st = api->upload(pl->ctx, db, 0, b, sizeof poison)) != GH_OK ||
        (st = api->upload(pl->ctx, dc, 0, poison, sizeof poison)) != GH_OK) {
        snprintf(why, size, "buffer setup failed (%d): %s", (int)st, api->last_error(pl->ctx));
        goto out;
    }
    gh_gemm_args args = gh_test_tight_args(dtype, 1, PATTERNS, 1, da, db, dc, c.params, c.n_params);
    args.alpha = alpha;
    gh_gemm_timing timing = {.size = sizeof timing};
    if ((st = api->gemm(pl->ctx, device, c.kernel, &args, &timing)) != GH_OK ||
        (st = api->download(pl->ctx, dc, 0, got, sizeof poison)) != GH_OK) {
        snprintf(why, size, "gemm or download failed (%d): %s", (int)st, api->last_error(pl->ctx));
        goto out;
    }
    done = 1;
out:
    api->buffer_free(pl->ctx, da);
    api->buffer_free(pl->ctx, db);
    api->buffer_free(pl->ctx, dc);
    return done;
}

/* One alpha over every pattern: each column exact, except where Vulkan
 * leaves a choice: any NaN for a NaN, either sign of zero (signed zeros are
 * not preserved without SignedZeroInfNanPreserve), and f32 subnormals in or
 * out, which the device's f32 arithmetic may flush (bf16 only: f16's are
 * built as normal f32 values). Returns the ties checked. */
static long check_alpha(const plugin *pl, int device, gh_dtype dtype, float alpha)
{
    static uint16_t b[PATTERNS], got[PATTERNS];
    for (size_t j = 0; j < PATTERNS; j++) b[j] = (uint16_t)j;
    char why[512] = "";
    const char *name = dtype == GH_F16 ? "f16" : "bf16";
    if (!row_gemm(pl, device, dtype, alpha, b, got, why, sizeof why)) {
        CHECK(0, "device %d: %s rounding, alpha = %a: %s", device, name, (double)alpha, why);
        return 0;
    }
    long exact = 0, ties = 0, free_choice = 0;
    for (size_t j = 0; j < PATTERNS; j++) {
        float bj = widen(dtype, b[j]);
        float v = alpha * (0.0f + 1.0f * bj); /* what the shader computes, in f32 */
        uint16_t want = narrow(dtype, v);
        float w = widen(dtype, want), g = widen(dtype, got[j]);
        int ok;
        if (is_subnormal32(bj) || is_subnormal32(v)) {
            free_choice++;
            continue;
        }
        if (isnan(w)) ok = isnan(g);
        else if (w == 0) ok = g == 0;
        else ok = got[j] == want;
        if (!ok) {
            CHECK(0,
                  "device %d: %s rounding, alpha = %a: B = 0x%04zx (%a), alpha * B = %a (f32) is stored as 0x%04x, "
                  "half.h rounds it to 0x%04x",
                  device, name, (double)alpha, j, (double)bj, (double)v, (unsigned)got[j], (unsigned)want);
            return 0;
        }
        exact++;
        ties += is_tie(dtype, v);
    }
    CHECK(1,
          "device %d: %s rounding, alpha = %a: %ld patterns stored as half.h rounds them (%ld ties), %ld f32 "
          "subnormals left to the device",
          device, name, (double)alpha, exact, ties, free_choice);
    return ties;
}

void half_rounding(const plugin *pl, int device)
{
    /* Each alpha has few enough bits that alpha * B is exact in f32. f16:
     * the patterns back (1); ties at every odd B (1.5); above and below ties
     * and the overflow edge, 65504 * (1 + 2^-12) below 65520, (1 + 2^-11)
     * above (1.25, 1 + 2^-11, 1 + 2^-12); into the subnormals, with ties
     * (3 * 2^-10), and down to 2^-25, the tie that goes to zero (2^-11).
     * bf16 the same with its 8 bits (1 + 2^-8, 1 + 2^-9), overflow past
     * f32's range (3) and a shrink (0.75). */
    static const float f16_alphas[] = {1.0f, 1.5f, 1.25f, 1.0f + 0x1p-11f, 1.0f + 0x1p-12f, 0x3p-10f, 0x1p-11f};
    static const float bf16_alphas[] = {1.0f, 1.5f, 1.0f + 0x1p-8f, 1.0f + 0x1p-9f, 3.0f, 0.75f};
    long ties = 0;
    for (size_t i = 0; i < sizeof f16_alphas / sizeof f16_alphas[0]; i++)
        ties += check_alpha(pl, device, GH_F16, f16_alphas[i]);
    CHECK(ties > 10000, "device %d: f16 rounding: the alphas give ties to check (%ld)", device, ties);
    ties = 0;
    for (size_t i = 0; i < sizeof bf16_alphas / sizeof bf16_alphas[0]; i++)
        ties += check_alpha(pl, device, GH_BF16, bf16_alphas[i]);
    CHECK(ties > 10000, "device %d: bf16 rounding: the alphas give ties to check (%ld)", device, ties);
}

/* ---- a device without 16-bit storage ----------------------------------- */

void half_refused_without_storage(const gh_plugin_api *api, int device)
{
    gh_option_value opt = {"hide_features", FEATURE};
    plugin pl = {api, NULL};
    if (api->open(&opt, 1, &pl.ctx) != GH_OK || api->device_count(pl.ctx) <= device) {
        CHECK(0, "hide_features: open with hide_features=" FEATURE " and find device %d: %s", device,
              api->last_error(pl.ctx));
        api->close(pl.ctx);
        return;
    }
    const char *device_name = api->device_info(pl.ctx, device)->name;
    const int64_t shape[3] = {5, 6, 7};
    for (int kernel = 0; kernel < api->kernel_count(pl.ctx); kernel++) {
        const char *kname = api->kernel_info(pl.ctx, kernel)->name;
        for (gh_dtype dtype = GH_F16; dtype <= GH_BF16; dtype++) {
            gemm_case c = {.device = device};
            defaults(&pl, kernel, &c);
            make_problem(&c.p, dtype, 0, 0, shape, &scenarios[0]);
            char why[512] = "";
            int ran = run_case(&pl, &c, why, sizeof why, NULL);
            CHECK(!ran && strstr(why, "returned 2:") && strstr(why, device_name) && strstr(why, FEATURE),
                  "hide_features: %s %s is unsupported, naming device %s and " FEATURE " (%s)", kname,
                  gh_plugin_dtype_name(dtype), device_name, ran ? "it ran" : why);
        }
    }
    /* f32 is not touched (one kernel: its pipelines are compiled anew in
     * this context, seconds for blocked's on lavapipe). */
    gemm_case c = {.device = device};
    defaults(&pl, kernel_named(&pl, "naive"), &c);
    make_problem(&c.p, GH_F32, 0, 0, shape, &scenarios[0]);
    char why[512] = "";
    int ran = run_case(&pl, &c, why, sizeof why, NULL);
    CHECK(ran, "hide_features: naive f32 still runs%s%s", ran ? "" : ": ", why);
    api->close(pl.ctx);
}
