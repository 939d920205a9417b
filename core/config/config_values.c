/* Reading one config value: numbers, sizes in bytes, seconds, lists,
 * choices among names, paths relative to the config's folder; each checked,
 * with a message naming the key, where it was written and what is allowed. */
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
int cfg_parse_uint64(const char *s, uint64_t *out)
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
int cfg_parse_double(const char *s, double *out)
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
gh_origin cfg_origin_of(loader *ld, const entry *e)
{
    if (!e->set_text) return (gh_origin){ld->file, e->line};
    char **slot = ini_push(&ld->origin_texts, &ld->n_origin_texts, sizeof(char *));
    *slot = gh_strdupf("%s %s", SET_ORIGIN, ini_show(ld, e->set_text));
    return (gh_origin){*slot, 0};
}

/* A relative path written in a config file is relative to that file's
 * folder, wherever gemmhost runs; from --set or built-in text, to the working
 * directory. Replaces *path in place. */
void cfg_resolve_in_config_dir(const loader *ld, const entry *e, char **path)
{
    if (!ld->dir || e->set_text || (*path)[0] == '/' || strcmp(ld->dir, ".") == 0) return;
    char *joined = gh_strdupf("%s/%s", ld->dir, *path);
    free(*path);
    *path = joined;
}

/* Scalar keys refuse a comma: "alpha = 1,5" is a list, not a number. */
int cfg_get_single(loader *ld, const section *s, const entry *e, const char **out)
{
    *out = e->value;
    if (strchr(e->value, ','))
        return ini_fail_key(ld, s, e, "\"%s\" is a list; this key takes one value", ini_show(ld, e->value));
    return 0;
}

int cfg_get_list(loader *ld, const section *s, const entry *e, char ***items, size_t *n)
{
    if (ini_split_list(e->value, items, n) != 0)
        return ini_fail_key(ld, s, e, "\"%s\" has an empty item (a doubled or trailing comma?)",
                            ini_show(ld, e->value));
    if (*n == 0) return ini_fail_key(ld, s, e, "the list is empty (give at least one value)");
    return 0;
}

/* A list of names where each may appear once (kernels, split members). */
int cfg_get_unique_list(loader *ld, const section *s, const entry *e, char ***items, size_t *n)
{
    if (cfg_get_list(ld, s, e, items, n) != 0) return -1;
    for (size_t i = 0; i < *n; i++)
        for (size_t j = 0; j < i; j++)
            if (strcmp((*items)[i], (*items)[j]) == 0)
                return ini_fail_key(ld, s, e, "\"%s\" is listed twice", ini_show(ld, (*items)[i]));
    return 0;
}

int cfg_get_int(loader *ld, const section *s, const entry *e, int64_t lo, int64_t hi, int64_t *out)
{
    const char *v;
    if (cfg_get_single(ld, s, e, &v) != 0) return -1;
    if (gh_parse_int64(v, out) != 0 || *out < lo || *out > hi)
        return ini_fail_key(ld, s, e, "\"%s\" is not an integer from %lld to %lld", ini_show(ld, v), (long long)lo,
                            (long long)hi);
    return 0;
}

/* One of names[], case-insensitive; *out is its index. */
int cfg_get_choice(loader *ld, const section *s, const entry *e, const char *item, const char *what,
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
int cfg_get_choice_list(loader *ld, const section *s, const entry *e, const char *what, const char *const *names,
                        int count, int **out, size_t *n_out)
{
    char **items;
    size_t n;
    if (cfg_get_list(ld, s, e, &items, &n) != 0) return -1;
    int *idx = gh_xrealloc(NULL, n * sizeof(int));
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        rc = cfg_get_choice(ld, s, e, items[i], what, names, count, &idx[i]);
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
/* timeout: seconds per plugin call (a number >= 0, 0 = none) or auto. */
int cfg_get_timeout(loader *ld, const section *s, const entry *e, double *out)
{
    const char *v;
    if (cfg_get_single(ld, s, e, &v) != 0) return -1;
    if (strcasecmp(v, "auto") == 0) {
        *out = -1;
        return 0;
    }
    if (cfg_parse_double(v, out) != 0 || *out < 0)
        return ini_fail_key(ld, s, e,
                            "\"%s\" is not a timeout: give seconds (0 = none) or auto (60 s plus 100 times the call "
                            "at 1 GFLOP/s or 1 GB/s)",
                            ini_show(ld, v));
    return 0;
}
int cfg_get_seconds(loader *ld, const section *s, const entry *e, int above_zero, const char *examples, double *out)
{
    const char *v;
    if (cfg_get_single(ld, s, e, &v) != 0) return -1;
    if (gh_parse_seconds(v, out) != 0 || (above_zero && *out <= 0))
        return ini_fail_key(ld, s, e, "\"%s\" is not a duration%s (e.g. %s; a number alone is seconds)",
                            ini_show(ld, v), above_zero ? " above 0" : "", examples);
    return 0;
}
/* tune_budget: how long the tuner searches one kernel (core/tune). */
int cfg_get_tune_budget(loader *ld, const section *s, const entry *e, double *out)
{
    return cfg_get_seconds(ld, s, e, 0, "120s, 500ms, 2m, 1h", out);
}
int cfg_get_nonempty(loader *ld, const section *s, const entry *e, const char *what, char **out)
{
    const char *v;
    if (cfg_get_single(ld, s, e, &v) != 0) return -1;
    if (*v == '\0') return ini_fail_key(ld, s, e, "the value is empty (give %s)", what);
    free(*out);
    *out = gh_strdup(v);
    return 0;
}
int cfg_get_yes_no(loader *ld, const section *s, const entry *e, int *out)
{
    static const char *const names[] = {"no", "yes", "false", "true", "0", "1", "off", "on"};
    const char *v;
    int idx = 0;
    if (cfg_get_single(ld, s, e, &v) != 0 || cfg_get_choice(ld, s, e, v, "yes or no", names, 8, &idx) != 0) return -1;
    *out = idx % 2;
    return 0;
}
int cfg_get_mem_limit(loader *ld, const section *s, const entry *e, uint64_t *out)
{
    const char *v;
    if (cfg_get_single(ld, s, e, &v) != 0) return -1;
    if (gh_parse_size_bytes(v, out) != 0)
        return ini_fail_key(ld, s, e,
                            "\"%s\" is not a size in bytes (e.g. 1048576, 512M, 4G; "
                            "K, M, G, T are powers of 1024; 0 = no limit)",
                            ini_show(ld, v));
    return 0;
}

int cfg_get_string(loader *ld, const section *s, const entry *e, char **out)
{
    const char *v;
    if (cfg_get_single(ld, s, e, &v) != 0) return -1;
    free(*out);
    *out = gh_strdup(v);
    return 0;
}
