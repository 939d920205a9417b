/* Tests of core/split: the layout planning as plain arithmetic, then whole
 * products over the C plugin (loaded from the path given on the command
 * line) through its streams and through the blocking calls, checked against
 * the host reference; then members that fail mid-run, at setup, or on a
 * stream, which must stop the run cleanly.
 * Usage: test_split PATH/gemmhost-cpu.so */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"
#include "split.h"
#include "verify.h"

#define CHECK_MAIN /* this file holds the check counters */
#include "../check.h"
#include "../verify/test_util.h"

/* ---- planning ------------------------------------------------------------ */

static gh_split_layout plan_ok(gh_dtype d, int64_t m, int64_t n, int64_t k, int64_t panel, uint64_t limit, int depth)
{
    gh_split_shape s = {d, m, n, k, {0}};
    gh_split_layout l;
    char err[512] = "";
    int rc = gh_split_plan_layout(&s, panel, limit, depth, &l, err, sizeof err);
    EXPECT(rc == 0, "%lldx%lldx%lld panel %lld limit %llu: %s", (long long)m, (long long)n, (long long)k,
           (long long)panel, (unsigned long long)limit, err);
    EXPECT(l.device_bytes <= limit, "device bytes %llu within %llu", (unsigned long long)l.device_bytes,
           (unsigned long long)limit);
    return l;
}

static void test_sizes_not_divisible(void)
{
    /* 100 rows in chunks of 32: 32, 32, 32, 4; 75 columns in panels of 32: 32, 32, 11. */
    gh_split_layout l = plan_ok(GH_F32, 100, 75, 50, 32, UINT64_MAX, 2);
    EXPECT(l.chunk_rows == 32 && l.n_chunks == 4, "chunks %lld x %lld", (long long)l.n_chunks, (long long)l.chunk_rows);
    EXPECT(l.panel_cols == 32 && l.n_panels == 3, "panels %lld x %lld", (long long)l.n_panels, (long long)l.panel_cols);
    EXPECT(l.b_resident && l.full_width && l.depth == 2, "no limit: B resident, full width, double buffered");
    EXPECT(l.a_bytes == 32 * 50 * 4 && l.b_bytes == 50 * 75 * 4 && l.c_bytes == 32 * 75 * 4, "buffer sizes");
    EXPECT(l.device_bytes == 2 * (l.a_bytes + l.c_bytes) + l.b_bytes, "total %llu", (unsigned long long)l.device_bytes);

    /* A panel larger than the matrix: one chunk, one panel. */
    l = plan_ok(GH_F64, 7, 5, 3, 2048, UINT64_MAX, 1);
    EXPECT(l.chunk_rows == 7 && l.n_chunks == 1 && l.panel_cols == 5 && l.n_panels == 1 && l.depth == 1,
           "panel over the sizes");
}

static void test_mem_limit_forces_streaming(void)
{
    const uint64_t e = 8, m = 150, n = 130, k = 70, p = 32;
    const uint64_t a = p * k * e, b_whole = k * n * e, b_panel = k * p * e, c_full = p * n * e, c_tile = p * p * e;
    /* Just enough for resident B with tiles, double buffered. */
    gh_split_layout l = plan_ok(GH_F64, m, n, k, p, 2 * (a + c_tile) + b_whole, 2);
    EXPECT(l.b_resident && !l.full_width && l.depth == 2, "resident, tiles, 2 sets");
    /* Resident with full width fits single buffered only: double buffering wins over width. */
    l = plan_ok(GH_F64, m, n, k, p, a + c_full + b_whole, 2);
    EXPECT(l.b_resident && l.full_width && l.depth == 1, "resident, full width, 1 set");
    /* One byte less than resident B with one A chunk and one tile: B streams. */
    l = plan_ok(GH_F64, m, n, k, p, a + c_tile + b_whole - 1, 2);
    EXPECT(!l.b_resident && l.depth == 2 && l.n_panels == 5, "streamed, 2 sets, 5 panels");
    EXPECT(l.b_bytes == b_panel && l.c_bytes == c_tile, "streamed buffers");
    l = plan_ok(GH_F64, m, n, k, p, a + b_panel + c_tile, 2);
    EXPECT(!l.b_resident && l.depth == 1, "streamed, 1 set");
    /* Without streams the planner never asks for two sets. */
    l = plan_ok(GH_F64, m, n, k, p, UINT64_MAX, 1);
    EXPECT(l.depth == 1 && l.b_resident, "max_depth 1");
}

