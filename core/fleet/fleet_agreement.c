/* The agreement across ranks (fleet_report.h): for each case, every rank's
 * results grouped by output hash, and the largest difference between two
 * groups in units of the bound, from the output fingerprints (no matrix
 * travels between ranks). */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fingerprint_json.h"
#include "fleet_report.h"
#include "util.h"

/* One case: the members the results files share for it. */
static char *case_key(const json_t *r)
{
    return gh_strdupf(
        "%lld|%s|%s|%lld|%lld|%lld|%.17g|%.17g", (long long)json_integer_value(json_object_get(r, "case_index")),
        json_string_value(json_object_get(r, "dtype")), json_string_value(json_object_get(r, "trans")),
        (long long)json_integer_value(json_object_get(r, "m")), (long long)json_integer_value(json_object_get(r, "n")),
        (long long)json_integer_value(json_object_get(r, "k")), json_number_value(json_object_get(r, "alpha")),
        json_number_value(json_object_get(r, "beta")));
}

/* "r1@host opencl/0/naive wg=16". */
static json_t *member_label(const json_t *r)
{
    const char *params = json_string_value(json_object_get(r, "params"));
    return json_sprintf("r%lld@%s %s/%lld/%s%s%s", (long long)json_integer_value(json_object_get(r, "rank")),
                        json_string_value(json_object_get(r, "host")), json_string_value(json_object_get(r, "backend")),
                        (long long)json_integer_value(json_object_get(r, "device_index")),
                        json_string_value(json_object_get(r, "kernel")), params && *params ? " " : "",
                        params ? params : "");
}

/* The largest difference between the first members of two groups. */
static double groups_diff(const json_t *a, const json_t *b)
{
    gh_fingerprint *x = gh_xmalloc(sizeof *x), *y = gh_xmalloc(sizeof *y);
    char err[256];
    double d = NAN;
    if (gh_fingerprint_from_json(a, x, err, sizeof err) == 0 && gh_fingerprint_from_json(b, y, err, sizeof err) == 0 &&
        x->n && y->n) {
        int at = -1;
        d = gh_fingerprint_diff(x, y, &at);
        if (at < 0) d = NAN;
    }
    free(x);
    free(y);
    return d;
}

/* One case's entry from the results (borrowed) that ran it. */
static json_t *case_entry(json_t **results, size_t n)
{
    const json_t *r0 = results[0];
    json_t *e = json_pack("{s:O, s:O, s:O, s:O, s:O, s:O}", "case_index", json_object_get(r0, "case_index"), "dtype",
                          json_object_get(r0, "dtype"), "trans", json_object_get(r0, "trans"), "m",
                          json_object_get(r0, "m"), "n", json_object_get(r0, "n"), "k", json_object_get(r0, "k"));
    json_t *groups = json_array(), *firsts = json_array(), *ranks = json_array(), *hosts = json_array();
    for (size_t i = 0; i < n; i++) {
        const char *hash = json_string_value(json_object_get(results[i], "output_hash"));
        size_t g, found = (size_t)-1;
        json_t *grp;
        json_array_foreach(groups, g, grp) if (!strcmp(json_string_value(json_object_get(grp, "hash")), hash)) found =
            g;
        if (found == (size_t)-1) {
            json_array_append_new(groups, json_pack("{s:s, s:[]}", "hash", hash, "members"));
            json_array_append(firsts, results[i]);
            found = json_array_size(groups) - 1;
        }
        json_array_append_new(json_object_get(json_array_get(groups, found), "members"), member_label(results[i]));
        json_t *rank = json_object_get(results[i], "rank"), *host = json_object_get(results[i], "host");
        size_t k;
        json_t *v;
        int seen = 0;
        json_array_foreach(ranks, k, v) seen |= json_equal(v, rank);
        if (!seen) json_array_append(ranks, rank);
        seen = 0;
        json_array_foreach(hosts, k, v) seen |= json_equal(v, host);
        if (!seen) json_array_append(hosts, host);
    }
    double worst = 0;
    int comparable = 1;
    json_t *worst_pair = json_null();
    for (size_t a = 0; a < json_array_size(firsts); a++)
        for (size_t b = a + 1; b < json_array_size(firsts); b++) {
            double d = groups_diff(json_array_get(firsts, a), json_array_get(firsts, b));
            if (isnan(d)) {
                comparable = 0;
                continue;
            }
            if (d >= worst) {
                worst = d;
                json_decref(worst_pair);
                worst_pair = json_pack("[o, o]", member_label(json_array_get(firsts, a)),
                                       member_label(json_array_get(firsts, b)));
            }
        }
    json_object_set_new(e, "results", json_integer((json_int_t)n));
    json_object_set_new(e, "ranks", ranks);
    json_object_set_new(e, "hosts", hosts);
    json_object_set_new(e, "max_diff_in_bounds", isfinite(worst) ? json_real(worst) : json_string("inf"));
    json_object_set_new(e, "worst", worst_pair);
    json_object_set_new(e, "fingerprints", json_boolean(comparable));
    json_object_set_new(e, "groups", groups);
    json_decref(firsts);
    return e;
}

void gh_fleet_agreement(json_t *fleet)
{
    json_t *results = json_object_get(fleet, "results");
    size_t n = json_array_size(results);
    json_t **ran = gh_xmalloc((n ? n : 1) * sizeof *ran);
    char **keys = gh_xmalloc((n ? n : 1) * sizeof *keys);
    int *done = calloc(n ? n : 1, sizeof *done);
    size_t n_ran = 0;
    for (size_t i = 0; i < n; i++) {
        json_t *r = json_array_get(results, i);
        if (!json_is_string(json_object_get(r, "output_hash"))) continue; /* it produced no output */
        ran[n_ran] = r;
        keys[n_ran++] = case_key(r);
    }
    json_t *agreement = json_array(), **members = gh_xmalloc((n_ran ? n_ran : 1) * sizeof *members);
    for (size_t i = 0; i < n_ran; i++) {
        if (done[i]) continue;
        size_t m = 0;
        for (size_t j = i; j < n_ran; j++)
            if (!done[j] && !strcmp(keys[i], keys[j])) members[m++] = ran[j], done[j] = 1;
        json_array_append_new(agreement, case_entry(members, m));
    }
    json_object_set_new(fleet, "agreement", agreement);
    for (size_t i = 0; i < n_ran; i++) free(keys[i]);
    free(keys);
    free(ran);
    free(done);
    free(members);
}
