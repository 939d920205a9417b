/* The [run] section: its keys (with their defaults, the built-in default
 * config's values), each parsed into gh_run_config, and the checks across
 * them. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config_check.h"
#include "loader.h"
#include "util.h"

/* -- [run] -- */

static const char *const dtype_names[] = {"f32", "f64", "i32", "f16", "bf16", "e4m3", "e5m2", "i8"};
static const char *const trans_names[] = {"nn", "nt", "tn", "tt"}; /* index = 2 * a + b */
static const char *const verify_names[] = {"auto", "full", "freivalds", "sample", "none"};
_Static_assert(GH_F32 == 0 && GH_F64 == 1 && GH_I32 == 2 && GH_F16 == 3 && GH_BF16 == 4 && GH_E4M3 == 5 &&
                   GH_E5M2 == 6 && GH_I8 == 7 && GH_DTYPE_COUNT == 8,
               "dtype_names follows gh_dtype");
_Static_assert(GH_VERIFY_AUTO == 0 && GH_VERIFY_FULL == 1 && GH_VERIFY_FREIVALDS == 2 && GH_VERIFY_SAMPLE == 3 &&
                   GH_VERIFY_NONE == 4,
               "verify_names follows gh_verify_method");

typedef struct run_key run_key;
typedef int (*run_setter)(loader *, const section *, const entry *, const run_key *, gh_run_config *);

/* A [run] key: its default (as text, parsed like the file's) and where it goes. */
struct run_key {
    const char *name;
    const char *def; /* NULL: no default, the member stays zero */
    run_setter set;
    size_t offset;  /* of the member in gh_run_config */
    int64_t lo, hi; /* range of integer keys */
};

#define MEMBER(run, key, type) ((type *)((char *)(run) + (key)->offset))

/* "N" or "MxNxK", each from 1 to MAX_DIM. */
static int parse_shape(const char *text, gh_shape *out)
{
    int64_t d[3];
    int n = 0, rc = 0;
    char *copy = gh_strdup(text), *p = copy;
    for (;;) {
        char *x = p + strcspn(p, "xX");
        int last = *x == '\0';
        *x = '\0';
        if (n == 3 || gh_parse_int64(ini_trim(p), &d[n]) != 0 || d[n] < 1 || d[n] > MAX_DIM) {
            rc = -1;
            break;
        }
        n++;
        if (last) break;
        p = x + 1;
    }
    free(copy);
    if (rc != 0 || n == 2) return -1;
    out->m = d[0];
    out->n = n == 3 ? d[1] : d[0];
    out->k = n == 3 ? d[2] : d[0];
    return 0;
}

static int set_sizes(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    (void)key;
    char **items;
    size_t n;
    if (cfg_get_list(ld, s, e, &items, &n) != 0) return -1;
    free(run->sizes);
    run->sizes = gh_xrealloc(NULL, n * sizeof(gh_shape));
    run->n_sizes = 0;
    run->sizes_origin = cfg_origin_of(ld, e);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        gh_shape sh;
        if (parse_shape(items[i], &sh) != 0) {
            rc = ini_fail_key(ld, s, e, "\"%s\" is not a size: write N for NxNxN, or MxNxK, each from 1 to %lld",
                              ini_show(ld, items[i]), MAX_DIM);
            break;
        }
        for (size_t j = 0; j < run->n_sizes && rc == 0; j++)
            if (run->sizes[j].m == sh.m && run->sizes[j].n == sh.n && run->sizes[j].k == sh.k)
                rc = ini_fail_key(ld, s, e, "\"%s\" repeats an earlier size", ini_show(ld, items[i]));
        run->sizes[run->n_sizes++] = sh;
    }
    ini_free_strings(items, n);
    return rc;
}

static int set_dtypes(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    (void)key;
    int *idx;
    size_t n;
    run->dtype_auto = strcasecmp(e->value, "auto") == 0;
    if (run->dtype_auto) { /* every dtype: the plan keeps those some kernel runs */
        /* but the 8-bit ones: they need a C type chosen, and a default run
         * keeps the rows it always had (docs/configuration.md) */
        free(run->dtypes);
        run->dtypes = gh_xrealloc(NULL, GH_DTYPE_COUNT * sizeof(gh_dtype));
        run->n_dtypes = 0;
        for (int d = 0; d < GH_DTYPE_COUNT; d++)
            if (!gh_dtype_is_8bit((gh_dtype)d)) run->dtypes[run->n_dtypes++] = (gh_dtype)d;
        return 0;
    }
    if (cfg_get_choice_list(ld, s, e, "a dtype", dtype_names, GH_DTYPE_COUNT, &idx, &n) != 0) return -1;
    free(run->dtypes);
    run->dtypes = gh_xrealloc(NULL, n * sizeof(gh_dtype));
    for (size_t i = 0; i < n; i++) run->dtypes[i] = (gh_dtype)idx[i];
    run->n_dtypes = n;
    free(idx);
    return 0;
}

