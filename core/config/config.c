/* The run's INI config, read with inih and checked into a gh_config: steps 1
 * and 2 (the text, --set) are in config_ini.c, step 3 (gemmhost's schema)
 * here.
 *
 * Three steps, so that --set and the checks across sections see everything:
 *   1. read: inih walks the text through our line reader (read_line), which
 *      counts lines, strips comments and records section headers; every
 *      key = value lands as text in a raw section.
 *   2. override: each --set replaces or adds one key of one section.
 *   3. check: every key is parsed and range-checked into the gh_config,
 *      defaults fill what is missing, split members must be [backend]s.
 * The first error stops everything; its message names file, line, section,
 * key and what is allowed.
 *
 * The language, beyond inih's defaults:
 *  - Sections: [run], [backend NAME], [split NAME]; NAME is letters, digits,
 *    '_' and '-'. A backend and a split may not share a name (a split shows up
 *    in results like a backend).
 *  - ';' or '#' starts a comment at the start of a line or after whitespace.
 *    Debian's inih only strips ';', so the reader strips both itself.
 *  - Lists are comma-separated. An indented line without '=' continues the
 *    previous key's list (as in Python's configparser); an indented line with
 *    '=' is a key of its own, so indenting keys is harmless. Errors in a
 *    continued value name the key's line.
 *  - inih's line buffer is fixed when the library is built (200 bytes in
 *    Debian): a longer line is an error that says to continue the list on the
 *    next line, rather than being split silently.
 *  - [split NAME] kernel = "" (the default) means each member runs the first
 *    kernel of its [backend] section's kernels list, or the plugin's first
 *    kernel when that list is empty.
 *
 * Out of memory aborts: a config is a few kilobytes, and a half-read plan is
 * worse than a clear stop.
 */
#define _POSIX_C_SOURCE 200809L
#include "config.h"
#include "loader.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char gh_default_config_text[] =
    "; The built-in default. No [backend] section: every plugin and device\n"
    "; found runs every kernel. Small shapes, some not a multiple of any tile.\n"
    "[run]\n"
    "sizes   = 64, 100x75x50, 37x53x29, 1x1x1, 129x31x65\n"
    "dtype   = auto         ; f32, f64, i32 where a kernel has them, else its own (f16, bf16)\n"
    "trans   = nn, tt       ; both transposes, each on its own code path\n"
    "alpha   = 1\n"
    "beta    = 0            ; C starts as NaN: an unwritten element fails\n"
    "warmup  = 1\n"
    "repeat  = 3\n"
    "seed    = 1\n"
    "verify  = auto\n"
    "ld_pad  = 3            ; leading dimensions wider than the rows\n"
    "guard   = 64           ; guard elements around every matrix\n"
    "output  = gemmhost-results\n";

#include "config_ini.h"

#define MAX_DIM   2147483647LL /* 2^31 - 1: plugins may index with int32 */
#define MAX_COUNT 1000000LL    /* warmup, repeat */
#define MAX_PAD   1048576LL    /* ld_pad, guard */

/* ---- numbers --------------------------------------------------------- */

int gh_parse_int64(const char *s, int64_t *out)
{
    if (!s || !(isdigit((unsigned char)s[0]) || s[0] == '-' || s[0] == '+')) return -1;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end != '\0') return -1;
    *out = (int64_t)v;
    return 0;
}

/* Decimal, or hex with 0x; no sign (strtoull would wrap a '-'). */
static int parse_uint64(const char *s, uint64_t *out)
{
    if (!s || !isdigit((unsigned char)s[0])) return -1;
    int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    if (hex && !isxdigit((unsigned char)s[2])) return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, hex ? 16 : 10);
    if (errno || *end != '\0') return -1;
    *out = (uint64_t)v;
    return 0;
}

/* A finite number: 0, or -1 when the text is not a number (NaN and Inf
 * included), -2 when it is one beyond a double's range. strtod's ERANGE on
 * underflow still returns the nearest double (4.9e-324, a subnormal), so
 * only an infinite result is refused. */
static int parse_double(const char *s, double *out)
{
    if (!s || *s == '\0' || ini_is_blank(*s)) return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0') return -1;
    if (!isfinite(v)) return errno == ERANGE ? -2 : -1;
    *out = v;
    return 0;
}

