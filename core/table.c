/* The terminal table: a row per result as it arrives, the split members
 * and agreement under it, and the notes. */
#include "table.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "encode.h"

struct gh_table {
    FILE *out;
    int header_done;
};

gh_table *gh_table_open(FILE *out)
{
    gh_table *t = calloc(1, sizeof *t);
    if (t) t->out = out;
    return t;
}

void gh_table_close(gh_table *t)
{
    if (!t) return;
    fflush(t->out);
    free(t);
}

enum {
    W_BACKEND = 10, W_DEVICE = 18, W_KERNEL = 10, W_PARAMS = 10, W_DTYPE = 5, W_TRANS = 5,
    W_SHAPE = 17, W_STATUS = 11, W_ERR = 9, W_MS = 10, W_GFLOPS = 9
};

/* Fits s into a cell of size - 1 columns: control characters become '?', and
 * a value too long is cut with '~' as its last character so the cut shows. */
static void cell(char *out, size_t size, const char *s)
{
    size_t width = size - 1, n = 0;
    if (!s) s = "-";
    for (; s[n] && n < width; n++)
        out[n] = ((unsigned char)s[n] < 0x20 || s[n] == 0x7f) ? '?' : s[n];
    if (s[n]) out[width - 1] = '~';
    out[n] = '\0';
}

/* Drops the decoration of marketing names ("Intel(R) Core(TM) i7 CPU @ 3GHz"
 * becomes "Intel Core i7 CPU") so the part that tells devices apart fits. */
static void short_device_name(char *out, size_t size, int index, const char *name)
{
    static const char *const noise[] = {"(R)", "(r)", "(TM)", "(tm)"};
    char buf[256];
    size_t n = 0;
    if (!name || !*name) name = "?";
    if (index >= 0) n = (size_t)snprintf(buf, sizeof buf, "%d:", index);
    for (const char *p = name; *p && n + 1 < sizeof buf;) {
        if (strncmp(p, " @ ", 3) == 0) break;   /* clock speed suffix */
        size_t skip = 0;
        for (size_t i = 0; i < sizeof noise / sizeof noise[0] && !skip; i++)
            if (strncmp(p, noise[i], strlen(noise[i])) == 0) skip = strlen(noise[i]);
        if (skip) { p += skip; continue; }
        if (*p == ' ' && (n == 0 || buf[n - 1] == ' ' || buf[n - 1] == ':')) { p++; continue; }
        buf[n++] = *p++;
    }
    while (n > 0 && buf[n - 1] == ' ') n--;
    buf[n] = '\0';
    snprintf(out, size, "%s", buf);
}

static void table_header(gh_table *t)
{
    if (t->header_done) return;
    t->header_done = 1;
    fprintf(t->out, "%-*s %-*s %-*s %-*s %-*s %-*s %-*s %-*s %*s %*s %*s\n",
            W_BACKEND, "backend", W_DEVICE, "device", W_KERNEL, "kernel", W_PARAMS, "params",
            W_DTYPE, "dtype", W_TRANS, "trans", W_SHAPE, "MxNxK", W_STATUS, "status",
            W_ERR, "err/bound", W_MS, "median ms", W_GFLOPS, "GFLOP/s");
}

/* Prints text after `first`, with every following line indented by `indent`. */
static void print_indented(FILE *f, const char *first, const char *indent, const char *text)
{
    fputs(first, f);
    for (const char *p = text; *p; p++) {
        if (*p == '\r') continue;
        fputc(*p, f);
        if (*p == '\n' && p[1]) fputs(indent, f);
    }
    fputc('\n', f);
}

static void format_err_cell(char *out, size_t size, const gh_result *res)
{
    if (!res->verify.checked) snprintf(out, size, "-");
    else snprintf(out, size, "%.3g", res->verify.max_err_over_bound);
}

static void format_timing_cells(char *ms, char *gf, size_t size, const gh_result *res)
{
    if (res->repeats <= 0) {
        snprintf(ms, size, "-");
        snprintf(gf, size, "-");
        return;
    }
    snprintf(ms, size, "%.4f", res->kernel_ms_median);
    snprintf(gf, size, "%.1f", res->gflops);
}

