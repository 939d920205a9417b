/* The [run] keys of how each result is measured: cache = warm | cold (and
 * the flush's size), repeat = N | auto (min_repeat, max_repeat, max_time,
 * target_spread) and batch = auto | N (batch_below), and the checks across
 * them. docs/configuration.md, "Measuring". */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config_check.h"

static const char *const cache_names[] = {"warm", "cold"};

int cfg_set_cache(loader *ld, const section *s, const entry *e, gh_run_config *run)
{
    const char *v;
    int idx = 0;
    if (cfg_get_single(ld, s, e, &v) != 0 || cfg_get_choice(ld, s, e, v, "a cache state", cache_names, 2, &idx) != 0)
        return -1;
    run->cache_cold = idx;
    return 0;
}

/* repeat = N runs exactly N; auto runs from min_repeat to max_repeat. */
int cfg_set_repeat(loader *ld, const section *s, const entry *e, gh_run_config *run)
{
    const char *v;
    if (cfg_get_single(ld, s, e, &v) != 0) return -1;
    run->repeat_auto = strcasecmp(v, "auto") == 0;
    if (run->repeat_auto) return 0;
    int64_t n = 0;
    if (cfg_get_int(ld, s, e, 1, MAX_COUNT, &n) != 0) return -1;
    run->repeat = (int)n;
    return 0;
}

int cfg_set_flush_size(loader *ld, const section *s, const entry *e, gh_run_config *run)
{
    const char *v;
    if (cfg_get_single(ld, s, e, &v) != 0) return -1;
    if (gh_parse_size_bytes(v, &run->flush_bytes) != 0 || run->flush_bytes == 0)
        return ini_fail_key(ld, s, e, "\"%s\" is not a size in bytes above 0 (e.g. 256M, 1G)", ini_show(ld, v));
    return 0;
}

int cfg_set_max_time(loader *ld, const section *s, const entry *e, gh_run_config *run)
{
    return cfg_get_seconds(ld, s, e, 1, "10s, 500ms, 2m", &run->max_time);
}

int cfg_set_target_spread(loader *ld, const section *s, const entry *e, gh_run_config *run)
{
    const char *v;
    if (cfg_get_single(ld, s, e, &v) != 0) return -1;
    if (cfg_parse_double(v, &run->target_spread) != 0 || !(run->target_spread > 0))
        return ini_fail_key(ld, s, e,
                            "\"%s\" is not a spread: give the relative interquartile range to stop at, a number "
                            "above 0 (0.02 is 2%%)",
                            ini_show(ld, v));
    return 0;
}

int cfg_set_batch(loader *ld, const section *s, const entry *e, gh_run_config *run)
{
    const char *v;
    if (cfg_get_single(ld, s, e, &v) != 0) return -1;
    if (strcasecmp(v, "auto") == 0) {
        run->batch = 0;
        return 0;
    }
    int64_t n = 0;
    if (cfg_get_int(ld, s, e, 1, 100000, &n) != 0) return -1;
    run->batch = (int)n;
    return 0;
}

/* A duration that may be in microseconds ("20us"), as small kernels are. */
int cfg_set_batch_below(loader *ld, const section *s, const entry *e, gh_run_config *run)
{
    const char *v;
    if (cfg_get_single(ld, s, e, &v) != 0) return -1;
    size_t n = strlen(v);
    int rc;
    if (n > 2 && strcmp(v + n - 2, "us") == 0) {
        char *num = strndup(v, n - 2), *end;
        errno = 0;
        run->batch_below = num ? strtod(num, &end) / 1e6 : -1; /* 20us is then exactly 20e-6 */
        rc = !num || errno || end == num || *end || !isfinite(run->batch_below) || run->batch_below < 0 ? -1 : 0;
        free(num);
    } else {
        rc = gh_parse_seconds(v, &run->batch_below);
    }
    if (rc != 0)
        return ini_fail_key(ld, s, e, "\"%s\" is not a duration (e.g. 20us, 0.5ms; 0 never batches)", ini_show(ld, v));
    return 0;
}

/* Across keys, once every key is read: the bounds of repeat = auto. */
int cfg_check_measure(loader *ld, const section *s, gh_run_config *run)
{
    if (!run->repeat_auto) return 0;
    if (run->min_repeat > run->max_repeat) {
        const entry *e = ini_find_entry(s, "min_repeat");
        if (!e) e = ini_find_entry(s, "max_repeat");
        if (!e) e = ini_find_entry(s, "repeat");
        return ini_fail_key(ld, s, e, "repeat = auto needs min_repeat (%d) at most max_repeat (%d)", run->min_repeat,
                            run->max_repeat);
    }
    run->repeat = run->max_repeat; /* the most it runs: what the arrays of times hold */
    return 0;
}