/* "1024", "512M", "4G", "4GiB", "4GB": binary multiples, whole numbers. */
int gh_parse_size_bytes(const char *s, uint64_t *out)
{
    if (!s || !isdigit((unsigned char)s[0])) return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno) return -1;
    static const char units[] = "KMGT";
    const char *unit = *end ? strchr(units, toupper((unsigned char)*end)) : NULL;
    int shift = 0;
    if (unit) {
        shift = 10 * (int)(unit - units + 1);
        end++;
        if (*end == 'i' && end[1] == 'B') end++;
    }
    if (*end == 'B') end++;
    if (*end != '\0') return -1;
    if (shift && v > (UINT64_MAX >> shift)) return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

/* "120", "120s", "500ms", "2m", "1.5h": a duration in seconds, >= 0. */
int gh_parse_seconds(const char *s, double *out)
{
    if (!s || !(isdigit((unsigned char)s[0]) || s[0] == '.')) return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno == ERANGE || end == s || !isfinite(v) || v < 0) return -1;
    static const struct {
        const char *unit;
        double scale;
    } units[] = {{"", 1}, {"s", 1}, {"ms", 1e-3}, {"m", 60}, {"min", 60}, {"h", 3600}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(end, units[i].unit) == 0) {
            *out = v * units[i].scale;
            return 0;
        }
    return -1;
}

/* ---- step 3: checking values into the gh_config ------------------------ */

/* A key's file and line, or for an override "--set TEXT" (shortened), so a
 * later message names the override rather than "--set:0". */
static gh_origin origin_of(loader *ld, const entry *e)
{
    if (!e->set_text) return (gh_origin){ld->file, e->line};
    char **slot = ini_push(&ld->origin_texts, &ld->n_origin_texts, sizeof(char *));
    *slot = gh_strdupf("%s %s", SET_ORIGIN, ini_show(ld, e->set_text));
    return (gh_origin){*slot, 0};
}

/* A relative path written in a config file is relative to that file's
 * folder, wherever gemmhost runs; from --set or built-in text, to the working
 * directory. Replaces *path in place. */
static void resolve_in_config_dir(const loader *ld, const entry *e, char **path)
{
    if (!ld->dir || e->set_text || (*path)[0] == '/' || strcmp(ld->dir, ".") == 0) return;
    char *joined = gh_strdupf("%s/%s", ld->dir, *path);
    free(*path);
    *path = joined;
}

/* Scalar keys refuse a comma: "alpha = 1,5" is a list, not a number. */
static int get_single(loader *ld, const section *s, const entry *e, const char **out)
{
    *out = e->value;
    if (strchr(e->value, ','))
        return ini_fail_key(ld, s, e, "\"%s\" is a list; this key takes one value", ini_show(ld, e->value));
    return 0;
}

static int get_list(loader *ld, const section *s, const entry *e, char ***items, size_t *n)
{
    if (ini_split_list(e->value, items, n) != 0)
        return ini_fail_key(ld, s, e, "\"%s\" has an empty item (a doubled or trailing comma?)",
                            ini_show(ld, e->value));
    if (*n == 0) return ini_fail_key(ld, s, e, "the list is empty (give at least one value)");
    return 0;
}

/* A list of names where each may appear once (kernels, split members). */
static int get_unique_list(loader *ld, const section *s, const entry *e, char ***items, size_t *n)
{
    if (get_list(ld, s, e, items, n) != 0) return -1;
    for (size_t i = 0; i < *n; i++)
        for (size_t j = 0; j < i; j++)
            if (strcmp((*items)[i], (*items)[j]) == 0)
                return ini_fail_key(ld, s, e, "\"%s\" is listed twice", ini_show(ld, (*items)[i]));
    return 0;
}

static int get_int(loader *ld, const section *s, const entry *e, int64_t lo, int64_t hi, int64_t *out)
{
    const char *v;
    if (get_single(ld, s, e, &v) != 0) return -1;
    if (gh_parse_int64(v, out) != 0 || *out < lo || *out > hi)
        return ini_fail_key(ld, s, e, "\"%s\" is not an integer from %lld to %lld", ini_show(ld, v), (long long)lo,
                            (long long)hi);
    return 0;
}

