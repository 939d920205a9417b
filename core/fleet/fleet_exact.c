/* Exact distances across the ranks (fleet_report.h): the agreement's groups
 * measured on whole outputs that the ranks sent to rank 0, with the same
 * code and reference as the single-machine agreement (core/verify). */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "config.h"
#include "fleet_report.h"
#include "kept_outputs.h"

static int trans_of(const char *s, gh_trans *t)
{
    if (!s || strlen(s) != 2) return -1;
    t->a = s[0] == 't';
    t->b = s[1] == 't';
    return 0;
}

/* Measures one agreement entry; 0 when it was, -1 when an output or the
 * case's description is not there (its fingerprints' distance stays). */
static int measure(json_t *e, const gh_kept_outputs *kept, const gh_run_config *run)
{
    const json_t *groups = json_object_get(e, "groups");
    const int case_index = (int)json_integer_value(json_object_get(e, "case_index"));
    gh_dtype dtype;
    gh_trans trans;
    gh_shape shape = {json_integer_value(json_object_get(e, "m")), json_integer_value(json_object_get(e, "n")),
                      json_integer_value(json_object_get(e, "k"))};
    if (gh_dtype_parse(json_string_value(json_object_get(e, "dtype")), &dtype) != 0 ||
        trans_of(json_string_value(json_object_get(e, "trans")), &trans) != 0 || json_array_size(groups) < 2)
        return -1;
    gh_compare cmp = {0};
    size_t g;
    json_t *grp;
    json_array_foreach(groups, g, grp)
    {
        const char *hash = json_string_value(json_object_get(grp, "hash"));
        const gh_kept_output *k = hash ? gh_kept_outputs_find(kept, case_index, strtoull(hash, NULL, 16)) : NULL;
        if (!k || k->dtype != dtype || k->shape.m != shape.m || k->shape.n != shape.n || k->shape.k != shape.k ||
            k->trans.a != trans.a || k->trans.b != trans.b)
            break;
        gh_compare_add(&cmp, hash, k->hash, &k->value, k->arith);
    }
    gh_agreement a;
    int rc = -1;
    if (cmp.n_groups == json_array_size(groups) &&
        gh_kept_case_agreement(run, case_index, shape, dtype, trans, &cmp, &a) == 0) {
        double d = a.max_diff_in_bounds;
        json_object_set_new(e, "max_diff_in_bounds",
                            isfinite(d) ? json_real(d) : json_string(isnan(d) ? "nan" : "inf"));
        size_t x = a.worst[0], y = a.worst[1] != a.worst[0] ? a.worst[1] : (a.worst[0] + 1) % cmp.n_groups;
        json_object_set_new(e, "worst",
                            json_pack("[O, O]",
                                      json_array_get(json_object_get(json_array_get(groups, x), "members"), 0),
                                      json_array_get(json_object_get(json_array_get(groups, y), "members"), 0)));
        gh_agreement_free(&a);
        rc = 0;
    }
    gh_compare_clear(&cmp);
    return rc;
}

void gh_fleet_exact_agreement(json_t *fleet, const gh_kept_outputs *kept, const gh_run_config *run)
{
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(fleet, "agreement"), i, e)
    {
        const char *how = json_array_size(json_object_get(e, "groups")) == 1 ? "identical"
                          : measure(e, kept, run) == 0                       ? "exact"
                                                                             : "fingerprints";
        json_object_set_new(e, "distance", json_string(how));
    }
}
