/* The OpenCL plugin, loaded through its ABI as the host would load it, on
 * every OpenCL device found: what only this plugin has (its options, build
 * logs, device limits; the generic ABI promises are gemmhost-conformance's),
 * then every kernel over every dtype, transpose, parameter and a set of edge
 * shapes, each result checked on the host.
 * blocked runs every tile x work on hardware devices and a few on software
 * ones (PoCL compiles each variant, and that is most of the test's time).
 * f16 and bf16 multiply and sum in f32 like f32, and share its tile code:
 * what is theirs is the 16-bit loads and the rounded store, which
 * half_checks.c checks bit for bit. In the sweep they take fewer shapes (the
 * primes and the edges of the variant's own tile) and one alpha/beta per
 * shape; on software devices, where every variant is a compile, f16 and bf16
 * share out the tiles of tiled and run blocked at its default only.
 * warptile has its own sweep (warptile_checks.c); clblast is checked
 * through gemmhost (test_clblast.sh) and by gemmhost-conformance.
 *
 *   test_opencl_plugin [--plugin SO] [-v]            the tests (-v: passes too); exit 77 when no device
 *   test_opencl_plugin [--plugin SO] --bench [N...]  timings instead (see bench.h)
 *
 * --plugin: the plugin to load, by default the one built beside this test
 * (a build folder copied to another machine or path, tools/gpu-check.sh's
 * case, names its own).
 *
 * GEMMHOST_TEST_OPENCL_PLATFORM=<text> keeps only the platforms whose name
 * contains the text (the plugin's `platform` option).
 * GEMMHOST_TEST_OPENCL_FULL=1 runs on software devices what hardware ones
 * run: every blocked variant (minutes on PoCL, nearly all of it compiling). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CHECK_MAIN
#include "../check.h"
#include "bench.h"
#include "build_log_checks.h"
#include "ptx_rewrite_checks.h"
#include "clblast_params_checks.h"
#include "clblast_status_checks.h"
#include "device_checks.h"
#include "gemm_case.h"
#include "half_checks.h"
#include "option_checks.h"
#include "plugin_handle.h"
#include "warptile_checks.h"

#define SKIP_EXIT_CODE 77

typedef struct shape {
    int64_t m, n, k;
} shape;

/* Shapes every kernel meets: one element, one row, one column, primes. */
static const shape base_shapes[] = {{1, 1, 1}, {1, 19, 1}, {23, 1, 17}, {37, 53, 29}};
/* Work-group (and tile) edges to straddle. */
static const int64_t edges[] = {4, 8, 16, 32};

/* Just below and above the edge, and K smaller than it. */
static int edge_shapes(int64_t t, shape *out)
{
    out[0] = (shape){t - 1, t + 1, t + 1};
    out[1] = (shape){t + 1, t - 1, t - 1};
    out[2] = (shape){2 * t + 1, t, 3};
    return 3;
}

/* blocked's shapes for a tile t (K steps of 16): around the tile's edge with
 * K around the step, K below the step, and several blocks and steps. */
static int blocked_shapes(int64_t t, shape *out)
{
    out[0] = (shape){t - 1, t + 1, 17};
    out[1] = (shape){t + 1, t - 1, 16};
    out[2] = (shape){2 * t + 1, t, 3};
    out[3] = (shape){t, 2 * t + 3, 15};
    out[4] = (shape){t + 3, t + 5, 49};
    return 5;
}

/* blocked's tile x work on software devices, where each is a slow compile
 * (seconds on PoCL): both vector widths, with 1, 2 and 4 vectors per row of
 * a micro-tile (128/2, 128/8 f32 and f64), more work-items than a tile has
 * elements (128/2: 4096 of them), more than a tile's row (128/8) and fewer
 * (32/8: 16 work-items for rows of 32, so the loads step along rows).
 * f16 and bf16 only at the default 128/8: the load order does not depend on
 * the dtype, and PoCL takes seconds to compile each of them (f16 at 32/8:
 * 13 s, its vload_half and vstore_half_rte inlined at every unrolled load
 * and store). */
#define HALVES (GH_DTYPE_BIT(GH_F16) | GH_DTYPE_BIT(GH_BF16))
static const struct {
    int64_t tile, work;
    unsigned dtypes;
} blocked_software[] = {
    {128, 2, GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_I32)},
    {128, 8, GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_I32) | HALVES},
    {32, 8, GH_DTYPE_BIT(GH_F32)},
};
static const int64_t blocked_tiles[] = {32, 64, 128}, blocked_works[] = {2, 4, 8};
/* blocked's default tile x work, given in full: a kernel takes all its parameters. */
static const int64_t blocked_default[2] = {128, 8};

typedef struct sweep {
    const gh_plugin_api *api;
    gh_plugin *ctx;
    int device;
    int is_software;  /* a few blocked variants rather than all */
    unsigned counter; /* varies pads, offsets and seeds from case to case */
} sweep;

static int is_half(int dtype)
{
    return dtype == GH_F16 || dtype == GH_BF16;
}

/* Runs one shape with every alpha/beta variant (one of them beta = 0 on a
 * NaN-filled C); params holds the kernel's n_params values. */