static void test_mem_limit_too_small(void)
{
    gh_split_shape s = {GH_F32, 150, 130, 70, {0}};
    gh_split_layout l;
    char err[512] = "";
    const uint64_t smallest = (32 * 70 + 70 * 32 + 32 * 32) * 4;
    EXPECT(gh_split_plan_layout(&s, 32, smallest - 1, 2, &l, err, sizeof err) == -1, "one byte short fails");
    EXPECT(strstr(err, "too small for one panel") != NULL, "says why: %s", err);
    EXPECT(strstr(err, "need 21.50 KiB") != NULL, "says how much: %s", err);
    const char *fit = strstr(err, "panel = ");
    EXPECT(fit != NULL, "names a panel that fits: %s", err);
    if (fit) {
        long long p = atoll(fit + strlen("panel = "));
        char dummy[512];
        EXPECT(p == 31 && gh_split_plan_layout(&s, p, smallest - 1, 2, &l, dummy, sizeof dummy) == 0, "panel %lld fits",
               p);
    }
    EXPECT(gh_split_plan_layout(&s, 32, 100, 2, &l, err, sizeof err) == -1 && strstr(err, "not even panel = 1"),
           "nothing fits: %s", err);
}

static void test_large_sizes(void)
{
    /* The GPU run: 32768^3 f32 under a 16 GiB limit keeps B resident. */
    gh_split_layout l = plan_ok(GH_F32, 32768, 32768, 32768, 2048, (uint64_t)16 << 30, 2);
    EXPECT(l.b_resident && l.full_width && l.depth == 2 && l.n_chunks == 16, "32768: resident");
    EXPECT(l.device_bytes == ((uint64_t)5 << 30), "32768: 4 GiB of B + 2 x (256 MiB A + 256 MiB C), got %llu",
           (unsigned long long)l.device_bytes);
    /* Out of core: a 2 GiB limit streams B. */
    l = plan_ok(GH_F32, 32768, 32768, 32768, 2048, (uint64_t)2 << 30, 2);
    EXPECT(!l.b_resident && l.depth == 2 && l.n_panels == 16, "32768 in 2 GiB: streamed");
    /* Products past 2^64 bytes saturate rather than wrap. */
    gh_split_shape s = {GH_F64, 2147483647LL, 2147483647LL, 2147483647LL, {0}};
    char err[512];
    EXPECT(gh_split_plan_layout(&s, 2147483647LL, UINT64_MAX - 1, 2, &l, err, sizeof err) == -1, "no wrap-around");
}

/* ---- whole products over the C plugin ------------------------------------ */

static gh_loaded_plugin cpu;
static gh_plugin *cpu_ctx[2]; /* one context per member: one thread per device at a time */

static gh_split_member cpu_member(const char *name, int kernel, const int64_t *params, uint32_t minor, int ctx)
{
    return (gh_split_member){
        .backend = name,
        .api = cpu.api,
        .abi_minor = minor,
        .ctx = cpu_ctx[ctx],
        .device = 0,
        .kernel = kernel,
        .kernel_info = cpu.api->kernel_info(cpu_ctx[ctx], kernel),
        .params = params,
        .params_label = "",
    };
}

/* A seeded case (tests/verify/test_util.h) with its reference. */
typedef struct product {
    test_case tc;
    gh_reference *ref;
} product;

static void product_make(product *pr, gh_dtype d, int ta, int tb, int64_t m, int64_t n, int64_t k, double alpha,
                         double beta, uint64_t seed)
{
    test_case_make(&pr->tc, d, ta, tb, m, n, k, alpha, beta, 3, 8, seed);
    gh_verify_options opt = {.method = GH_VERIFY_FULL, .seed = seed};
    pr->ref = gh_reference_build(&pr->tc.in, &opt);
}

static void product_free(product *pr)
{
    gh_reference_free(pr->ref);
    test_case_free(&pr->tc);
}

static gh_status product_run(product *pr, const gh_split_member *members, size_t n, int64_t panel, uint64_t limit,
                             gh_split_outcome *out)
{
    test_case *tc = &pr->tc;
    gh_matrix_poison(&tc->c);
    gh_split_problem p = {tc->in.dtype, tc->in.trans_a, tc->in.trans_b, tc->in.m, tc->in.n, tc->in.k, tc->in.alpha,
                          tc->in.beta,  &tc->a,         &tc->b,         &tc->c0,  &tc->c,   {0}};
    const gh_split_options opt = {panel, limit, GH_SPLIT_NUMA_OFF, GH_SPLIT_B_AUTO, 0};
    return gh_split_run(members, n, &opt, &p, out);
}

/* Every dtype and transpose, beta zero and not, over limits that make B
 * resident, resident with tiles, and streamed; with streams, without, and
 * both in one product. */
