/* The C plugin's worker threads (plugins/cpu/cpu_pool.c): the pool on its
 * own, then through the plugin's ABI as the host uses it.
 *   test_cpu_pool PATH/gemmhost-cpu.so
 *
 * Threads are counted in /proc/self/task, leaving out any that is exiting
 * (PF_EXITING): a joined thread may stay listed for a moment after
 * pthread_join returns, and it is already exiting then. No check depends on
 * time: kernel_ms is checked for being a time, never for its size. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"
#include "gemmhost/plugin.h"
#include "gemm_args.h"
#include "plugin_handle.h"
#include "reference.h"
#include "seeded.h"

#define CHECK_MAIN /* this file holds the check counters */
#include "../check.h"

/* ---- the process's live threads ---------------------------------------- */

#define PF_EXITING 0x4 /* linux/sched.h: the task has begun to exit */
#define MAX_TIDS   4096

typedef struct tid_set {
    int n;
    long tids[MAX_TIDS];
} tid_set;

/* 1 when the task is listed and not exiting. */
static int task_alive(long tid)
{
    char path[64], line[1024];
    snprintf(path, sizeof path, "/proc/self/task/%ld/stat", tid);
    FILE *f = fopen(path, "r");
    if (!f) return 0; /* gone since the listing */
    size_t got = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[got] = '\0';
    /* After the name in parentheses: state ppid pgrp session tty_nr tpgid flags. */
    const char *p = strrchr(line, ')');
    unsigned long flags = 0;
    if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %lu", &flags) != 1) return 1;
    return !(flags & PF_EXITING);
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* The live threads' ids, sorted. */
static void live_threads(tid_set *s)
{
    s->n = 0;
    DIR *d = opendir("/proc/self/task");
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) && s->n < MAX_TIDS) {
        char *end;
        long tid = strtol(e->d_name, &end, 10);
        if (*end || end == e->d_name) continue;
        if (task_alive(tid)) s->tids[s->n++] = tid;
    }
    closedir(d);
    qsort(s->tids, (size_t)s->n, sizeof s->tids[0], cmp_long);
}

static int same_threads(const tid_set *a, const tid_set *b)
{
    return a->n == b->n && memcmp(a->tids, b->tids, (size_t)a->n * sizeof a->tids[0]) == 0;
}

/* ---- the pool on its own ------------------------------------------------ */

typedef struct count_job {
    atomic_int runs[16]; /* times each part ran */
    int fail_part;       /* this part reports failure; -1: none */
} count_job;

static int count_part(void *arg, int part)
{
    count_job *j = arg;
    atomic_fetch_add(&j->runs[part], 1);
    return part == j->fail_part ? -1 : 0;
}

typedef struct runner {
    cpu_pool *pool;
    int rounds, bad;
} runner;

/* Many runs of every width from one thread; counts runs whose parts did not
 * each run exactly once. */
static void *run_rounds(void *arg)
{
    runner *r = arg;
    for (int i = 0; i < r->rounds; i++) {
        count_job job = {.fail_part = -1};
        int n = 1 + i % 5;
        int rc = cpu_pool_run(r->pool, n, count_part, &job, NULL);
        int ok = rc == 0;
        for (int p = 0; p < 16; p++) ok &= atomic_load(&job.runs[p]) == (p < n);
        r->bad += !ok;
    }
    return NULL;
}