/* One of names[], case-insensitive; *out is its index. */
static int get_choice(loader *ld, const section *s, const entry *e, const char *item, const char *what,
                      const char *const *names, int count, int *out)
{
    for (int i = 0; i < count; i++)
        if (strcasecmp(item, names[i]) == 0) {
            *out = i;
            return 0;
        }
    char allowed[256];
    ini_join_names(names, (size_t)count, allowed, sizeof allowed);
    return ini_fail_key(ld, s, e, "\"%s\" is not %s (allowed: %s)", ini_show(ld, item), what, allowed);
}

/* A list of choices, each once, as indexes into names[]. */
static int get_choice_list(loader *ld, const section *s, const entry *e, const char *what, const char *const *names,
                           int count, int **out, size_t *n_out)
{
    char **items;
    size_t n;
    if (get_list(ld, s, e, &items, &n) != 0) return -1;
    int *idx = gh_xrealloc(NULL, n * sizeof(int));
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        rc = get_choice(ld, s, e, items[i], what, names, count, &idx[i]);
        for (size_t j = 0; j < i && rc == 0; j++)
            if (idx[j] == idx[i]) rc = ini_fail_key(ld, s, e, "\"%s\" is listed twice", ini_show(ld, items[i]));
    }
    ini_free_strings(items, n);
    if (rc != 0) {
        free(idx);
        return -1;
    }
    *out = idx;
    *n_out = n;
    return 0;
}

/* -- [run] -- */

static const char *const dtype_names[] = {"f32", "f64", "i32", "f16", "bf16"};
static const char *const trans_names[] = {"nn", "nt", "tn", "tt"}; /* index = 2 * a + b */
static const char *const verify_names[] = {"auto", "full", "freivalds", "sample", "none"};
_Static_assert(GH_F32 == 0 && GH_F64 == 1 && GH_I32 == 2 && GH_F16 == 3 && GH_BF16 == 4 && GH_DTYPE_COUNT == 5,
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
    if (get_list(ld, s, e, &items, &n) != 0) return -1;
    free(run->sizes);
    run->sizes = gh_xrealloc(NULL, n * sizeof(gh_shape));
    run->n_sizes = 0;
    run->sizes_origin = origin_of(ld, e);
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
        free(run->dtypes);
        run->dtypes = gh_xrealloc(NULL, GH_DTYPE_COUNT * sizeof(gh_dtype));
        for (int d = 0; d < GH_DTYPE_COUNT; d++) run->dtypes[d] = (gh_dtype)d;
        run->n_dtypes = GH_DTYPE_COUNT;
        return 0;
    }
    if (get_choice_list(ld, s, e, "a dtype", dtype_names, GH_DTYPE_COUNT, &idx, &n) != 0) return -1;
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
    if (get_choice_list(ld, s, e, "a transpose", trans_names, 4, &idx, &n) != 0) return -1;
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
    if (get_single(ld, s, e, &v) != 0 || get_choice(ld, s, e, v, "a verify method", verify_names, 5, &idx) != 0)
        return -1;
    run->verify = (gh_verify_method)idx;
    return 0;
}

/* A finite number; lo = 0 makes it non-negative, INT64_MIN leaves it free. */
static int set_double(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    const char *v;
    double d;
    if (get_single(ld, s, e, &v) != 0) return -1;
    int rc = parse_double(v, &d);
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
    if (get_int(ld, s, e, key->lo, key->hi, &v) != 0) return -1;
    *MEMBER(run, key, int) = (int)v;
    return 0;
}

static int set_int64(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    return get_int(ld, s, e, key->lo, key->hi, MEMBER(run, key, int64_t));
}

static int set_seed(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    (void)key;
    const char *v;
    if (get_single(ld, s, e, &v) != 0) return -1;
    if (parse_uint64(v, &run->seed) != 0)
        return ini_fail_key(ld, s, e, "\"%s\" is not a seed (an integer from 0 to 18446744073709551615, or 0x hex)",
                            ini_show(ld, v));
    return 0;
}

/* output: one prefix; "" writes no files. */
static int set_output(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    (void)key;
    const char *v;
    if (get_single(ld, s, e, &v) != 0) return -1;
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
    if (get_list(ld, s, e, &run->plugin_dirs, &run->n_plugin_dirs) != 0) return -1;
    for (size_t i = 0; i < run->n_plugin_dirs; i++) resolve_in_config_dir(ld, e, &run->plugin_dirs[i]);
    return 0;
}