static void run_shape_params(sweep *s, int kernel, const int64_t *params, size_t n_params, gh_dtype dtype, int trans,
                             shape sh)
{
    static const double float_ab[2][2] = {{1.5, -0.75}, {-1.25, 0}};
    static const double int_ab[2][2] = {{3, -2}, {-2, 0}};
    static const int64_t pads[] = {0, 1, 5};
    static const uint64_t offsets[] = {0, 7, 3, 13};
    /* f16 and bf16 take one of the two, in turn from shape to shape. */
    for (int v = is_half(dtype) ? (int)(s->counter & 1) : 0; v < 2; v += is_half(dtype) ? 2 : 1) {
        unsigned n = s->counter++;
        const double *ab = dtype == GH_I32 ? int_ab[v] : float_ab[v];
        gemm_case c = {.kernel = kernel,
                       .params = {n_params > 0 ? params[0] : 0, n_params > 1 ? params[1] : 0},
                       .n_params = n_params,
                       .dtype = dtype,
                       .trans_a = trans >> 1,
                       .trans_b = trans & 1,
                       .m = sh.m,
                       .n = sh.n,
                       .k = sh.k,
                       .alpha = ab[0],
                       .beta = ab[1],
                       .pad = pads[n % 3],
                       .offset = offsets[n % 4],
                       .seed = n,
                       .repeat = n % 10 == 0};
        char what[256], why[1024] = "";
        gemm_case_describe(s->api, s->ctx, &c, what, sizeof what);
        case_result r = gemm_case_run(s->api, s->ctx, s->device, &c, why, sizeof why);
        if (r == CASE_SKIP) check_skip("%s: %s", what, why);
        else CHECK(r == CASE_PASS, "%s%s%s", what, r == CASE_PASS ? "" : ": ", why);
    }
}

static void run_shape(sweep *s, int kernel, int64_t param, gh_dtype dtype, int trans, shape sh)
{
    run_shape_params(s, kernel, &param, 1, dtype, trans, sh);
}

/* Whether a kernel implements a dtype: the sweep covers what it declares. */
static int kernel_has(const sweep *s, int kernel, int dtype)
{
    const gh_kernel_info *ki = s->api->kernel_info(s->ctx, kernel);
    return ki && (ki->dtypes & GH_DTYPE_BIT(dtype));
}

/* The shapes every variant meets in a dtype: all of base_shapes; for f16 and
 * bf16, whose arithmetic is f32's (only their loads and the store differ),
 * the one with primes in every dimension. */
static size_t common_shapes(int dtype, const shape **out)
{
    *out = is_half(dtype) ? &base_shapes[3] : base_shapes;
    return is_half(dtype) ? 1 : sizeof base_shapes / sizeof base_shapes[0];
}

/* blocked at tile x work: the dtypes of the mask, every transpose and shape. */
static void run_blocked(sweep *s, int blocked, int64_t tile, int64_t work, unsigned dtypes)
{
    const int64_t params[2] = {tile, work};
    shape extra[5];
    const int n = blocked_shapes(tile, extra);
    for (int dtype = 0; dtype < GH_DTYPE_COUNT; dtype++)
        for (int trans = 0; trans < 4 && (dtypes & GH_DTYPE_BIT(dtype)) && kernel_has(s, blocked, dtype); trans++) {
            const shape *common;
            for (size_t i = 0, nc = common_shapes(dtype, &common); i < nc; i++)
                run_shape_params(s, blocked, params, 2, (gh_dtype)dtype, trans, common[i]);
            for (int i = 0; i < n; i++) run_shape_params(s, blocked, params, 2, (gh_dtype)dtype, trans, extra[i]);
        }
}