static void test_products(void)
{
    static const int64_t tile16[] = {16};
    gh_split_member streams = cpu_member("cpu-streams", 1, tile16, 1, 0);
    gh_split_member blocking = cpu_member("cpu-blocking", 0, NULL, 0, 1);
    EXPECT(gh_split_member_has_streams(&streams) && !gh_split_member_has_streams(&blocking), "capabilities");
    /* A table of minor-0 size is never read past its end, whatever minor it claims. */
    gh_plugin_api short_table = *cpu.api;
    short_table.size = GH_PLUGIN_API_MINOR0_SIZE;
    gh_split_member old = streams;
    old.api = &short_table;
    gh_host_allocator unused;
    EXPECT(!gh_split_member_has_streams(&old) && !gh_split_member_has_host_alloc(&old) &&
               gh_split_host_allocator(&old, &unused) != 0,
           "a minor-0 table: blocking calls, malloc");
    const struct {
        gh_split_member mb[2];
        size_t n;
    } groups[] = {
        {{streams}, 1},
        {{blocking}, 1},
        {{streams, blocking}, 2},
    };
    /* unlimited; f32: resident B with tiles, f64: streamed single; then streamed for all */
    const uint64_t limits[] = {0, 10000, 6000};
    const gh_dtype dtypes[] = {GH_F32, GH_F64, GH_I32};
    int runs = 0, streamed = 0;
    for (size_t g = 0; g < 3; g++)
        for (size_t li = 0; li < 3; li++)
            for (size_t d = 0; d < 3; d++)
                for (int t = 0; t < 4; t++) {
                    product pr;
                    double beta = t % 2 ? -3 : 0;
                    product_make(&pr, dtypes[d], t & 1, t >> 1, 61, 45, 37, 2, beta, 100 + (uint64_t)t);
                    gh_split_member_stats st[2];
                    gh_split_outcome out = {.members = st};
                    gh_status s = product_run(&pr, groups[g].mb, groups[g].n, 8, limits[li], &out);
                    gh_verify_result v;
                    gh_verify(pr.ref, &pr.tc.c, &v);
                    EXPECT(s == GH_OK && v.passed, "group %zu limit %llu %s t%d beta %g: %s %s", g,
                           (unsigned long long)limits[li], gh_dtype_name(dtypes[d]), t, beta, out.error, v.message);
                    int64_t chunks = 0;
                    for (size_t i = 0; i < groups[g].n; i++) {
                        chunks += st[i].chunks;
                        streamed += !st[i].layout.b_resident;
                        EXPECT(st[i].layout.device_bytes <= (limits[li] ? limits[li] : UINT64_MAX), "within limit");
                    }
                    EXPECT(chunks == 8, "61 rows in chunks of 8: 8 chunks, got %lld", (long long)chunks);
                    runs++;
                    product_free(&pr);
                }
    EXPECT(runs == 108 && streamed > 0, "%d runs, %d streamed", runs, streamed);
}

/* ---- members that fail ------------------------------------------------------ */

/* The C plugin's table with some calls made to fail on their Nth use. */
static gh_plugin_api faulty;
static atomic_int gemm_calls, sync_calls, alloc_calls;
static int fail_gemm_at, fail_sync_at, fail_alloc_at;
static _Thread_local char faulty_error[128];

static const char *faulty_last_error(gh_plugin *ctx)
{
    return faulty_error[0] ? faulty_error : cpu.api->last_error(ctx);
}

static gh_status faulty_gemm(gh_plugin *ctx, int device, int kernel, const gh_gemm_args *a, gh_gemm_timing *t)
{
    if (atomic_fetch_add(&gemm_calls, 1) + 1 == fail_gemm_at) {
        snprintf(faulty_error, sizeof faulty_error, "simulated device lost in gemm");
        return GH_ERROR;
    }
    return cpu.api->gemm(ctx, device, kernel, a, t);
}

static gh_status faulty_gemm_async(gh_plugin *ctx, gh_stream *s, int kernel, const gh_gemm_args *a, gh_gemm_timing *t)
{
    if (atomic_fetch_add(&gemm_calls, 1) + 1 == fail_gemm_at) {
        snprintf(faulty_error, sizeof faulty_error, "simulated launch failure in gemm_async");
        return GH_ERROR;
    }
    return cpu.api->gemm_async(ctx, s, kernel, a, t);
}

static gh_status faulty_sync(gh_plugin *ctx, gh_stream *s)
{
    gh_status st = cpu.api->stream_synchronize(ctx, s);
    if (atomic_fetch_add(&sync_calls, 1) + 1 == fail_sync_at) {
        snprintf(faulty_error, sizeof faulty_error, "simulated fault found at stream_synchronize");
        return GH_ERROR;
    }
    return st;
}

static gh_status faulty_alloc(gh_plugin *ctx, int device, uint64_t bytes, gh_buffer **out)
{
    if (atomic_fetch_add(&alloc_calls, 1) + 1 == fail_alloc_at) {
        snprintf(faulty_error, sizeof faulty_error, "simulated out of device memory");
        return GH_OUT_OF_MEMORY;
    }
    return cpu.api->buffer_alloc(ctx, device, bytes, out);
}