static const char *const isolation_names[] = {"process", "none"};

static int set_isolation(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    (void)key;
    const char *v;
    int idx = 0;
    if (get_single(ld, s, e, &v) != 0 || get_choice(ld, s, e, v, "an isolation", isolation_names, 2, &idx) != 0)
        return -1;
    run->isolation = (gh_isolation)idx;
    return 0;
}

/* timeout: seconds per plugin call (a number >= 0, 0 = none) or auto. */
static int get_timeout(loader *ld, const section *s, const entry *e, double *out)
{
    const char *v;
    if (get_single(ld, s, e, &v) != 0) return -1;
    if (strcasecmp(v, "auto") == 0) {
        *out = -1;
        return 0;
    }
    if (parse_double(v, out) != 0 || *out < 0)
        return ini_fail_key(ld, s, e,
                            "\"%s\" is not a timeout: give seconds (0 = none) or auto (60 s plus 100 times the call "
                            "at 1 GFLOP/s or 1 GB/s)",
                            ini_show(ld, v));
    return 0;
}

static int set_timeout(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    (void)key;
    return get_timeout(ld, s, e, &run->timeout);
}

/* tune_budget: how long the tuner searches one kernel (core/tune). */
static int get_tune_budget(loader *ld, const section *s, const entry *e, double *out)
{
    const char *v;
    if (get_single(ld, s, e, &v) != 0) return -1;
    if (gh_parse_seconds(v, out) != 0)
        return ini_fail_key(ld, s, e, "\"%s\" is not a duration (e.g. 120s, 500ms, 2m, 1h; a number alone is seconds)",
                            ini_show(ld, v));
    return 0;
}

static int set_tune_budget(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    (void)key;
    return get_tune_budget(ld, s, e, &run->tune_budget);
}

/* tune_cache: a path, relative to the config file's folder; "" for the default. */
static int set_tune_cache(loader *ld, const section *s, const entry *e, const run_key *key, gh_run_config *run)
{
    (void)key;
    const char *v;
    if (get_single(ld, s, e, &v) != 0) return -1;
    free(run->tune_cache);
    run->tune_cache = gh_strdup(v);
    if (*v) resolve_in_config_dir(ld, e, &run->tune_cache);
    return 0;
}

/* The defaults are the built-in default config's values (gh_default_config_text
 * spells them out), but for dtype: the built-in default's `auto` lets each
 * kernel choose, a config's default is the listed three. */
#define RUN_OFF(member) offsetof(gh_run_config, member)
static const run_key run_keys[] = {
    {"sizes", "64, 100x75x50, 37x53x29, 1x1x1, 129x31x65", set_sizes, 0, 0, 0},
    {"dtype", "f32, f64, i32", set_dtypes, 0, 0, 0},
    {"trans", "nn, tt", set_trans, 0, 0, 0},
    {"alpha", "1", set_double, RUN_OFF(alpha), INT64_MIN, 0},
    {"beta", "0", set_double, RUN_OFF(beta), INT64_MIN, 0},
    {"warmup", "1", set_int, RUN_OFF(warmup), 0, MAX_COUNT},
    {"repeat", "3", set_int, RUN_OFF(repeat), 1, MAX_COUNT},
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
            gh_dtype t = run->dtypes[d];
            if (t == GH_I32 && (values[i] != floor(values[i]) || fabs(values[i]) > dtype_max(t)))
                return ini_fail_key(ld, s, e,
                                    "\"%s\" is not a whole number from -2147483647 to 2147483647, "
                                    "which dtype i32 needs",
                                    ini_show(ld, e->value));
            if (fabs(values[i]) > dtype_max(t))
                return ini_fail_key(ld, s, e,
                                    "\"%s\" is outside the range of dtype %s (largest magnitude %g); give a smaller "
                                    "%s, or leave %s out of dtype",
                                    ini_show(ld, e->value), dtype_names[t], dtype_max(t), names[i], dtype_names[t]);
        }
    }
    return 0;
}

static int check_run(loader *ld, gh_run_config *run)
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
    return check_scalars(ld, s, run);
}

/* -- [backend NAME] -- */