static int set_trans(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    (void)key;
    int *idx;
    size_t n;
    if (cfg_get_choice_list(ld, s, e, "a transpose", trans_names, 4, &idx, &n) != 0) return -1;
    free(run->trans);
    run->trans = gh_xrealloc(NULL, n * sizeof(gh_trans));
    for (size_t i = 0; i < n; i++) {
        run->trans[i].a = idx[i] >> 1;
        run->trans[i].b = idx[i] & 1;
    }
    run->n_trans = n;
    free(idx);
    return 0;
}

static int set_verify(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    (void)key;
    const char *v;
    int idx = 0;
    if (cfg_get_single(ld, s, e, &v) != 0 || cfg_get_choice(ld, s, e, v, "a verify method", verify_names, 5, &idx) != 0)
        return -1;
    run->verify = (gh_verify_method)idx;
    return 0;
}

/* A finite number; lo = 0 makes it non-negative, INT64_MIN leaves it free. */
static int set_double(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    const char *v;
    double d;
    if (cfg_get_single(ld, s, e, &v) != 0) return -1;
    int rc = cfg_parse_double(v, &d);
    if (rc == -2)
        return ini_fail_key(ld, s, e, "\"%s\" is not a number a double can hold (its magnitude is above %g)",
                            ini_show(ld, v), DBL_MAX);
    if (rc != 0) return ini_fail_key(ld, s, e, "\"%s\" is not a number", ini_show(ld, v));
    if (key->lo == 0 && d < 0)
        return ini_fail_key(ld, s, e, "\"%s\" is negative (give a number >= 0)", ini_show(ld, v));
    *MEMBER(run, key, double) = d;
    return 0;
}

static int set_int(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    int64_t v = 0;
    if (cfg_get_int(ld, s, e, key->lo, key->hi, &v) != 0) return -1;
    *MEMBER(run, key, int) = (int)v;
    return 0;
}

static int set_int64(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    return cfg_get_int(ld, s, e, key->lo, key->hi, MEMBER(run, key, int64_t));
}

static int set_seed(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    (void)key;
    const char *v;
    if (cfg_get_single(ld, s, e, &v) != 0) return -1;
    if (cfg_parse_uint64(v, &run->seed) != 0)
        return ini_fail_key(ld, s, e, "\"%s\" is not a seed (an integer from 0 to 18446744073709551615, or 0x hex)",
                            ini_show(ld, v));
    return 0;
}

/* output: one prefix; "" writes no files. */
static int set_output(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    (void)key;
    const char *v;
    if (cfg_get_single(ld, s, e, &v) != 0) return -1;
    free(run->output);
    run->output = gh_strdup(v);
    return 0;
}

static int set_plugin_dirs(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    (void)key;
    ini_free_strings(run->plugin_dirs, run->n_plugin_dirs);
    run->plugin_dirs = NULL;
    run->n_plugin_dirs = 0;
    if (cfg_get_list(ld, s, e, &run->plugin_dirs, &run->n_plugin_dirs) != 0) return -1;
    for (size_t i = 0; i < run->n_plugin_dirs; i++) cfg_resolve_in_config_dir(ld, e, &run->plugin_dirs[i]);
    return 0;
}

static const char *const isolation_names[] = {"process", "none"};

static int set_isolation(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    (void)key;
    const char *v;
    int idx = 0;
    if (cfg_get_single(ld, s, e, &v) != 0 || cfg_get_choice(ld, s, e, v, "an isolation", isolation_names, 2, &idx) != 0)
        return -1;
    run->isolation = (gh_isolation)idx;
    return 0;
}

static const char *const memory_check_names[] = {"refuse", "warn"};

static int set_memory_check(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    (void)key;
    const char *v;
    int idx = 0;
    if (cfg_get_single(ld, s, e, &v) != 0 ||
        cfg_get_choice(ld, s, e, v, "a memory check", memory_check_names, 2, &idx) != 0)
        return -1;
    run->memory_check = (gh_memory_check)idx;
    return 0;
}

static int set_timeout(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    (void)key;
    return cfg_get_timeout(ld, s, e, &run->timeout);
}

static int set_tune_budget(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    (void)key;
    return cfg_get_tune_budget(ld, s, e, &run->tune_budget);
}

/* tune_cache: a path, relative to the config file's folder; "" for the default. */
static int set_tune_cache(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    (void)key;
    const char *v;
    if (cfg_get_single(ld, s, e, &v) != 0) return -1;
    free(run->tune_cache);
    run->tune_cache = gh_strdup(v);
    if (*v) cfg_resolve_in_config_dir(ld, e, &run->tune_cache);
    return 0;
}

