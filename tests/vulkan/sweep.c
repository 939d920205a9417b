/* The sweep over kernels, parameters, dtypes, transposes and shapes. */
#include "sweep.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../check.h"
#include "coopmat_checks.h"
#include "gemm_args.h"

/* Shapes that hit every edge of a tile of side t. */
enum { SHAPE_COUNT = 8 };
static void shapes_for(int64_t t, int64_t shapes[SHAPE_COUNT][3])
{
    const int64_t list[SHAPE_COUNT][3] = {
        {1, 1, 1},             /* K < tile, one element */
        {1, 2 * t + 3, 1},     /* one row */
        {2 * t + 1, 1, t + 3}, /* one column */
        {37, 53, 29},          /* primes */
        {t + 1, t - 1, t},     /* around the tile */
        {t - 1, t + 1, t + 1},
        {2 * t + 1, t, 3 * t - 1},
        {t + 5, 2 * t - 3, 7}, /* K below blocked's k step, several tiles of C */
    };
    memcpy(shapes, list, sizeof list);
}

/* The limit a kernel with these parameters is over on this device, by the
 * plugin's rules (the shaders in kernels/vulkan declare the shared memory),
 * with the value that is over it written to `value`; NULL when it fits. */
static const char *over_limit(const plugin *pl, const gemm_case *c, gh_dtype dtype, char *value, size_t size)
{
    const gh_device_info *info = pl->api->device_info(pl->ctx, c->device);
    const char *name = pl->api->kernel_info(pl->ctx, c->kernel)->name;
    uint64_t es = dtype == GH_F64 ? 8 : 4, side = (uint64_t)c->params[0]; /* f16, bf16: staged as f32 */
    /* coopmat: every combination fits Vulkan's 128 invocations (subgroups of
     * 32 or fewer); its staged tiles, per stage bm + bn rows of bk + 8
     * 16-bit elements, may not fit the shared memory (NVIDIA's 48 KiB,
     * lavapipe's 32), and blocks 256 wide need 8 subgroups. */
    if (strcmp(name, "coopmat") == 0) {
        const int64_t *q = c->params; /* bm, bn, subgroups, bk, shape, stages */
        uint64_t staged = 2 * (uint64_t)(q[5] * (q[0] + q[1]) * (q[3] + 8));
        if (q[1] == 256 && q[2] != 8) {
            snprintf(value, size, "a block 256 wide needs 8 subgroups");
            return "more registers than an invocation has";
        }
        if (staged > info->local_mem_bytes) {
            snprintf(value, size, "%llu bytes", (unsigned long long)staged);
            return "maxComputeSharedMemorySize";
        }
        return NULL;
    }
    int warptile = strcmp(name, "warptile") == 0;
    uint64_t work = strcmp(name, "blocked") == 0 ? (uint64_t)c->params[1] : warptile ? (uint64_t)c->params[2] : 1;
    uint64_t aspect = warptile ? (uint64_t)c->params[4] : 1; /* rows per column of the block and the work */
    if (warptile && aspect > 1 && c->params[3]) {
        snprintf(value, size, "aspect 1 only");
        return "unroll = 1";
    }
    uint64_t invocations = (side / work) * (side / work);
    uint64_t loads = warptile ? (aspect * side * (uint64_t)c->params[1] + invocations - 1) / invocations : 0;
    if (loads > 32) { /* element loads of A per invocation and step: a bit each in a uint */
        snprintf(value, size, "%llu loads of A", (unsigned long long)loads);
        return "the 32 the shader tracks";
    }
    if (invocations > info->max_workgroup_size) {
        snprintf(value, size, "%llu invocations", (unsigned long long)invocations);
        return "maxComputeWorkGroupInvocations";
    }
    uint64_t shared = 0;
    if (strcmp(name, "tiled") == 0) shared = 2 * side * (side + 1) * es;
    else if (strcmp(name, "blocked") == 0) shared = 2 * 8 * (side + 4) * es;           /* at its smallest k step, 8 */
    else if (warptile) shared = 2 * (uint64_t)c->params[1] * (aspect + 1) * side * es; /* two of A's and B's tiles */
    if (shared > info->local_mem_bytes) {
        snprintf(value, size, "%llu bytes", (unsigned long long)shared);
        return "maxComputeSharedMemorySize";
    }
    return NULL;
}