static void test_pool(void)
{
    tid_set before, after;
    live_threads(&before);
    cpu_pool *pool = cpu_pool_create(5);
    EXPECT(pool != NULL, "a pool 5 wide");
    if (!pool) return;
    live_threads(&after);
    EXPECT(same_threads(&before, &after), "no thread starts before the first run (%d, then %d)", before.n, after.n);

    count_job job = {.fail_part = -1};
    double ms = -1;
    int rc = cpu_pool_run(pool, 5, count_part, &job, &ms);
    int once = 1;
    for (int p = 0; p < 16; p++) once &= atomic_load(&job.runs[p]) == (p < 5);
    EXPECT(rc == 0 && once, "a run of 5 parts runs each once and no other (rc %d)", rc);
    EXPECT(isfinite(ms) && ms >= 0, "elapsed_ms is a time (%g)", ms);
    live_threads(&after);
    EXPECT(after.n == before.n + 4, "the first run starts 4 threads: the caller runs part 0 (%d, then %d)", before.n,
           after.n);

    count_job bad = {.fail_part = 3};
    EXPECT(cpu_pool_run(pool, 5, count_part, &bad, NULL) == -1, "a part that fails fails the run");
    count_job none = {.fail_part = -1};
    EXPECT(cpu_pool_run(pool, 0, count_part, &none, NULL) == EINVAL &&
               cpu_pool_run(pool, 6, count_part, &none, NULL) == EINVAL && atomic_load(&none.runs[0]) == 0,
           "0 parts, or more than the width, are refused and run nothing");

    /* Runs from four threads at once take turns. */
    runner runners[4];
    pthread_t threads[4];
    int made = 0;
    for (int i = 0; i < 4; i++) {
        runners[i] = (runner){pool, 200, 0};
        if (pthread_create(&threads[i], NULL, run_rounds, &runners[i]) == 0) made++;
        else break;
    }
    int bad_runs = 0;
    for (int i = 0; i < made; i++) {
        pthread_join(threads[i], NULL);
        bad_runs += runners[i].bad;
    }
    EXPECT(made == 4 && bad_runs == 0, "4 threads x 200 runs of 1 to 5 parts: %d runs wrong", bad_runs);

    cpu_pool_destroy(pool);
    live_threads(&after);
    EXPECT(same_threads(&before, &after), "destroy joins the threads (%d, then %d)", before.n, after.n);
    cpu_pool_destroy(NULL);

    /* Width 1: the caller alone, no thread ever. */
    pool = cpu_pool_create(1);
    count_job one = {.fail_part = -1};
    EXPECT(pool && cpu_pool_run(pool, 1, count_part, &one, NULL) == 0 && atomic_load(&one.runs[0]) == 1,
           "a pool 1 wide runs its part");
    live_threads(&after);
    EXPECT(same_threads(&before, &after), "a pool 1 wide starts no thread (%d, then %d)", before.n, after.n);
    cpu_pool_destroy(pool);
}

/* ---- through the plugin ------------------------------------------------- */

static gh_plugin *open_with_threads(const gh_plugin_api *api, int threads)
{
    char value[16];
    snprintf(value, sizeof value, "%d", threads);
    gh_option_value opt = {"threads", value};
    gh_plugin *ctx = NULL;
    gh_status st = api->open(&opt, 1, &ctx);
    EXPECT(st == GH_OK && ctx, "open with threads=%d: %s", threads, st == GH_OK ? "" : api->last_error(NULL));
    return st == GH_OK ? ctx : NULL;
}

/* One GEMM on small integers, whose products and sums every dtype holds
 * exactly, checked element by element against a plain loop; padded leading
 * dimensions and offsets. Returns 0 when correct. */
typedef struct gemm_case {
    gh_dtype dtype;
    int trans_a, trans_b;
    int64_t m, n, k;
    const char *kernel;
    int64_t tile;
} gemm_case;

static double element(int matrix, int64_t i, int64_t j)
{
    return (double)((i * 7 + j * 3 + matrix * 5) % 9) - 4;
}

