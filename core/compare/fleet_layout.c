/* Fleet layouts checked for compare; see fleet_layout.h. */
#include "fleet_layout.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

/* "3 ranks (r0@node1, r1@node1, r2@node2)" or "one run's results". */
static void describe(const gh_results_file *f, char *out, size_t size)
{
    if (!f->fleet_size) {
        snprintf(out, size, "one run's results");
        return;
    }
    int n = snprintf(out, size, "a fleet of %d rank%s (", f->fleet_size, f->fleet_size == 1 ? "" : "s");
    const json_t *ranks = json_object_get(json_object_get(f->doc, "fleet"), "ranks");
    for (size_t i = 0; i < json_array_size(ranks) && n > 0 && (size_t)n < size; i++) {
        const char *host = json_string_value(json_object_get(json_array_get(ranks, i), "host"));
        n += snprintf(out + n, size - (size_t)n, "%sr%zu@%s", i ? ", " : "", i, host ? host : "?");
    }
    if (n > 0 && (size_t)n < size) snprintf(out + n, size - (size_t)n, ")");
}

/* Whether rank r has the same host in both fleet files. */
static int same_hosts(const gh_results_file *a, const gh_results_file *b)
{
    const json_t *x = json_object_get(json_object_get(a->doc, "fleet"), "ranks");
    const json_t *y = json_object_get(json_object_get(b->doc, "fleet"), "ranks");
    if (json_array_size(x) != json_array_size(y)) return 0;
    for (size_t i = 0; i < json_array_size(x); i++) {
        const char *h = json_string_value(json_object_get(json_array_get(x, i), "host"));
        const char *g = json_string_value(json_object_get(json_array_get(y, i), "host"));
        if (!h || !g || strcmp(h, g) != 0) return 0;
    }
    return 1;
}

int gh_fleet_layout_check(const gh_results_file *files, size_t n, const gh_match_options *o, char *err, size_t err_size)
{
    if (o->ignore_ranks) return 0;
    for (size_t f = 1; f < n; f++) {
        const gh_results_file *a = &files[0], *b = &files[f];
        if (!a->fleet_size && !b->fleet_size) continue;
        const char *hint;
        if (!a->fleet_size || !b->fleet_size) hint = "--ignore-ranks matches a fleet's results against one run's";
        else if (a->fleet_size != b->fleet_size)
            hint = "--ignore-ranks matches results across ranks and hosts, whatever the ranks";
        else if (!o->ignore_hosts && !same_hosts(a, b))
            hint =
                "--ignore-hosts pairs results by rank alone (another allocation's nodes), --ignore-ranks across "
                "ranks and hosts";
        else continue;
        char da[1024], db[1024];
        describe(a, da, sizeof da);
        describe(b, db, sizeof db);
        snprintf(err, err_size,
                 "%s is %s and %s is %s: a fleet's results pair rank by rank (with its host) only with a fleet of the "
                 "same layout; %s",
                 a->path, da, b->path, db, hint);
        return -1;
    }
    return 0;
}