/* A kernel over the device's limits is refused before it runs, as
 * unsupported, naming the limit and the value over it. */
static void expect_refused(const plugin *pl, const gemm_case *c, const char *limit, const char *value)
{
    const gh_plugin_api *api = pl->api;
    char params[64], name[256];
    describe_params(pl, c, params, sizeof params);
    snprintf(name, sizeof name, "device %d %s %s %s", c->device, api->kernel_info(pl->ctx, c->kernel)->name, params,
             gh_plugin_dtype_name(c->p.dtype));
    gh_buffer *buf = NULL;
    if (api->buffer_alloc(pl->ctx, c->device, 64, &buf) != GH_OK) {
        CHECK(0, "%s: buffer_alloc: %s", name, api->last_error(pl->ctx));
        return;
    }
    gh_gemm_args args = gh_test_tight_args(c->p.dtype, 1, 1, 1, buf, buf, buf, c->params, c->n_params);
    gh_gemm_timing timing = {.size = sizeof timing};
    gh_status st = api->gemm(pl->ctx, c->device, c->kernel, &args, &timing);
    const char *e = api->last_error(pl->ctx);
    CHECK(st == GH_UNSUPPORTED && strstr(e, limit) && strstr(e, value),
          "%s is refused as over %s (%s): status %d (wanted %d), error '%s'", name, limit, value, (int)st,
          (int)GH_UNSUPPORTED, e);
    api->buffer_free(pl->ctx, buf);
}

/* Every combination of the kernel's parameter values, in turn: combo 0 ..
 * count - 1. Returns 0 past the last. */
static int kernel_combo(const plugin *pl, int kernel, size_t combo, gemm_case *c)
{
    const gh_kernel_info *k = pl->api->kernel_info(pl->ctx, kernel);
    c->kernel = kernel;
    c->n_params = k->n_params < MAX_PARAMS ? k->n_params : MAX_PARAMS;
    for (size_t i = 0; i < c->n_params; i++) {
        const gh_param_info *param = &k->params[i];
        if (param->n_allowed == 0) { /* a range: its default only */
            c->params[i] = param->default_value;
            continue;
        }
        c->params[i] = param->allowed[combo % param->n_allowed];
        combo /= param->n_allowed;
    }
    return combo == 0;
}

static int is_default(const plugin *pl, int kernel, const gemm_case *c)
{
    const gh_kernel_info *k = pl->api->kernel_info(pl->ctx, kernel);
    for (size_t i = 0; i < c->n_params; i++)
        if (c->params[i] != k->params[i].default_value) return 0;
    return 1;
}

/* The sample (SWEEP_SAMPLE) beside each kernel's defaults: one set per code
 * path the defaults miss, and the sets runs_dtype picks on a software device
 * for the dtypes it does not run at the defaults, so that every dtype runs.
 * The others run in the full sweep (ctest's vulkan_plugin_full, label
 * full-sweep; tools/gpu-check.sh's vulkan step).
 *  - naive and tiled: the smallest workgroup or tile (most groups per edge;
 *    tiled's f16 and bf16 on a software device);
 *  - blocked: the scalar path (work 2) and one 4-vector per row (work 4);
 *  - warptile: (64, 8, 4) rolled (every dtype's loads and stores on a
 *    software device), unrolled, and at aspect 2;
 *  - coopmat: its smallest block, two stages. */