static void arm(int gemm_at, int sync_at, int alloc_at)
{
    atomic_store(&gemm_calls, 0);
    atomic_store(&sync_calls, 0);
    atomic_store(&alloc_calls, 0);
    fail_gemm_at = gemm_at;
    fail_sync_at = sync_at;
    fail_alloc_at = alloc_at;
}

/* Both members use the faulty table, and its counters are shared, so the Nth
 * call happens whichever member takes which chunk. */
static void expect_failure(const char *what, uint32_t minor, const char *words, gh_status want, uint64_t limit,
                           int at_setup)
{
    product pr;
    product_make(&pr, GH_F64, 1, 0, 90, 40, 20, 1, 0.5, 7);
    gh_split_member members[2] = {cpu_member("faulty-a", 0, NULL, minor, 0), cpu_member("faulty-b", 0, NULL, minor, 1)};
    members[0].api = members[1].api = &faulty;
    gh_split_member_stats st[2];
    gh_split_outcome out = {.members = st};
    gh_status s = product_run(&pr, members, 2, 4, limit, &out);
    EXPECT(s == want && out.status == want, "%s: status %d", what, (int)s);
    EXPECT(strstr(out.error, "member faulty-") && strstr(out.error, words), "%s: %s", what, out.error);
    EXPECT((st[0].error[0] != '\0') + (st[1].error[0] != '\0') == 1, "%s: the failing member is named: '%s' / '%s'",
           what, st[0].error, st[1].error);
    /* A member that fails before the start stops everyone before the first chunk. */
    if (at_setup)
        EXPECT(st[0].chunks + st[1].chunks == 0, "%s: no chunk taken (%lld + %lld)", what, (long long)st[0].chunks,
               (long long)st[1].chunks);
    product_free(&pr);
}

static void test_failures(void)
{
    faulty = *cpu.api;
    faulty.last_error = faulty_last_error;
    faulty.gemm = faulty_gemm;
    faulty.gemm_async = faulty_gemm_async;
    faulty.stream_synchronize = faulty_sync;
    faulty.buffer_alloc = faulty_alloc;
    arm(3, 0, 0);
    expect_failure("blocking gemm", 0, "simulated device lost in gemm", GH_ERROR, 0, 0);
    arm(3, 0, 0);
    expect_failure("gemm_async", 1, "simulated launch failure in gemm_async", GH_ERROR, 3000, 0);
    arm(0, 4, 0);
    expect_failure("stream_synchronize", 1, "simulated fault found at stream_synchronize", GH_ERROR, 0, 0);
    arm(0, 0, 2);
    expect_failure("buffer_alloc at setup", 1, "simulated out of device memory", GH_OUT_OF_MEMORY, 0, 1);
    arm(0, 0, 0);

    /* Refused before anything runs: a limit too small, a dtype the kernel lacks. */
    product pr;
    product_make(&pr, GH_F32, 0, 0, 20, 20, 20, 1, 0, 3);
    gh_split_member one = cpu_member("cpu", 0, NULL, 1, 0);
    gh_split_member_stats st[1];
    gh_split_outcome out = {.members = st};
    EXPECT(product_run(&pr, &one, 1, 8, 100, &out) == GH_OUT_OF_MEMORY && strstr(out.error, "too small for one panel"),
           "limit too small: %s", out.error);
    gh_kernel_info f64_only = *one.kernel_info;
    f64_only.dtypes = GH_DTYPE_BIT(GH_F64);
    one.kernel_info = &f64_only;
    EXPECT(product_run(&pr, &one, 1, 8, 0, &out) == GH_UNSUPPORTED && strstr(out.error, "has no f32"), "dtype: %s",
           out.error);
    product_free(&pr);
}

int main(int argc, char **argv)
{
    check_quiet = 1; /* failures and the summary only */
    test_sizes_not_divisible();
    test_mem_limit_forces_streaming();
    test_mem_limit_too_small();
    test_large_sizes();
    if (argc < 2 || gh_plugin_load(argv[1], &cpu) != 0 || cpu.api->open(NULL, 0, &cpu_ctx[0]) != GH_OK ||
        cpu.api->open(NULL, 0, &cpu_ctx[1]) != GH_OK) {
        EXPECT(0, "cannot load the C plugin from %s: %s", argc > 1 ? argv[1] : "(no path given)",
               cpu.error ? cpu.error : "open failed");
    } else {
        test_products();
        test_failures();
        cpu.api->close(cpu_ctx[0]);
        cpu.api->close(cpu_ctx[1]);
    }
    gh_plugin_unload(&cpu);
    return check_summary("test_split");
}
