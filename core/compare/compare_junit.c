/* The comparison as JUnit XML; see compare_junit.h. */
#include "compare_junit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encode.h"
#include "output_guard.h"
#include "replace_file.h"

static const char *s_of(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

static void attr(gh_sbuf *b, const char *name, const char *value)
{
    gh_sb_printf(b, " %s=\"", name);
    gh_xml_str(b, value);
    gh_sb_putc(b, '"');
}

/* A testcase per row of a part; its failure's message from `why`. */
typedef struct junit_case {
    char name[1400];
    char *failure; /* owned; NULL when it passed */
} junit_case;

typedef struct case_list {
    junit_case *items;
    size_t n, cap, failures;
} case_list;

/* The testcase of result `r`, made once: a result named in several parts
 * (SLOW and beyond its bound) gets one testcase with each reason. */
static junit_case *case_of(case_list *l, const json_t *r)
{
    char name[1400];
    snprintf(name, sizeof name, "%s, %s", s_of(r, "result"), s_of(r, "case"));
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->items[i].name, name)) return &l->items[i];
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        junit_case *grown = realloc(l->items, cap * sizeof *grown);
        if (!grown) return NULL;
        l->items = grown;
        l->cap = cap;
    }
    junit_case *c = &l->items[l->n++];
    memcpy(c->name, name, sizeof name);
    c->failure = NULL;
    return c;
}

static void fail(case_list *l, junit_case *c, const char *why)
{
    if (!c) return;
    if (!c->failure) l->failures++;
    gh_sbuf b = {0};
    if (c->failure) {
        gh_sb_printf(&b, "%s; ", c->failure);
        free(c->failure);
    }
    gh_sb_puts(&b, why);
    c->failure = gh_sb_take(&b);
}

static void collect(case_list *l, const json_t *cmp)
{
    char why[2600];
    const json_t *rows = json_object_get(cmp, "speed");
    for (size_t i = 0; i < json_array_size(rows); i++) {
        const json_t *r = json_array_get(rows, i);
        junit_case *c = case_of(l, r);
        if (!strcmp(s_of(r, "verdict"), "SLOW")) {
            snprintf(why, sizeof why, "SLOW: %.3f times the median kernel time of %s",
                     json_number_value(json_object_get(r, "ratio")), s_of(cmp, "base"));
            fail(l, c, why);
        }
    }
    rows = json_object_get(cmp, "status");
    for (size_t i = 0; i < json_array_size(rows); i++) {
        const json_t *r = json_array_get(rows, i);
        junit_case *c = case_of(l, r);
        if (!strcmp(s_of(r, "change"), "worse")) {
            snprintf(why, sizeof why, "%s -> %s%s%s", s_of(r, "before"), s_of(r, "after"),
                     *s_of(r, "detail") ? ": " : "", s_of(r, "detail"));
            fail(l, c, why);
        }
    }
    rows = json_object_get(cmp, "outputs");
    for (size_t i = 0; i < json_array_size(rows); i++) {
        const json_t *r = json_array_get(rows, i);
        const json_t *d = json_object_get(r, "diff_in_bounds");
        snprintf(why, sizeof why, "output beyond its error bound at C[%lld,%lld]: %.3g bounds from %s's",
                 (long long)json_integer_value(json_object_get(r, "i")),
                 (long long)json_integer_value(json_object_get(r, "j")),
                 json_is_number(d) ? json_number_value(d) : INFINITY, s_of(cmp, "base"));
        fail(l, case_of(l, r), why);
    }
}

/* The host of the later file of comparison i (file i + 1). */
static const char *host_of(const json_t *doc, size_t i)
{
    const char *h = s_of(json_array_get(json_object_get(doc, "files"), i + 1), "host");
    return *h ? h : "unknown";
}

static void suite(gh_sbuf *b, const json_t *cmp, const case_list *all, const char *hostname)
{
    const case_list l = *all;
    char name[64];
    snprintf(name, sizeof name, "gemmhost compare %s against %s", s_of(cmp, "other"), s_of(cmp, "base"));
    gh_sb_puts(b, "  <testsuite");
    attr(b, "name", name);
    gh_sb_printf(b,
                 " tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\" time=\"0\" "
                 "timestamp=\"1970-01-01T00:00:00\"",
                 l.n, l.failures);
    attr(b, "hostname", hostname);
    gh_sb_puts(b, ">\n");
    for (size_t i = 0; i < l.n; i++) {
        gh_sb_puts(b, "    <testcase");
        attr(b, "classname", name);
        attr(b, "name", l.items[i].name);
        gh_sb_puts(b, " time=\"0\"");
        if (!l.items[i].failure) {
            gh_sb_puts(b, "/>\n");
            continue;
        }
        gh_sb_puts(b, ">\n      <failure");
        attr(b, "message", l.items[i].failure);
        attr(b, "type", "regression");
        gh_sb_puts(b, "/>\n    </testcase>\n");
    }
    gh_sb_puts(b, "  </testsuite>\n");
}

static void free_cases(case_list *l)
{
    for (size_t i = 0; i < l->n; i++) free(l->items[i].failure);
    free(l->items);
}

int gh_compare_junit_write(const json_t *doc, const char *path, char *err, size_t err_size)
{
    if (gh_output_check_kind(path, "--junit", err, err_size) != 0) return -1;
    gh_sbuf b = {0};
    const json_t *pairs = json_object_get(doc, "comparisons");
    size_t n = json_array_size(pairs), tests = 0, failures = 0;
    case_list *lists = calloc(n + 1, sizeof *lists);
    if (!lists) {
        snprintf(err, err_size, "--junit %s: out of memory", path);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        collect(&lists[i], json_array_get(pairs, i));
        tests += lists[i].n;
        failures += lists[i].failures;
    }
    /* The schema's required attributes: a comparison has no time of its own. */
    gh_sb_printf(&b,
                 "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"gemmhost compare\" tests=\"%zu\" "
                 "failures=\"%zu\" errors=\"0\" skipped=\"0\" time=\"0\">\n",
                 tests, failures);
    for (size_t i = 0; i < n; i++) {
        suite(&b, json_array_get(pairs, i), &lists[i], host_of(doc, i));
        free_cases(&lists[i]);
    }
    free(lists);
    gh_sb_puts(&b, "</testsuites>\n");
    size_t len = b.len;
    char *text = gh_sb_take(&b);
    if (!text) {
        snprintf(err, err_size, "--junit %s: out of memory", path);
        return -1;
    }
    int rc = gh_replace_file(path, text, len, err, err_size);
    free(text);
    return rc;
}