static int in_sample(const plugin *pl, int kernel, const gemm_case *c)
{
    static const struct {
        const char *kernel;
        int64_t params[MAX_PARAMS];
    } sample[] = {
        {"naive", {4}},
        {"tiled", {4}},
        {"blocked", {32, 2}},
        {"blocked", {64, 4}},
        {"warptile", {64, 8, 4, 0, 1}},
        {"warptile", {64, 8, 4, 1, 1}},
        {"warptile", {64, 8, 4, 0, 2}},
        {"coopmat", {64, 64, 4, 32, 0, 2}},
    };
    if (is_default(pl, kernel, c)) return 1;
    const char *name = pl->api->kernel_info(pl->ctx, kernel)->name;
    for (size_t i = 0; i < sizeof sample / sizeof sample[0]; i++)
        if (strcmp(name, sample[i].kernel) == 0 &&
            memcmp(c->params, sample[i].params, c->n_params * sizeof c->params[0]) == 0)
            return 1;
    return 0;
}

/* On a software device (lavapipe), where compiling a pipeline takes up to
 * seconds (blocked at work 8), f32 runs at every parameter value and the
 * other dtypes at fewer (combinations over the device's limits are checked
 * to be refused at every value and dtype all the same):
 *  - f64 and i32: blocked at the scalar path (work 2), one 4-vector per row
 *    (work 4) and two at the default (work 8, where f64 has to take the
 *    smaller k step on lavapipe's 32 KiB of shared memory);
 *  - f16 and bf16 (whose conversions are the same code whatever the
 *    parameters): naive at every wg, tiled at its smallest and largest tile,
 *    blocked at work 2 and 4; blocked's default (128, 8) in f16 and bf16 is
 *    run by the vulkan_half test, through gemmhost;
 *  - warptile (48 combinations, whose large blocks run slowly on a CPU): f32
 *    at its default (128, 16, 8, unroll 0, aspect 1), at (64, 8, 4) rolled
 *    and unrolled, at the deepest k step (64, 32, 4) and at aspect 2 with
 *    (64, 8, 4) and (128, 8, 8); f64, f16 and bf16 at (64, 8, 4, 0), which
 *    takes every path of their loads and stores (vector and scalar, every
 *    transpose), and f64 (its 2-vectors) at aspect 2 too. Each aspect 2 set
 *    costs lavapipe about 2 s of compiling per pipeline (a pipeline per
 *    layout of the operands), 35 s per dtype with Mesa's shader cache empty.
 * Hardware devices run every dtype at every combination. */