/* throttle_clock_fraction: above 0, at most 1. */
static int set_fraction(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    const char *v;
    double d;
    if (cfg_get_single(ld, s, e, &v) != 0) return -1;
    if (cfg_parse_double(v, &d) != 0 || !(d > 0 && d <= 1))
        return ini_fail_key(ld, s, e, "\"%s\" is not a fraction above 0 and at most 1 (e.g. 0.9)", ini_show(ld, v));
    *MEMBER(run, key, double) = d;
    return 0;
}
/* The keys of how a result is measured live in config_measure.c. */
#define MEASURE_KEY(fn)                                                                                       \
    static int fn##_key(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run) \
    {                                                                                                         \
        (void)key;                                                                                            \
        return fn(ld, s, e, run);                                                                             \
    }
MEASURE_KEY(cfg_set_cache)
MEASURE_KEY(cfg_set_repeat)
MEASURE_KEY(cfg_set_flush_size)
MEASURE_KEY(cfg_set_max_time)
MEASURE_KEY(cfg_set_target_spread)
MEASURE_KEY(cfg_set_batch)
MEASURE_KEY(cfg_set_batch_below)
MEASURE_KEY(cfg_set_b_dtype)
MEASURE_KEY(cfg_set_c_dtype)

/* A size in bytes, 0 allowed (key fleet_outputs_max). */
static int set_bytes(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    const char *v;
    if (cfg_get_single(ld, s, e, &v) != 0) return -1;
    if (gh_parse_size_bytes(v, MEMBER(run, key, uint64_t)) != 0)
        return ini_fail_key(ld, s, e,
                            "\"%s\" is not a size in bytes (e.g. 1M, 64K, 1MiB; K, M, G are powers of 1024; 0 = "
                            "none)",
                            ini_show(ld, v));
    return 0;
}

static int set_scale(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    return cfg_set_scale(ld, s, e, MEMBER(run, key, double));
}

/* The defaults are the built-in default config's values (gh_default_config_text
 * spells them out), but for dtype: the built-in default's `auto` lets each
 * kernel choose, a config's default is the listed three. */
#define RUN_OFF(member) offsetof(gh_run_config, member)
static const run_key run_keys[] = {
    {"sizes", "64, 100x75x50, 37x53x29, 1x1x1, 129x31x65", set_sizes, 0, 0, 0},
    {"dtype", "f32, f64, i32", set_dtypes, 0, 0, 0},
    {"b_dtype", "same", cfg_set_b_dtype_key, 0, 0, 0},
    {"c_dtype", "auto", cfg_set_c_dtype_key, 0, 0, 0},
    {"scale_a", "1", set_scale, RUN_OFF(scale_a), 0, 0},
    {"scale_b", "1", set_scale, RUN_OFF(scale_b), 0, 0},
    {"scale_c", "1", set_scale, RUN_OFF(scale_c), 0, 0},
    {"trans", "nn, tt", set_trans, 0, 0, 0},
    {"alpha", "1", set_double, RUN_OFF(alpha), INT64_MIN, 0},
    {"beta", "0", set_double, RUN_OFF(beta), INT64_MIN, 0},
    {"warmup", "1", set_int, RUN_OFF(warmup), 0, MAX_COUNT},
    {"repeat", "3", cfg_set_repeat_key, 0, 0, 0},
    {"min_repeat", "5", set_int, RUN_OFF(min_repeat), 1, MAX_COUNT},
    {"max_repeat", "100", set_int, RUN_OFF(max_repeat), 1, MAX_COUNT},
    {"max_time", "10s", cfg_set_max_time_key, 0, 0, 0},
    {"target_spread", "0.02", cfg_set_target_spread_key, 0, 0, 0},
    {"cache", "warm", cfg_set_cache_key, 0, 0, 0},
    {"flush_size", "256M", cfg_set_flush_size_key, 0, 0, 0},
    {"batch", "1", cfg_set_batch_key, 0, 0, 0},
    {"batch_below", "20us", cfg_set_batch_below_key, 0, 0, 0},
    {"seed", "1", set_seed, 0, 0, 0},
    {"verify", "auto", set_verify, 0, 0, 0},
    {"full_max", "268435456", set_double, RUN_OFF(full_max_flops), 0, 0}, /* 2 * 512^3 */
    {"freivalds_trials", "3", set_int, RUN_OFF(freivalds_trials), 1, 1000},
    {"samples", "4096", set_int64, RUN_OFF(samples), 1, 1000000000},
    {"ld_pad", "3", set_int64, RUN_OFF(ld_pad), 0, MAX_PAD},
    {"guard", "64", set_int64, RUN_OFF(guard), 0, MAX_PAD},
    {"output", "gemmhost-results", set_output, 0, 0, 0},
    {"plugin_dir", NULL, set_plugin_dirs, 0, 0, 0},
    {"isolation", "process", set_isolation, 0, 0, 0},
    {"timeout", "auto", set_timeout, 0, 0, 0},
    {"tune_budget", "120s", set_tune_budget, 0, 0, 0},
    {"tune_cache", "", set_tune_cache, 0, 0, 0},
    {"throttle_clock_fraction", "0.9", set_fraction, RUN_OFF(throttle_clock_fraction), 0, 0},
    {"memory_check", "refuse", set_memory_check, 0, 0, 0},
    {"fleet_outputs_max", "0", set_bytes, RUN_OFF(fleet_outputs_max), 0, 0},
};
#define N_RUN_KEYS (sizeof run_keys / sizeof run_keys[0])