static void run_sweep(sweep *s)
{
    int naive = gh_test_find_kernel(s->api, s->ctx, "naive"), tiled = gh_test_find_kernel(s->api, s->ctx, "tiled");
    int blocked = gh_test_find_kernel(s->api, s->ctx, "blocked");
    shape extra[3];
    for (int dtype = 0; dtype < GH_DTYPE_COUNT; dtype++)
        for (int trans = 0; trans < 4 && kernel_has(s, naive, dtype); trans++) {
            const shape *common;
            const size_t n_common = common_shapes(dtype, &common);
            /* naive, default work-group: every shape (f16, bf16: around its own edge, 16). */
            for (size_t i = 0; i < n_common; i++) run_shape(s, naive, 16, (gh_dtype)dtype, trans, common[i]);
            for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++) {
                if (is_half(dtype) && edges[e] != 16) continue;
                for (int i = 0, n = edge_shapes(edges[e], extra); i < n; i++)
                    run_shape(s, naive, 16, (gh_dtype)dtype, trans, extra[i]);
            }
            /* tiled, every tile: the common shapes and those around its edge.
             * On software devices f16 takes tiles 4 and 16, bf16 8 and 32. */
            for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++) {
                if (is_half(dtype) && s->is_software && (dtype == GH_F16) != (e % 2 == 0)) continue;
                for (size_t i = 0; i < n_common; i++) run_shape(s, tiled, edges[e], (gh_dtype)dtype, trans, common[i]);
                for (int i = 0, n = edge_shapes(edges[e], extra); i < n; i++)
                    run_shape(s, tiled, edges[e], (gh_dtype)dtype, trans, extra[i]);
            }
        }
    /* naive's other work-group edges, on f32 (each one is another PoCL compile). */
    for (int64_t wg = 8; wg <= 32; wg *= 4)
        for (int trans = 0; trans < 4; trans++) {
            run_shape(s, naive, wg, GH_F32, trans, (shape){37, 53, 29});
            run_shape(s, naive, wg, GH_F32, trans, (shape){wg + 1, wg - 1, 5});
        }

    if (s->is_software) {
        for (size_t c = 0; c < sizeof blocked_software / sizeof blocked_software[0]; c++)
            run_blocked(s, blocked, blocked_software[c].tile, blocked_software[c].work, blocked_software[c].dtypes);
        /* Several blocks each way at 128/8 (built above), with K steps. */
        run_shape_params(s, blocked, blocked_default, 2, GH_F32, 1, (shape){129, 131, 33});
        run_shape_params(s, blocked, blocked_default, 2, GH_F16, 2, (shape){129, 131, 33});
        run_shape_params(s, blocked, blocked_default, 2, GH_BF16, 3, (shape){129, 131, 33});
    } else {
        for (size_t t = 0; t < sizeof blocked_tiles / sizeof blocked_tiles[0]; t++)
            for (size_t w = 0; w < sizeof blocked_works / sizeof blocked_works[0]; w++)
                run_blocked(s, blocked, blocked_tiles[t], blocked_works[w], ~0u);
        /* Several blocks each way and many K steps, at 128/8. */
        for (int dtype = 0; dtype < GH_DTYPE_COUNT; dtype++)
            for (int trans = 0; trans < 4 && kernel_has(s, blocked, dtype); trans++)
                run_shape_params(s, blocked, blocked_default, 2, (gh_dtype)dtype, trans, (shape){300, 301, 257});
    }
}

int main(int argc, char **argv)
{
    int bench = 0, n_sizes = 0;
    int64_t sizes[16];
    const char *plugin_path = GEMMHOST_OPENCL_PLUGIN;
    check_quiet = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-v") == 0) check_quiet = 0;
        else if (strcmp(argv[i], "--plugin") == 0 && i + 1 < argc) plugin_path = argv[++i];
        else if (strcmp(argv[i], "--bench") == 0) bench = 1;
        else if (bench && n_sizes < 16 && atoll(argv[i]) > 0) sizes[n_sizes++] = atoll(argv[i]);
        else {
            fprintf(stderr, "usage: %s [--plugin gemmhost-opencl.so] [-v] | --bench [N ...]\n", argv[0]);
            return 2;
        }
    }

    gh_test_plugin h;
    if (gh_test_plugin_load(&h, plugin_path) != 0) {
        fprintf(stderr, "cannot load %s: %s\n", plugin_path, h.error);
        return 1;
    }
    const gh_plugin_api *api = h.api;
    if (!bench) {
        option_checks_platform(api);
        build_log_checks();
        ptx_rewrite_checks();
        clblast_status_checks();
        clblast_params_checks();
    }

    const char *platform = getenv("GEMMHOST_TEST_OPENCL_PLATFORM");
    if (platform && !*platform) platform = NULL;
    gh_option_value filter = {"platform", platform};
    gh_plugin *ctx = NULL;
    gh_status st = api->open(&filter, platform ? 1 : 0, &ctx);
    if (!CHECK(st == GH_OK, "open%s%s (status %d%s%s)", platform ? " with platform " : "", platform ? platform : "",
               (int)st, st ? ": " : "", st ? api->last_error(NULL) : ""))
        return check_summary("opencl_plugin");
    int n_devices = api->device_count(ctx);
    if (n_devices == 0) {
        check_skip("no OpenCL device: %s", api->last_error(ctx));
        api->close(ctx);
        return check_summary("opencl_plugin") ? 1 : SKIP_EXIT_CODE;
    }
    if (bench) {
        int rc = bench_run(api, ctx, sizes, n_sizes);
        api->close(ctx);
        gh_test_plugin_unload(&h);
        return rc;
    }

    for (int d = 0; d < n_devices; d++) {
        const gh_device_info *info = api->device_info(ctx, d);
        printf("device %d: %s (%s; %s; fp64 %s)\n", d, info->name, info->platform, info->api,
               info->has_fp64 ? "yes" : "no");
        fflush(stdout);
        device_checks(api, ctx, d);
        option_checks_kernel_dir(api, platform, d);
        half_checks(api, ctx, d);
        const char *full = getenv("GEMMHOST_TEST_OPENCL_FULL");
        sweep s = {api, ctx, d, info->is_software && !(full && *full && strcmp(full, "0") != 0), 0};
        run_sweep(&s);
        warptile_checks(api, ctx, d, s.is_software);
    }
    if (n_devices > 1) device_checks_threads(api, ctx);
    api->close(ctx);
    gh_test_plugin_unload(&h);
    return check_summary("opencl_plugin");
}