static int get_nonempty(loader *ld, const section *s, const entry *e, const char *what, char **out)
{
    const char *v;
    if (get_single(ld, s, e, &v) != 0) return -1;
    if (*v == '\0') return ini_fail_key(ld, s, e, "the value is empty (give %s)", what);
    free(*out);
    *out = gh_strdup(v);
    return 0;
}

/* devices: "all", "hardware", "0, 2" or a name substring; the planner reads
 * it, so the list is kept as one string "0,2". */
static int get_devices(loader *ld, const section *s, const entry *e, char **out)
{
    char **items;
    size_t n;
    if (get_list(ld, s, e, &items, &n) != 0) return -1;
    size_t len = 1;
    for (size_t i = 0; i < n; i++) len += strlen(items[i]) + 1;
    free(*out);
    *out = gh_xrealloc(NULL, len);
    (*out)[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (i) strcat(*out, ",");
        strcat(*out, items[i]);
    }
    ini_free_strings(items, n);
    return 0;
}

/* Any other key: a kernel parameter or plugin option, checked by the planner. */
static int add_raw_key(loader *ld, const section *s, const entry *e, gh_backend_config *b)
{
    gh_raw_key *k = ini_push(&b->keys, &b->n_keys, sizeof(gh_raw_key));
    k->name = gh_strdup(e->key);
    k->origin = origin_of(ld, e);
    return get_list(ld, s, e, &k->values, &k->n_values);
}

static int get_yes_no(loader *ld, const section *s, const entry *e, int *out)
{
    static const char *const names[] = {"no", "yes", "false", "true", "0", "1", "off", "on"};
    const char *v;
    int idx = 0;
    if (get_single(ld, s, e, &v) != 0 || get_choice(ld, s, e, v, "yes or no", names, 8, &idx) != 0) return -1;
    *out = idx % 2;
    return 0;
}

static int backend_key(loader *ld, const section *s, const entry *e, gh_backend_config *b)
{
    if (strcmp(e->key, "plugin") == 0) {
        if (get_nonempty(ld, s, e, "a plugin name such as cpu, or a path to its .so", &b->plugin) != 0) return -1;
        if (gh_plugin_names_file(b->plugin)) resolve_in_config_dir(ld, e, &b->plugin);
        return 0;
    }
    if (strcmp(e->key, "devices") == 0) return get_devices(ld, s, e, &b->devices);
    if (strcmp(e->key, "kernels") == 0) return get_unique_list(ld, s, e, &b->kernels, &b->n_kernels);
    if (strcmp(e->key, "timeout") == 0) {
        b->has_timeout = 1;
        return get_timeout(ld, s, e, &b->timeout);
    }
    if (strcmp(e->key, "tune") == 0) return get_yes_no(ld, s, e, &b->tune);
    if (strcmp(e->key, "tune_budget") == 0) return get_tune_budget(ld, s, e, &b->tune_budget);
    return add_raw_key(ld, s, e, b);
}

static int check_backend(loader *ld, const section *s, gh_config *cfg)
{
    gh_backend_config *b = ini_push(&cfg->backends, &cfg->n_backends, sizeof(gh_backend_config));
    b->name = gh_strdup(s->name);
    b->origin = (gh_origin){ld->file, s->line};
    b->tune_budget = NAN;
    for (size_t i = 0; i < s->n_entries; i++)
        if (backend_key(ld, s, &s->entries[i], b) != 0) return -1;
    if (!b->plugin) b->plugin = gh_strdup(s->name);
    if (!b->devices) b->devices = gh_strdup("all");
    return 0;
}

/* -- [split NAME] -- */

static const char *const split_key_names[] = {"backends", "panel", "mem_limit", "kernel", "numa", "b_copy"};
/* In the order of gh_split_numa and gh_split_b_copy (split.h). */
static const char *const numa_names[] = {"auto", "off"};
static const char *const b_copy_names[] = {"auto", "host", "peer"};

static int get_mem_limit(loader *ld, const section *s, const entry *e, uint64_t *out)
{
    const char *v;
    if (get_single(ld, s, e, &v) != 0) return -1;
    if (gh_parse_size_bytes(v, out) != 0)
        return ini_fail_key(ld, s, e,
                            "\"%s\" is not a size in bytes (e.g. 1048576, 512M, 4G; "
                            "K, M, G, T are powers of 1024; 0 = no limit)",
                            ini_show(ld, v));
    return 0;
}