static const run_key *find_run_key(const char *name)
{
    for (size_t i = 0; i < N_RUN_KEYS; i++)
        if (strcmp(run_keys[i].name, name) == 0) return &run_keys[i];
    return NULL;
}

static int unknown_run_key(loader *ld, const section *s, const entry *e)
{
    const char *names[N_RUN_KEYS];
    for (size_t i = 0; i < N_RUN_KEYS; i++) names[i] = run_keys[i].name;
    char allowed[512];
    ini_join_names(names, N_RUN_KEYS, allowed, sizeof allowed);
    return ini_fail_key(ld, s, e, "unknown key (allowed: %s)", allowed);
}

/* The largest magnitude a dtype holds: a larger alpha or beta becomes
 * infinite in the kernels (1e300 in f32) and fails every backend. */
static double dtype_max(gh_dtype d)
{
    switch (d) {
    case GH_F32: return FLT_MAX;
    case GH_F16: return 65504.0;
    case GH_BF16: return 3.3895313892515355e38; /* 0x7F7F: (2 - 2^-7) * 2^127 */
    case GH_I32: return 2147483647.0;
    default: return DBL_MAX;
    }
}

/* alpha and beta against every dtype the run has; i32 runs take them as
 * int32, so a fraction would be cut silently. */
static int check_scalars(loader *ld, const section *s, gh_run_config *run)
{
    const char *names[2] = {"alpha", "beta"};
    double values[2] = {run->alpha, run->beta};
    if (run->dtype_auto) { /* auto keeps only the dtypes that hold alpha and beta (i32: whole numbers) */
        size_t kept = 0;
        for (size_t d = 0; d < run->n_dtypes; d++) {
            gh_dtype t = run->dtypes[d];
            int fits = 1;
            for (int i = 0; i < 2; i++)
                fits &= fabs(values[i]) <= dtype_max(t) && (t != GH_I32 || values[i] == floor(values[i]));
            if (fits) run->dtypes[kept++] = t;
        }
        run->n_dtypes = kept;
    }
    for (int i = 0; i < 2; i++) {
        const entry *e = ini_find_entry(s, names[i]);
        for (size_t d = 0; e && d < run->n_dtypes; d++) {
            const gh_dtype dtype = run->dtypes[d];
            gh_dtype t = gh_run_case_types(run, dtype).c; /* alpha and beta act on C's type */
            if (t == GH_I32 && (values[i] != floor(values[i]) || fabs(values[i]) > dtype_max(t)))
                return ini_fail_key(ld, s, e,
                                    "\"%s\" is not a whole number from -2147483647 to 2147483647, "
                                    "which dtype %s needs",
                                    ini_show(ld, e->value), dtype_names[dtype]);
            if (fabs(values[i]) > dtype_max(t))
                return ini_fail_key(ld, s, e,
                                    "\"%s\" is outside the range of dtype %s (largest magnitude %g); give a smaller "
                                    "%s, or leave %s out of dtype",
                                    ini_show(ld, e->value), dtype_names[t], dtype_max(t), names[i], dtype_names[dtype]);
        }
    }
    return 0;
}

int cfg_check_run(loader *ld, gh_run_config *run)
{
    const section *s = ini_run_section(ld);
    for (size_t i = 0; i < s->n_entries; i++) {
        const entry *e = &s->entries[i];
        const run_key *key = find_run_key(e->key);
        if (!key) return unknown_run_key(ld, s, e);
        if (key->set(ld, s, e, key, run) != 0) return -1;
    }
    for (size_t i = 0; i < N_RUN_KEYS; i++) {
        const run_key *key = &run_keys[i];
        if (!key->def || ini_find_entry(s, key->name)) continue;
        entry def = {(char *)key->name, (char *)key->def, 0, NULL};
        if (key->set(ld, s, &def, key, run) != 0) return -1;
    }
    if (cfg_check_measure(ld, s, run) != 0 || cfg_check_types(ld, s, run) != 0) return -1;
    return check_scalars(ld, s, run);
}