static int runs_dtype(const plugin *pl, int device, int kernel, const gemm_case *c, gh_dtype dtype)
{
    /* coopmat: every block, subgroup count and k step at the device's own
     * shape (0), the other shapes at the default block (the first of them
     * is the device's shape again); on a software device with cooperative
     * matrices (Mesa's lavapipe may get them), its default and its smallest
     * block only. */
    if (strcmp(pl->api->kernel_info(pl->ctx, kernel)->name, "coopmat") == 0) {
        if (pl->api->device_info(pl->ctx, device)->is_software)
            return is_default(pl, kernel, c) || (c->params[0] == 64 && c->params[1] == 64 && c->params[2] == 4 &&
                                                 c->params[3] == 16 && c->params[4] == 0 && c->params[5] == 2);
        return c->params[4] == 0 || (c->params[0] == 128 && c->params[1] == 128 && c->params[2] == 8 &&
                                     c->params[3] == 32 && c->params[5] == 2);
    }
    static const int64_t wide_blocked[][2] = {{32, 2}, {64, 4}, {128, 8}};
    static const int64_t half_blocked[][2] = {{32, 2}, {64, 4}};
    const char *name = pl->api->kernel_info(pl->ctx, kernel)->name;
    if (strcmp(name, "warptile") == 0 && pl->api->device_info(pl->ctx, device)->is_software) {
        static const int64_t w_f32[][5] = {{128, 16, 8, 0, 1}, {64, 8, 4, 0, 1}, {64, 32, 4, 0, 1},
                                           {64, 8, 4, 1, 1},   {64, 8, 4, 0, 2}, {128, 8, 8, 0, 2}};
        static const int64_t w_f64[][5] = {{64, 8, 4, 0, 1}, {64, 8, 4, 0, 2}};
        static const int64_t w_half[][5] = {{64, 8, 4, 0, 1}};
        const int64_t(*list)[5] = dtype == GH_F32 ? w_f32 : dtype == GH_F64 ? w_f64 : w_half;
        size_t n = dtype == GH_F32   ? sizeof w_f32 / sizeof w_f32[0]
                   : dtype == GH_F64 ? sizeof w_f64 / sizeof w_f64[0]
                                     : sizeof w_half / sizeof w_half[0];
        for (size_t i = 0; i < n; i++)
            if (memcmp(c->params, list[i], sizeof list[i]) == 0) return 1;
        return 0;
    }
    if (dtype == GH_F32 || !pl->api->device_info(pl->ctx, device)->is_software) return 1;
    int half = dtype == GH_F16 || dtype == GH_BF16;
    if (strcmp(name, "tiled") == 0) return !half || c->params[0] == 4 || c->params[0] == 32;
    if (strcmp(name, "blocked") != 0) return 1;
    const int64_t(*list)[2] = half ? half_blocked : wide_blocked;
    size_t n = half ? sizeof half_blocked / sizeof half_blocked[0] : sizeof wide_blocked / sizeof wide_blocked[0];
    for (size_t i = 0; i < n; i++)
        if (c->params[0] == list[i][0] && c->params[1] == list[i][1]) return 1;
    return 0;
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Every transpose, shape and scenario of one kernel, parameters and dtype. */
static void sweep_cases(const plugin *pl, const gemm_case *proto, gh_dtype dtype, sweep_scope scope)
{
    const char *kname = pl->api->kernel_info(pl->ctx, proto->kernel)->name;
    int warptile = strcmp(kname, "warptile") == 0, coopmat = strcmp(kname, "coopmat") == 0;
    int64_t shapes[SHAPE_COUNT][3];
    shapes_for(proto->params[0], shapes);
    /* The sample on a software device runs warptile's default, whose
     * pipelines lavapipe compiles slowest (some 18 s each, a third of the
     * sample's time), at nn and tt only, as --quick does (vulkan_shards: a
     * fresh shader cache compiles them once); its nt and tn run in the full
     * sweep, and those layouts' code at (64, 8, 4) here in every dtype. */
    const int two_layouts =
        scope == SWEEP_QUICK || (scope == SWEEP_SAMPLE && warptile && is_default(pl, proto->kernel, proto) &&
                                 pl->api->device_info(pl->ctx, proto->device)->is_software);
    for (int t = 0; t < 4; t++) {
        if (two_layouts && (t == 1 || t == 2)) continue;
        for (int s = 0; s < SHAPE_COUNT; s++)
            for (int sc = 0; sc < SCENARIO_COUNT; sc++) {
                if (sc == 2 && s != 3) /* the third scenario on the primes only */
                    continue;
                gemm_case c = *proto;
                make_problem(&c.p, dtype, t >> 1, t & 1, shapes[s], &scenarios[sc]);
                char why[512] = "", name[256];
                describe_case(pl, &c, name, sizeof name);
                int passed = run_case(pl, &c, why, sizeof why, NULL);
                CHECK(passed, "%s%s%s", name, passed ? "" : ": ", passed ? "" : why);
            }
        if (coopmat) { /* its 16-byte copies: packed, and ld and offsets multiples of 8 */
            int64_t aligned[COOPMAT_VECTOR_SHAPES][3];
            coopmat_vector_shapes(proto->params, aligned);
            for (int s = 0; s < COOPMAT_VECTOR_SHAPES; s++)
                for (int sc = 0; sc < 2; sc++) {
                    gemm_case c = *proto;
                    make_problem(&c.p, dtype, t >> 1, t & 1, aligned[s], sc ? &vector8_scenario : &scenarios[1]);
                    char why[512] = "", name[256];
                    describe_case(pl, &c, name, sizeof name);
                    int passed = run_case(pl, &c, why, sizeof why, NULL);
                    CHECK(passed, "%s%s%s", name, passed ? "" : ": ", passed ? "" : why);
                }
        }
        if (!warptile) continue;
        /* warptile's vector loads: sizes multiples of 4 but not of the tile
         * or the k step (the last vector of a row is at the edge), and k
         * below the k step; packed, and padded and offset by multiples of 4. */
        const int64_t t4 = proto->params[0];
        const int64_t aligned[2][3] = {{t4 + 4, t4 - 4, t4 + 20}, {2 * t4 + 8, t4 + 12, 12}};
        const scenario *vs[2] = {&scenarios[1], &vector_scenario};
        for (int s = 0; s < 2; s++)
            for (int sc = 0; sc < 2; sc++) {
                gemm_case c = *proto;
                make_problem(&c.p, dtype, t >> 1, t & 1, aligned[s], vs[sc]);
                char why[512] = "", name[256];
                describe_case(pl, &c, name, sizeof name);
                int passed = run_case(pl, &c, why, sizeof why, NULL);
                CHECK(passed, "%s%s%s", name, passed ? "" : ": ", passed ? "" : why);
            }
    }
}

void sweep(const plugin *pl, int device, sweep_scope scope, int half, int shard, int shards)
{
    size_t numbered = 0; /* parameter combinations of every kernel, in order */
    const gh_device_info *info = pl->api->device_info(pl->ctx, device);
    if (!info->has_fp64) check_skip("device %d: every f64 case: %s has no shaderFloat64", device, info->name);
    for (int kernel = 0; kernel < pl->api->kernel_count(pl->ctx); kernel++) {
        uint32_t declared = pl->api->kernel_info(pl->ctx, kernel)->dtypes;
        gemm_case proto = {.device = device};
        for (size_t combo = 0; kernel_combo(pl, kernel, combo, &proto); combo++) {
            if (scope == SWEEP_QUICK && !is_default(pl, kernel, &proto)) continue;
            if (scope == SWEEP_SAMPLE && !in_sample(pl, kernel, &proto)) continue;
            if (numbered++ % (size_t)shards != (size_t)shard) continue;
            /* Progress, so that a slow device shows where its time goes. */
            double started = seconds_now();
            int checked_before = check_passed + check_failed;
            for (gh_dtype dtype = 0; dtype < GH_DTYPE_COUNT; dtype++) {
                if (!(declared & GH_DTYPE_BIT(dtype))) continue;
                if (dtype == GH_F64 && !info->has_fp64) continue;
                if ((dtype == GH_F16 || dtype == GH_BF16) && !half) continue;
                gemm_case c = proto;
                c.p.dtype = dtype;
                char value[64];
                const char *limit = over_limit(pl, &c, dtype, value, sizeof value);
                /* A refusal costs no pipeline: checked wherever it is due. */
                if (strcmp(pl->api->kernel_info(pl->ctx, kernel)->name, "coopmat") == 0 &&
                    !coopmat_offers(pl, device, dtype, c.params[4]))
                    coopmat_expect_refused(pl, &c);
                else if (limit) expect_refused(pl, &c, limit, value);
                else if (runs_dtype(pl, device, kernel, &proto, dtype)) sweep_cases(pl, &proto, dtype, scope);
            }
            char name[128];
            describe_params(pl, &proto, name, sizeof name);
            printf("device %d: %s %s: %d checks in %.1f s\n", device, pl->api->kernel_info(pl->ctx, kernel)->name, name,
                   check_passed + check_failed - checked_before, seconds_now() - started);
        }
    }
}