static int get_string(loader *ld, const section *s, const entry *e, char **out)
{
    const char *v;
    if (get_single(ld, s, e, &v) != 0) return -1;
    free(*out);
    *out = gh_strdup(v);
    return 0;
}

static int split_key(loader *ld, const section *s, const entry *e, gh_split_config *sp)
{
    if (strcmp(e->key, "backends") == 0) return get_unique_list(ld, s, e, &sp->backends, &sp->n_backends);
    if (strcmp(e->key, "panel") == 0) return get_int(ld, s, e, 1, MAX_DIM, &sp->panel);
    if (strcmp(e->key, "mem_limit") == 0) return get_mem_limit(ld, s, e, &sp->mem_limit);
    if (strcmp(e->key, "kernel") == 0) return get_string(ld, s, e, &sp->kernel);
    const char *v;
    if (strcmp(e->key, "numa") == 0)
        return get_single(ld, s, e, &v) != 0 ? -1 : get_choice(ld, s, e, v, "a NUMA mode", numa_names, 2, &sp->numa);
    if (strcmp(e->key, "b_copy") == 0)
        return get_single(ld, s, e, &v) != 0 ? -1
                                             : get_choice(ld, s, e, v, "a way to copy B", b_copy_names, 3, &sp->b_copy);
    char allowed[128];
    ini_join_names(split_key_names, 6, allowed, sizeof allowed);
    return ini_fail_key(ld, s, e, "unknown key (allowed: %s)", allowed);
}

static int check_split(loader *ld, const section *s, gh_config *cfg)
{
    gh_split_config *sp = ini_push(&cfg->splits, &cfg->n_splits, sizeof(gh_split_config));
    sp->name = gh_strdup(s->name);
    sp->origin = (gh_origin){ld->file, s->line};
    sp->panel = 2048;
    for (size_t i = 0; i < s->n_entries; i++)
        if (split_key(ld, s, &s->entries[i], sp) != 0) return -1;
    if (!sp->backends)
        return ini_fail_line(ld, s->line, "[split %s]: missing key backends (the [backend] sections to split over)",
                             s->name);
    if (!sp->kernel) sp->kernel = gh_strdup("");
    return 0;
}

/* Members may be defined after the split, so this runs last. */
static int check_split_members(loader *ld, const gh_config *cfg)
{
    for (size_t i = 0; i < cfg->n_splits; i++) {
        const gh_split_config *sp = &cfg->splits[i];
        for (size_t j = 0; j < sp->n_backends; j++) {
            if (ini_find_section(ld, SEC_BACKEND, sp->backends[j])) continue;
            const char *names[64] = {NULL};
            size_t n = 0;
            for (size_t b = 0; b < cfg->n_backends && n < 64; b++) names[n++] = cfg->backends[b].name;
            char have[512];
            ini_join_names(names, n, have, sizeof have);
            const section *s = ini_find_section(ld, SEC_SPLIT, sp->name);
            return ini_fail_key(ld, s, ini_find_entry(s, "backends"), "\"%s\" is not a [backend] section in %s (%s%s)",
                                ini_show(ld, sp->backends[j]), ld->file, n ? "backends: " : "there are none", have);
        }
    }
    return 0;
}

static int check_config(loader *ld, gh_config *cfg)
{
    if (check_run(ld, &cfg->run) != 0) return -1;
    for (size_t i = 0; i < ld->n_sections; i++) {
        const section *s = &ld->sections[i];
        if (s->kind == SEC_BACKEND && check_backend(ld, s, cfg) != 0) return -1;
        if (s->kind == SEC_SPLIT && check_split(ld, s, cfg) != 0) return -1;
    }
    if (check_split_members(ld, cfg) != 0) return -1;
    cfg->auto_backends = cfg->n_backends == 0;
    return 0;
}

/* ---- the public functions ----------------------------------------------- */