static int run_case(const gh_plugin_api *api, gh_plugin *ctx, const gemm_case *c, gh_gemm_timing *timing)
{
    const size_t elem = gh_test_elem_size(c->dtype);
    const int64_t off = 3, pad = 2;
    const int64_t a_rows = c->trans_a ? c->k : c->m, a_cols = c->trans_a ? c->m : c->k;
    const int64_t b_rows = c->trans_b ? c->n : c->k, b_cols = c->trans_b ? c->k : c->n;
    const int64_t lda = a_cols + pad, ldb = b_cols + pad, ldc = c->n + pad;
    const int64_t a_n = off + a_rows * lda, b_n = off + b_rows * ldb, c_n = off + c->m * ldc;
    const uint64_t a_bytes = (uint64_t)a_n * elem, b_bytes = (uint64_t)b_n * elem, c_bytes = (uint64_t)c_n * elem;
    void *a = calloc((size_t)a_n, elem), *b = calloc((size_t)b_n, elem), *cc = calloc((size_t)c_n, elem);
    int wrong = -1;
    gh_buffer *ba = NULL, *bb = NULL, *bc = NULL;
    if (!a || !b || !cc) goto out;
    for (int64_t r = 0; r < a_rows; r++)
        for (int64_t q = 0; q < a_cols; q++) gh_test_put(c->dtype, a, off + r * lda + q, element(0, r, q));
    for (int64_t r = 0; r < b_rows; r++)
        for (int64_t q = 0; q < b_cols; q++) gh_test_put(c->dtype, b, off + r * ldb + q, element(1, r, q));
    for (int64_t r = 0; r < c->m; r++)
        for (int64_t q = 0; q < c->n; q++) gh_test_put(c->dtype, cc, off + r * ldc + q, element(2, r, q));
    if (api->buffer_alloc(ctx, 0, a_bytes, &ba) || api->buffer_alloc(ctx, 0, b_bytes, &bb) ||
        api->buffer_alloc(ctx, 0, c_bytes, &bc) || api->upload(ctx, ba, 0, a, a_bytes) ||
        api->upload(ctx, bb, 0, b, b_bytes) || api->upload(ctx, bc, 0, cc, c_bytes))
        goto out;
    int kernel = gh_test_find_kernel(api, ctx, c->kernel);
    const gh_test_problem problem = {c->dtype, c->trans_a, c->trans_b, c->m, c->n, c->k, 2, -1};
    gh_gemm_args args = gh_test_gemm_args(
        &problem, (gh_test_operand){ba, lda, (uint64_t)off}, (gh_test_operand){bb, ldb, (uint64_t)off},
        (gh_test_operand){bc, ldc, (uint64_t)off}, &c->tile, strcmp(c->kernel, "tiled") == 0);
    if (api->gemm(ctx, 0, kernel, &args, timing) != GH_OK) {
        fprintf(stderr, "gemm: %s\n", api->last_error(ctx));
        goto out;
    }
    void *got = malloc((size_t)c_n * elem);
    if (!got || api->download(ctx, bc, 0, got, c_bytes)) {
        free(got);
        goto out;
    }
    /* The f64 reference is exact on these small integers. */
    double *op_a = malloc((size_t)(c->m * c->k) * sizeof(double)),
           *op_b = malloc((size_t)(c->k * c->n) * sizeof(double));
    double *sum = malloc((size_t)(c->m * c->n) * sizeof(double)),
           *abs_sum = malloc((size_t)(c->m * c->n) * sizeof(double));
    if (op_a && op_b && sum && abs_sum) {
        for (int64_t i = 0; i < c->m; i++)
            for (int64_t p = 0; p < c->k; p++) op_a[i * c->k + p] = c->trans_a ? element(0, p, i) : element(0, i, p);
        for (int64_t p = 0; p < c->k; p++)
            for (int64_t j = 0; j < c->n; j++) op_b[p * c->n + j] = c->trans_b ? element(1, j, p) : element(1, p, j);
    }
    if (op_a && op_b && sum && abs_sum && gh_test_reference_products(c->m, c->n, c->k, op_a, op_b, sum, abs_sum) == 0) {
        wrong = 0;
        for (int64_t i = 0; i < c->m; i++)
            for (int64_t j = 0; j < c->n; j++)
                wrong +=
                    gh_test_get(c->dtype, got, (size_t)(off + i * ldc + j)) != 2 * sum[i * c->n + j] - element(2, i, j);
    } else {
        fprintf(stderr, "the reference: out of memory\n");
    }
    free(op_a);
    free(op_b);
    free(sum);
    free(abs_sum);
    free(got);
out:
    api->buffer_free(ctx, ba);
    api->buffer_free(ctx, bb);
    api->buffer_free(ctx, bc);
    free(a);
    free(b);
    free(cc);
    return wrong;
}

/* Odd shapes, M below and above the thread count, every dtype and transpose. */
static void test_results(const gh_plugin_api *api)
{
    static const int64_t shapes[][3] = {{1, 1, 1}, {2, 9, 1}, {7, 5, 3}, {13, 1, 17}, {37, 53, 29}};
    static const int thread_counts[] = {1, 2, 7};
    for (size_t t = 0; t < 3; t++) {
        gh_plugin *ctx = open_with_threads(api, thread_counts[t]);
        if (!ctx) continue;
        int cases = 0, bad = 0;
        for (size_t s = 0; s < 5; s++)
            for (int d = GH_F32; d <= GH_I32; d++) /* the pool's work is dtype-blind: the 32/64-bit types do */
                for (int tr = 0; tr < 4; tr++)
                    for (int kern = 0; kern < 2; kern++) {
                        gemm_case c = {(gh_dtype)d,
                                       tr >> 1,
                                       tr & 1,
                                       shapes[s][0],
                                       shapes[s][1],
                                       shapes[s][2],
                                       kern ? "tiled" : "naive",
                                       4};
                        gh_gemm_timing timing = {.size = sizeof timing, .kernel_ms = -1};
                        int wrong = run_case(api, ctx, &c, &timing);
                        cases++;
                        if (wrong != 0 || !isfinite(timing.kernel_ms) || timing.kernel_ms < 0 ||
                            timing.clock != GH_CLOCK_DEVICE) {
                            bad++;
                            fprintf(stderr,
                                    "threads=%d %s dtype %d trans %d%d %lldx%lldx%lld: %d wrong elements, "
                                    "kernel_ms %g\n",
                                    thread_counts[t], c.kernel, d, c.trans_a, c.trans_b, (long long)c.m, (long long)c.n,
                                    (long long)c.k, wrong, timing.kernel_ms);
                        }
                    }
        EXPECT(bad == 0, "threads=%d: %d of %d GEMMs right, with a device-clock kernel_ms", thread_counts[t],
               cases - bad, cases);
        api->close(ctx);
    }
}

