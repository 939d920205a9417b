/* Text and Markdown reports of a comparison; see compare_render.h. Both
 * walk the same document in the same order: files, environment, per later
 * file its speed, status changes, new and missing results, then the
 * agreement across all files. */
#include "compare_render.h"

#include <math.h>
#include <string.h>

static const char *s_of(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

static double n_of(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static long long i_of(const json_t *o, const char *k)
{
    return (long long)json_integer_value(json_object_get(o, k));
}

static void heading(FILE *out, gh_compare_style st, const char *fmt, const char *a, const char *b)
{
    fputs(st == GH_COMPARE_MARKDOWN ? "\n### " : "\n", out);
    fprintf(out, fmt, a, b);
    fputs(st == GH_COMPARE_MARKDOWN ? "\n\n" : "\n", out);
}

static size_t widest(const json_t *rows, const char *key, size_t at_least)
{
    size_t w = at_least;
    for (size_t i = 0; i < json_array_size(rows); i++) {
        size_t l = strlen(s_of(json_array_get(rows, i), key));
        if (l > w) w = l;
    }
    return w;
}

static void files_part(FILE *out, const json_t *doc, gh_compare_style st)
{
    const json_t *files = json_object_get(doc, "files");
    if (st == GH_COMPARE_MARKDOWN)
        fputs("## gemmhost compare\n\n| | file | host | gemmhost | results |\n|---|---|---|---|---|\n", out);
    for (size_t f = 0; f < json_array_size(files); f++) {
        const json_t *x = json_array_get(files, f);
        if (st == GH_COMPARE_MARKDOWN)
            fprintf(out, "| %s | `%s` | %s | %s %s | %lld%s |\n", s_of(x, "label"), s_of(x, "path"), s_of(x, "host"),
                    s_of(x, "version"), s_of(x, "git_commit"), i_of(x, "results"),
                    json_is_true(json_object_get(x, "complete")) ? "" : " (incomplete)");
        else
            fprintf(out, "%s %s = %s (%s, gemmhost %s %s, %lld results%s)\n",
                    f ? "                 " : "gemmhost compare:", s_of(x, "label"), s_of(x, "path"), s_of(x, "host"),
                    s_of(x, "version"), s_of(x, "git_commit"), i_of(x, "results"),
                    json_is_true(json_object_get(x, "complete")) ? "" : ", incomplete");
    }
}

static void environment_part(FILE *out, const json_t *doc, gh_compare_style st)
{
    const json_t *env = json_object_get(doc, "environment"), *files = json_object_get(doc, "files");
    if (!json_array_size(env)) {
        heading(out, st, "environment: no differences (gemmhost, host, settings, devices)%s%s", "", "");
        return;
    }
    heading(out, st, "environment: what differs%s%s", "", "");
    size_t w = widest(env, "what", 4);
    for (size_t i = 0; i < json_array_size(env); i++) {
        const json_t *e = json_array_get(env, i), *values = json_object_get(e, "values");
        if (st == GH_COMPARE_MARKDOWN) fprintf(out, "- %s:", s_of(e, "what"));
        else fprintf(out, "  %-*s", (int)w, s_of(e, "what"));
        for (size_t f = 0; f < json_array_size(values); f++)
            fprintf(out, "%s%s: %s", f ? (st == GH_COMPARE_MARKDOWN ? "," : "  ") : " ",
                    s_of(json_array_get(files, f), "label"), json_string_value(json_array_get(values, f)));
        fputc('\n', out);
    }
}

static void ms_text(char *buf, size_t size, const json_t *t)
{
    double med = n_of(t, "median"), lo = n_of(t, "min"), hi = n_of(t, "max");
    if (!isfinite(med)) snprintf(buf, size, "-");
    else if (isfinite(lo) && isfinite(hi)) snprintf(buf, size, "%.4g [%.4g, %.4g]", med, lo, hi);
    else snprintf(buf, size, "%.4g", med);
}

static void speed_part(FILE *out, const json_t *cmp, double threshold, gh_compare_style st)
{
    const json_t *rows = json_object_get(cmp, "speed"), *sum = json_object_get(cmp, "summary");
    const char *a = s_of(cmp, "base"), *b = s_of(cmp, "other");
    char title[128];
    snprintf(title, sizeof title, "speed, %s against %s (median kernel ms [min, max]; threshold %g%%)", b, a,
             threshold * 100);
    heading(out, st, "%s%s", title, "");
    size_t wc = widest(rows, "case", 4), wr = widest(rows, "result", 6);
    if (st == GH_COMPARE_MARKDOWN && json_array_size(rows))
        fprintf(out, "| case | result | %s ms | %s ms | ratio | verdict |\n|---|---|--:|--:|--:|---|\n", a, b);
    else if (json_array_size(rows))
        fprintf(out, "  %-*s  %-*s  %-28s  %-28s  %6s  %s\n", (int)wc, "case", (int)wr, "result", a, b, "ratio",
                "verdict");
    for (size_t i = 0; i < json_array_size(rows); i++) {
        const json_t *r = json_array_get(rows, i);
        char ta[64], tb[64];
        ms_text(ta, sizeof ta, json_object_get(r, "base_ms"));
        ms_text(tb, sizeof tb, json_object_get(r, "other_ms"));
        if (st == GH_COMPARE_MARKDOWN)
            fprintf(out, "| %s | %s | %s | %s | %.3f | %s |\n", s_of(r, "case"), s_of(r, "result"), ta, tb,
                    n_of(r, "ratio"), s_of(r, "verdict"));
        else
            fprintf(out, "  %-*s  %-*s  %-28s  %-28s  %6.3f  %s\n", (int)wc, s_of(r, "case"), (int)wr,
                    s_of(r, "result"), ta, tb, n_of(r, "ratio"), s_of(r, "verdict"));
    }
    double g = n_of(sum, "geomean_ratio");
    fprintf(out, "%s%lld matched; of those passing on both sides: %lld SAME, %lld FAST, %lld SLOW, %lld untimed; ",
            st == GH_COMPARE_MARKDOWN ? "\n" : "  summary: ", i_of(sum, "matched"), i_of(sum, "same"),
            i_of(sum, "fast"), i_of(sum, "slow"), i_of(sum, "untimed"));
    if (isfinite(g)) fprintf(out, "geometric mean ratio %.3f (%s/%s)\n", g, b, a);
    else
        fprintf(out, "no timed pair (nothing passed in both%s)\n",
                i_of(sum, "matched") ? "" : ": no result matches; see --by-plugin and --ignore-device-names");
}

static void list_part(FILE *out, const json_t *rows, const char *title, gh_compare_style st, int with_status)
{
    if (!json_array_size(rows)) return;
    enum { SHOWN = 10 }; /* a list beyond is counted: --json holds them all */
    heading(out, st, "%s:%s", title, "");
    for (size_t i = 0; i < json_array_size(rows) && (with_status || i < SHOWN); i++) {
        const json_t *r = json_array_get(rows, i);
        fprintf(out, "%s%s, %s", st == GH_COMPARE_MARKDOWN ? "- " : "  ", s_of(r, "result"), s_of(r, "case"));
        if (with_status)
            fprintf(out, ": %s -> %s (%s)%s%s", s_of(r, "before"), s_of(r, "after"), s_of(r, "change"),
                    *s_of(r, "detail") ? ": " : "", s_of(r, "detail"));
        fputc('\n', out);
    }
    if (!with_status && json_array_size(rows) > SHOWN)
        fprintf(out, "%s... and %zu more (--json lists them all)\n", st == GH_COMPARE_MARKDOWN ? "- " : "  ",
                json_array_size(rows) - SHOWN);
}

/* A value of the document written as a number: a JSON number, or "nan", "inf". */
static void value_text(char *buf, size_t size, const json_t *v, int digits)
{
    if (json_is_number(v)) snprintf(buf, size, "%.*g", digits, json_number_value(v));
    else snprintf(buf, size, "%s", json_is_string(v) ? json_string_value(v) : "-");
}

/* Outputs that moved beyond their bound against the baseline: regressions. */
static void outputs_part(FILE *out, const json_t *cmp, gh_compare_style st)
{
    const json_t *rows = json_object_get(cmp, "outputs");
    if (!json_array_size(rows)) return;
    heading(out, st, "outputs beyond their error bound, %s against %s (fingerprints):", s_of(cmp, "other"),
            s_of(cmp, "base"));
    for (size_t i = 0; i < json_array_size(rows); i++) {
        const json_t *r = json_array_get(rows, i);
        char d[64], x[64], y[64], b[64];
        value_text(d, sizeof d, json_object_get(r, "diff_in_bounds"), 3);
        value_text(x, sizeof x, json_object_get(r, "base_value"), 9);
        value_text(y, sizeof y, json_object_get(r, "other_value"), 9);
        value_text(b, sizeof b, json_object_get(r, "bound"), 3);
        fprintf(out, "%s%s, %s: C[%lld,%lld] %s -> %s, %s bounds apart (bound %s) (worse)\n",
                st == GH_COMPARE_MARKDOWN ? "- " : "  ", s_of(r, "result"), s_of(r, "case"), i_of(r, "i"), i_of(r, "j"),
                x, y, d, b);
    }
}

static void agreement_diff(FILE *out, const json_t *c)
{
    const json_t *worst = json_object_get(c, "worst");
    char d[64];
    value_text(d, sizeof d, json_object_get(c, "max_diff_in_bounds"), 3);
    if (json_array_size(worst) == 2)
        fprintf(out, "; largest difference %s of the bound (%s vs %s)", d, json_string_value(json_array_get(worst, 0)),
                json_string_value(json_array_get(worst, 1)));
    else if (json_is_false(json_object_get(c, "fingerprints")))
        fprintf(out, "; no fingerprints to measure the difference");
}

static void agreement_part(FILE *out, const json_t *doc, gh_compare_style st)
{
    const json_t *cases = json_object_get(doc, "agreement");
    heading(out, st, "outputs across files (groups of bit-identical outputs)%s%s", "", "");
    for (size_t i = 0; i < json_array_size(cases); i++) {
        const json_t *c = json_array_get(cases, i), *groups = json_object_get(c, "groups");
        size_t n_files = json_object_size(json_object_get(c, "files")), n_results = 0;
        for (size_t g = 0; g < json_array_size(groups); g++)
            n_results += json_array_size(json_object_get(json_array_get(groups, g), "members"));
        fprintf(out, "%s%s: %zu results in %zu file%s, ", st == GH_COMPARE_MARKDOWN ? "- " : "  ", s_of(c, "case"),
                n_results, n_files, n_files == 1 ? "" : "s");
        if (json_array_size(groups) == 1) {
            fprintf(out, "all bit-identical\n");
            continue;
        }
        fprintf(out, "%zu outputs:", json_array_size(groups));
        for (size_t g = 0; g < json_array_size(groups); g++) {
            const json_t *per_file = json_object_get(json_array_get(groups, g), "per_file");
            const char *label;
            json_t *count;
            int first = 1;
            fprintf(out, "%s #%zu", g ? "," : "", g + 1);
            json_object_foreach((json_t *)per_file, label, count)
            {
                fprintf(out, "%s%s:%lld", first ? " " : " ", label, (long long)json_integer_value(count));
                first = 0;
            }
        }
        agreement_diff(out, c);
        fputc('\n', out);
    }
    if (!json_array_size(cases)) fprintf(out, "  no case ran in any file\n");
    fprintf(out, "%snote: %s\n", st == GH_COMPARE_MARKDOWN ? "\n" : "  ", s_of(doc, "agreement_note"));
}

void gh_compare_render(FILE *out, const json_t *doc, gh_compare_style st)
{
    files_part(out, doc, st);
    environment_part(out, doc, st);
    const json_t *pairs = json_object_get(doc, "comparisons");
    double threshold = n_of(doc, "threshold");
    for (size_t i = 0; i < json_array_size(pairs); i++) {
        const json_t *cmp = json_array_get(pairs, i);
        char title[128];
        speed_part(out, cmp, threshold, st);
        snprintf(title, sizeof title, "status changes, %s against %s", s_of(cmp, "other"), s_of(cmp, "base"));
        list_part(out, json_object_get(cmp, "status"), title, st, 1);
        outputs_part(out, cmp, st);
        snprintf(title, sizeof title, "new in %s, not in %s", s_of(cmp, "other"), s_of(cmp, "base"));
        list_part(out, json_object_get(cmp, "new"), title, st, 0);
        snprintf(title, sizeof title, "missing from %s, in %s", s_of(cmp, "other"), s_of(cmp, "base"));
        list_part(out, json_object_get(cmp, "missing"), title, st, 0);
    }
    agreement_part(out, doc, st);
    long long reg = i_of(doc, "regressions");
    fprintf(out, "\n%sgemmhost compare: %lld regression%s%s\n", st == GH_COMPARE_MARKDOWN ? "**" : "", reg,
            reg == 1 ? "" : "s", st == GH_COMPARE_MARKDOWN ? "**" : "");
}