__attribute__((format(printf, 3, 4))) static void set_error(char *err, size_t err_size, const char *fmt, ...)
{
    if (!err || err_size == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
}

/* A file with no section (empty, only comments, /dev/null) is most likely
 * the wrong file: refused, not run as the built-in default. */
static int check_not_empty(loader *ld, int from_file)
{
    if (!from_file || ld->n_sections > 0) return 0;
    return ini_fail_line(ld, 0,
                         "the config is empty (no sections, no keys); write at least a [run] section, or leave out "
                         "--config to run the built-in default");
}

/* text: len bytes plus a terminating NUL, ours to cut into lines. */
static int load(char *text, size_t len, const char *name, int from_file, const char *const *overrides,
                size_t n_overrides, gh_config *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    out->path = gh_strdup(name);
    loader ld = {.file = out->path, .text = text, .len = len, .current = -1, .err = err, .err_size = err_size};
    const char *slash = strrchr(name, '/');
    if (from_file) ld.dir = slash ? gh_strdupf("%.*s", (int)(slash - name), name) : gh_strdup(".");
    int rc = -1;
    if (memchr(text, '\0', len)) ini_fail_line(&ld, 0, "contains a NUL byte; is it a text file?");
    else if (ini_read_sections(&ld) == 0 && check_not_empty(&ld, from_file) == 0 &&
             ini_apply_overrides(&ld, overrides, n_overrides) == 0 && check_config(&ld, out) == 0)
        rc = 0;
    ini_free_sections(&ld);
    free(ld.dir);
    out->origin_texts = ld.origin_texts; /* the origins point into them */
    out->n_origin_texts = ld.n_origin_texts;
    if (rc != 0) gh_config_free(out);
    return rc;
}

/* The whole file, NUL-terminated. */
static int read_file(const char *path, char **data, size_t *len, char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        set_error(err, err_size, "cannot open config file %s: %s", path, strerror(errno));
        return -1;
    }
    char *buf = NULL;
    size_t n = 0, cap = 0, got;
    do {
        if (n == cap) {
            cap = cap ? 2 * cap : 4096;
            buf = gh_xrealloc(buf, cap + 1);
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    int failed = ferror(f), saved_errno = errno;
    fclose(f);
    if (failed) {
        free(buf);
        set_error(err, err_size, "cannot read config file %s: %s", path, strerror(saved_errno));
        return -1;
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return 0;
}

int gh_config_load_file(const char *path, const char *const *overrides, size_t n_overrides, gh_config *out, char *err,
                        size_t err_size)
{
    memset(out, 0, sizeof *out);
    char *text;
    size_t len;
    if (!path) {
        set_error(err, err_size, "no config file given");
        return -1;
    }
    if (read_file(path, &text, &len, err, err_size) != 0) return -1;
    int rc = load(text, len, path, 1, overrides, n_overrides, out, err, err_size);
    free(text);
    return rc;
}

int gh_config_load_text(const char *text, const char *name, const char *const *overrides, size_t n_overrides,
                        gh_config *out, char *err, size_t err_size)
{
    char *copy = gh_strdup(text ? text : "");
    int rc = load(copy, strlen(copy), name ? name : "<text>", 0, overrides, n_overrides, out, err, err_size);
    free(copy);
    return rc;
}

void gh_config_free(gh_config *cfg)
{
    if (!cfg) return;
    gh_run_config *run = &cfg->run;
    free(run->sizes);
    free(run->dtypes);
    free(run->trans);
    free(run->output);
    free(run->tune_cache);
    ini_free_strings(run->plugin_dirs, run->n_plugin_dirs);
    for (size_t i = 0; i < cfg->n_backends; i++) {
        gh_backend_config *b = &cfg->backends[i];
        free(b->name);
        free(b->plugin);
        free(b->devices);
        ini_free_strings(b->kernels, b->n_kernels);
        for (size_t k = 0; k < b->n_keys; k++) {
            free(b->keys[k].name);
            ini_free_strings(b->keys[k].values, b->keys[k].n_values);
        }
        free(b->keys);
    }
    free(cfg->backends);
    for (size_t i = 0; i < cfg->n_splits; i++) {
        free(cfg->splits[i].name);
        ini_free_strings(cfg->splits[i].backends, cfg->splits[i].n_backends);
        free(cfg->splits[i].kernel);
    }
    free(cfg->splits);
    ini_free_strings(cfg->origin_texts, cfg->n_origin_texts);
    free(cfg->path);
    memset(cfg, 0, sizeof *cfg);
}

const char *gh_origin_format(const gh_origin *o, char *buf, size_t size)
{
    if (o->line > 0) snprintf(buf, size, "%s:%d", o->file, o->line);
    else snprintf(buf, size, "%s", o->file ? o->file : "?");
    return buf;
}
