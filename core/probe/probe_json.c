/* The probe as JSON: every subject, its declaration and every finding with
 * its case (A and B whole: they are small) and the deciding elements. NaN
 * and infinities, which JSON lacks, are the strings "nan", "inf", "-inf". */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>

#include "data.h"
#include "probe_subject.h"
#include "util.h"

static json_t *number(double v)
{
    if (isnan(v)) return json_string("nan");
    if (isinf(v)) return json_string(v > 0 ? "inf" : "-inf");
    return json_real(v);
}

static json_t *values(const double *v, int64_t n)
{
    json_t *a = json_array();
    for (int64_t i = 0; i < n; i++) json_array_append_new(a, number(v[i]));
    return a;
}

/* Past this many elements A and B are null: the case's `why` says how
 * they are built (the i8 overflow case has K = 132096). */
#define CASE_JSON_MAX_VALUES 4096

static json_t *case_json(const probe_case *c)
{
    if (!c) return json_null();
    const int whole = c->m * c->k + c->k * c->n <= CASE_JSON_MAX_VALUES;
    json_t *j = json_pack("{s:s, s:s, s:s, s:I, s:I, s:I, s:o, s:o}", "name", c->name, "why", c->why, "dtype",
                          gh_dtype_name(c->dtype), "m", (json_int_t)c->m, "n", (json_int_t)c->n, "k", (json_int_t)c->k,
                          "a", whole ? values(c->a, c->m * c->k) : json_null(), "b",
                          whole ? values(c->b, c->k * c->n) : json_null());
    if (c->b_dtype != c->dtype || c->c_dtype != c->dtype) {
        json_object_set_new(j, "b_dtype", json_string(gh_dtype_name(c->b_dtype)));
        json_object_set_new(j, "c_dtype", json_string(gh_dtype_name(c->c_dtype)));
        json_object_set_new(j, "scales", json_pack("[f, f, f]", c->scale_a, c->scale_b, c->scale_c));
    }
    return j;
}

static json_t *finding_json(const probe_finding *f)
{
    json_t *ev = json_array();
    for (size_t e = 0; e < f->n_ev; e++)
        json_array_append_new(ev, json_pack("{s:I, s:I, s:o, s:o}", "i", (json_int_t)f->ev[e].i, "j",
                                            (json_int_t)f->ev[e].j, "got", number(f->ev[e].got), "expected",
                                            number(f->ev[e].expected)));
    return json_pack("{s:s, s:s, s:o, s:o, s:s, s:s, s:b, s:s, s:o, s:o}", "property", f->property, "verdict",
                     f->verdict, "bits", f->bits >= 0 ? json_integer(f->bits) : json_null(), "every",
                     f->every >= 0 ? json_integer(f->every) : json_null(), "text", f->text, "declared", f->declared,
                     "mismatch", f->mismatch, "outcome", probe_outcome_name(f->outcome), "case", case_json(f->c),
                     "evidence", ev);
}

static json_t *subject_json(const probe_subject *s)
{
    json_t *findings = json_array();
    for (size_t i = 0; i < s->findings.n; i++) json_array_append_new(findings, finding_json(&s->findings.items[i]));
    json_t *decl = s->has_decl ? json_pack("{s:s, s:s, s:i, s:b, s:i, s:i, s:b}", "inputs",
                                           probe_precision_name(s->decl.inputs), "accumulate",
                                           probe_precision_name(s->decl.accumulate), "input_bits", s->decl.input_bits,
                                           "input_truncates", s->decl.input_truncates, "acc_bits", s->decl.acc_bits,
                                           "promote_every", s->decl.promote_every, "from_kernel", s->decl.from_kernel)
                               : json_null();
    return json_pack("{s:s, s:s, s:i, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:I, s:o}", "backend", s->backend,
                     "plugin", s->plugin, "device_index", s->device_index, "device", s->device, "driver", s->driver,
                     "api", s->api, "kernel", s->kernel, "params", s->params, "dtype", s->dtype_name, "note", s->note,
                     "declared", decl, "mismatches", (json_int_t)probe_mismatches(s), "findings", findings);
}

char *probe_json_text(const probe_subjects *all)
{
    json_t *subjects = json_array();
    size_t mismatches = 0;
    for (size_t i = 0; i < all->n; i++) {
        json_array_append_new(subjects, subject_json(&all->items[i]));
        mismatches += probe_mismatches(&all->items[i]);
    }
    json_t *root = json_pack("{s:s, s:s, s:I, s:o}", "gemmhost_probe", "1", "version", GEMMHOST_VERSION, "mismatches",
                             (json_int_t)mismatches, "subjects", subjects);
    char *text = json_dumps(root, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
    json_decref(root);
    return text ? text : gh_strdup("{}");
}