void gh_table_result(gh_table *t, const gh_result *res)
{
    char backend[W_BACKEND + 1], device[W_DEVICE + 1], kernel[W_KERNEL + 1], params[W_PARAMS + 1];
    char shape[W_SHAPE + 1], status[W_STATUS + 1], err[W_ERR + 1], ms[W_MS + 1], gf[W_GFLOPS + 1];
    char trans[3], tmp[256], tmp_ms[64], tmp_gf[64];

    table_header(t);
    cell(backend, sizeof backend, res->backend);
    short_device_name(tmp, sizeof tmp, res->device_index, res->device_name);
    cell(device, sizeof device, tmp);
    cell(kernel, sizeof kernel, res->kernel);
    cell(params, sizeof params, res->params[0] ? res->params : "-");
    gh_trans_name(trans, res->trans_a, res->trans_b);
    snprintf(tmp, sizeof tmp, "%" PRId64 "x%" PRId64 "x%" PRId64, res->m, res->n, res->k);
    cell(shape, sizeof shape, tmp);
    cell(status, sizeof status, gh_result_status_name(res->status));
    format_err_cell(tmp, sizeof tmp, res);
    cell(err, sizeof err, tmp);
    format_timing_cells(tmp_ms, tmp_gf, sizeof tmp_ms, res);
    cell(ms, sizeof ms, tmp_ms);
    cell(gf, sizeof gf, tmp_gf);

    fprintf(t->out, "%-*s %-*s %-*s %-*s %-*s %-*s %-*s %-*s %*s %*s %*s\n",
            W_BACKEND, backend, W_DEVICE, device, W_KERNEL, kernel, W_PARAMS, params,
            W_DTYPE, gh_dtype_name(res->dtype), W_TRANS, trans, W_SHAPE, shape, W_STATUS, status,
            W_ERR, err, W_MS, ms, W_GFLOPS, gf);

    const char *why = res->detail[0] ? res->detail : res->verify.message;
    if (res->status != GH_RESULT_PASS && why[0]) print_indented(t->out, "    ", "    ", why);
    fflush(t->out);
}

/* One line per member under its split's row; a failure on a line of its own. */
void gh_table_split_members(gh_table *t, const gh_report_split_member *members, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const gh_report_split_member *m = &members[i];
        fprintf(t->out, "    %s/%d %s%s%s: %" PRId64 " chunks, %" PRId64 " GEMMs, compute %.3f ms, upload %.3f ms, "
                "download %.3f ms, wait %.3f ms; %s, %s\n",
                m->backend, m->device_index, m->kernel, m->params && *m->params ? " " : "", m->params ? m->params : "",
                m->chunks, m->gemms, m->compute_ms, m->upload_ms, m->download_ms, m->wait_ms,
                m->streams ? "streams" : "blocking calls", m->layout ? m->layout : "-");
        if (m->error && m->error[0]) print_indented(t->out, "      failed: ", "      ", m->error);
    }
    fflush(t->out);
}

void gh_table_agreement(gh_table *t, const gh_agreement *a)
{
    char trans[3];
    gh_trans_name(trans, a->trans_a, a->trans_b);
    fprintf(t->out, "agreement, case %d (%s %s %" PRId64 "x%" PRId64 "x%" PRId64 "): ",
            a->case_index, gh_dtype_name(a->dtype), trans, a->m, a->n, a->k);
    if (a->n_groups == 0) fprintf(t->out, "no outputs\n");
    else if (a->n_groups == 1) fprintf(t->out, "1 group, identical outputs\n");
    else
        fprintf(t->out, "%zu groups, max diff %.3g of the bound%s\n", a->n_groups,
                a->max_diff_in_bounds, a->max_diff_in_bounds > 1 || isnan(a->max_diff_in_bounds) ? " (BEYOND)" : "");
    for (size_t g = 0; g < a->n_groups; g++) {
        const gh_agreement_group *grp = &a->groups[g];
        fprintf(t->out, "  group %zu (hash %016" PRIx64 "):", g + 1, grp->hash);
        for (size_t m = 0; m < grp->n_members; m++)
            fprintf(t->out, "%s %s", m ? "," : "", grp->members[m]);
        fputc('\n', t->out);
    }
    fflush(t->out);
}

void gh_table_note(gh_table *t, const char *text)
{
    print_indented(t->out, "note: ", "      ", text);
    fflush(t->out);
}