/* The threads start at the first GEMM, the same ones run every later GEMM,
 * and close joins them. */
static void test_threads_kept(const gh_plugin_api *api)
{
    tid_set before, opened, first, later, closed;
    live_threads(&before);
    gh_plugin *ctx = open_with_threads(api, 7);
    if (!ctx) return;
    live_threads(&opened);
    EXPECT(same_threads(&before, &opened), "open starts no thread (%d, then %d)", before.n, opened.n);

    gemm_case tiny = {GH_F32, 0, 0, 1, 1, 1, "naive", 0};
    gh_gemm_timing timing = {.size = sizeof timing};
    EXPECT(run_case(api, ctx, &tiny, &timing) == 0, "the first 1x1x1 GEMM");
    live_threads(&first);
    EXPECT(first.n == before.n + 6, "the first GEMM starts the pool: 6 threads beside the caller (%d, then %d)",
           before.n, first.n);

    int bad = 0;
    gemm_case odd = {GH_F64, 1, 0, 37, 53, 29, "tiled", 8};
    for (int i = 0; i < 50; i++) bad += run_case(api, ctx, i % 2 ? &odd : &tiny, &timing) != 0;
    live_threads(&later);
    EXPECT(bad == 0, "50 more GEMMs right (%d wrong)", bad);
    EXPECT(same_threads(&first, &later), "50 more GEMMs run on the same threads, none started (%d, then %d)", first.n,
           later.n);

    api->close(ctx);
    live_threads(&closed);
    EXPECT(same_threads(&before, &closed), "close joins the pool's threads (%d before open, %d after close)", before.n,
           closed.n);
}

/* Contexts used from several threads at once, as the split does: each its
 * own pool, results right. */
typedef struct user {
    const gh_plugin_api *api;
    gh_plugin *ctx;
    int bad;
} user;

static void *use_context(void *arg)
{
    user *u = arg;
    gemm_case c = {GH_I32, 0, 1, 31, 17, 23, "tiled", 4};
    gh_gemm_timing timing = {.size = sizeof timing};
    for (int i = 0; i < 20; i++) u->bad += run_case(u->api, u->ctx, &c, &timing) != 0;
    return NULL;
}

static void test_contexts_in_threads(const gh_plugin_api *api)
{
    tid_set before, after;
    live_threads(&before);
    user users[3];
    pthread_t threads[3];
    int made = 0, bad = 0;
    for (int i = 0; i < 3; i++) {
        users[i] = (user){api, open_with_threads(api, 3), 0};
        if (!users[i].ctx) return;
    }
    for (int i = 0; i < 3; i++) {
        if (pthread_create(&threads[i], NULL, use_context, &users[i]) != 0) break;
        made++;
    }
    for (int i = 0; i < made; i++) {
        pthread_join(threads[i], NULL);
        bad += users[i].bad;
    }
    EXPECT(made == 3 && bad == 0, "3 contexts, each from its own thread, 20 GEMMs each: %d wrong", bad);
    for (int i = 0; i < 3; i++) api->close(users[i].ctx);
    live_threads(&after);
    EXPECT(same_threads(&before, &after), "every context's threads joined at close (%d, then %d)", before.n, after.n);
}

static void *nothing(void *arg)
{
    return arg;
}

int main(int argc, char **argv)
{
    check_quiet = 1; /* failures and the summary only */
    if (argc != 2) {
        fprintf(stderr, "usage: %s PATH/gemmhost-cpu.so\n", argv[0]);
        return 2;
    }
    /* A thread made and joined first, so a helper thread that a runtime
     * starts with the first pthread_create (TSan's) is there before any count. */
    pthread_t warm;
    if (pthread_create(&warm, NULL, nothing, NULL) == 0) pthread_join(warm, NULL);
    tid_set self;
    live_threads(&self);
    if (self.n < 1) {
        fprintf(stderr, "cannot list /proc/self/task: the thread checks need Linux's /proc\n");
        return 1;
    }
    test_pool();
    gh_test_plugin plugin;
    int loaded = gh_test_plugin_load(&plugin, argv[1]) == 0;
    EXPECT(loaded, "the cpu plugin loads%s%s", loaded ? "" : ": ", loaded ? "" : plugin.error);
    if (loaded) {
        test_threads_kept(plugin.api);
        test_results(plugin.api);
        test_contexts_in_threads(plugin.api);
        gh_test_plugin_unload(&plugin);
    }
    return check_summary("test_cpu_pool");
}
