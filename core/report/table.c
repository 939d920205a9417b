/* The terminal table and the end summary; see table.h.
 *
 * The text columns (backend, device, kernel, params) are as wide as the
 * widest row announced by gh_table_expect, so the rows of a sweep can be
 * told apart; a cell wider than GH_TABLE_MAX_CELL, or one nobody announced,
 * wraps onto the next lines of its column rather than being cut. */
#include "table.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "agreement_text.h"
#include "encode.h"
#include "first_screen.h"
#include "util.h"

enum { COL_BACKEND, COL_DEVICE, COL_KERNEL, COL_PARAMS, N_TEXT_COLS = 4 };
enum { N_RESULT_COLS = 13, N_STATUS = GH_RESULT_CANCELLED + 1, MAX_COLS = 24 };
/* The first statuses always have a summary column; later ones only in a run that has them. */
enum { N_STATUS_ALWAYS = GH_RESULT_UNCHECKED + 1 };

typedef struct column {
    const char *title;
    int width; /* when no row was announced */
    int right; /* right-aligned (numbers) */
} column;

static const column result_cols[N_RESULT_COLS] = {
    {"backend", 10, 0}, {"device", 18, 0}, {"kernel", 10, 0}, {"params", 10, 0},   {"dtype", 5, 0},
    {"trans", 5, 0},    {"MxNxK", 17, 0},  {"status", 11, 0}, {"err/bound", 9, 1}, {"median ms", 10, 1},
    {"GFLOP/s", 9, 1},  {"%peak", 5, 1},   {"gpu", 3, 0},
};

/* The summary's counts, in gh_result_status order. */
static const char *const count_titles[N_STATUS] = {"passed",    "failed",  "unsupported", "errors",
                                                   "unchecked", "crashed", "timeout",     "cancelled"};

typedef struct summary_row {
    char *cells[N_TEXT_COLS]; /* backend, device, kernel, params as in the table */
    size_t count[N_STATUS];
    double best[GH_DTYPE_COUNT]; /* best GFLOP/s of the results that ran; < 0: none */
} summary_row;

struct gh_table {
    gh_table_options o;
    int header_done;
    int announced;             /* gh_table_expect was called */
    int expected[N_TEXT_COLS]; /* widest announced cell */
    int width[N_RESULT_COLS];
    summary_row *rows;
    size_t n_rows;
    unsigned dtypes_seen;       /* GH_DTYPE_BIT mask */
    gh_strlist failures, notes; /* texts, repeated at the end */
    gh_first_screen *screen;    /* the end's summary by dtype (and by kernel unless verbose) */
    int rows_now;               /* verbose and not quiet: each row as it comes */
};

gh_table *gh_table_open(const gh_table_options *o)
{
    gh_table *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->o = *o;
    if (!t->o.err) t->o.err = stderr;
    t->o.verbose |= t->o.full_agreement; /* the groups go under each case's line */
    t->rows_now = t->o.verbose && !t->o.quiet;
    t->screen = gh_first_screen_new();
    if (!t->screen) {
        free(t);
        return NULL;
    }
    return t;
}

void gh_table_close(gh_table *t)
{
    if (!t) return;
    if (t->o.out) fflush(t->o.out);
    fflush(t->o.err);
    for (size_t i = 0; i < t->n_rows; i++)
        for (int c = 0; c < N_TEXT_COLS; c++) free(t->rows[i].cells[c]);
    free(t->rows);
    gh_sl_free(&t->failures);
    gh_sl_free(&t->notes);
    gh_first_screen_free(t->screen);
    free(t);
}

/* ------------------------------------------------------------------------ */
/* Cells: clean text, measured in characters, wrapped at word boundaries. */

/* A copy with control characters as '?', so a cell stays on its line. */
static char *clean(const char *s)
{
    char *c = gh_strdup(s && *s ? s : "-");
    for (char *p = c; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = '?';
    return c;
}

static int is_continuation(char c)
{
    return ((unsigned char)c & 0xC0) == 0x80;
}

/* Characters (not bytes) in the first n bytes of s. */
static int text_cols(const char *s, size_t n)
{
    int cols = 0;
    for (size_t i = 0; i < n; i++) cols += !is_continuation(s[i]);
    return cols;
}

static int is_break(char c)
{
    return c == ' ' || c == ',' || c == '/' || c == ';';
}

/* The bytes of s that fit in `width` characters, ending after a space,
 * comma or slash when one is in the second half; *next is where the rest
 * starts (past the spaces). */
static size_t piece(const char *s, int width, const char **next)
{
    size_t n = 0;
    for (int cols = 0; s[n] && (cols < width || is_continuation(s[n])); n++) cols += !is_continuation(s[n]);
    if (s[n] && s[n] != ' ') {
        for (size_t i = n; i > n / 2; i--)
            if (is_break(s[i - 1])) {
                n = i;
                break;
            }
    }
    *next = s + n;
    while (**next == ' ') (*next)++;
    while (n > 0 && s[n - 1] == ' ') n--;
    return n;
}

/* One row: as many lines as its tallest cell needs; no trailing spaces. */
static void print_row(FILE *f, const int *width, const int *right, size_t n, const char *const *cells)
{
    const char *rest[MAX_COLS];
    for (size_t c = 0; c < n; c++) rest[c] = cells[c];
    gh_sbuf line = {0};
    int more;
    do {
        more = 0;
        line.len = 0;
        for (size_t c = 0; c < n; c++) {
            const char *next;
            size_t len = piece(rest[c], width[c], &next);
            int pad = width[c] - text_cols(rest[c], len);
            if (c) gh_sb_putc(&line, ' ');
            if (right[c]) gh_sb_printf(&line, "%*s", pad > 0 ? pad : 0, "");
            gh_sb_putn(&line, rest[c], len);
            if (!right[c]) gh_sb_printf(&line, "%*s", pad > 0 ? pad : 0, "");
            rest[c] = next;
            if (*next) more = 1;
        }
        while (line.len > 0 && line.s[line.len - 1] == ' ') line.len--;
        gh_sb_putc(&line, '\n');
        if (!line.oom) fputs(line.s, f);
    } while (more);
    free(gh_sb_take(&line));
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

/* ------------------------------------------------------------------------ */
/* The rows. */

/* The text cells of a row, as the table shows them (owned by the caller). */
static void text_cells(char *cells[N_TEXT_COLS], const char *backend, const char *device, const char *kernel,
                       const char *params)
{
    cells[COL_BACKEND] = clean(backend);
    cells[COL_DEVICE] = clean(device);
    cells[COL_KERNEL] = clean(kernel);
    cells[COL_PARAMS] = clean(params);
}

static void free_cells(char **cells, size_t n)
{
    for (size_t c = 0; c < n; c++) free(cells[c]);
}

void gh_table_expect(gh_table *t, const char *backend, const char *device_label, const char *kernel, const char *params)
{
    if (!t) return;
    char device[512], *cells[N_TEXT_COLS];
    gh_device_label(device, sizeof device, -1, device_label);
    text_cells(cells, backend, device, kernel, params);
    t->announced = 1;
    for (int c = 0; c < N_TEXT_COLS; c++) {
        int w = text_cols(cells[c], strlen(cells[c]));
        if (w > t->expected[c]) t->expected[c] = w;
    }
    free_cells(cells, N_TEXT_COLS);
}

static void settle_widths(gh_table *t)
{
    for (int c = 0; c < N_RESULT_COLS; c++) {
        int w = result_cols[c].width, title = (int)strlen(result_cols[c].title);
        if (c < N_TEXT_COLS && t->announced)
            w = t->expected[c] < GH_TABLE_MAX_CELL ? t->expected[c] : GH_TABLE_MAX_CELL;
        t->width[c] = w > title ? w : title;
    }
}

static void print_result_row(gh_table *t, const char *const *cells)
{
    int right[N_RESULT_COLS];
    for (int c = 0; c < N_RESULT_COLS; c++) right[c] = result_cols[c].right;
    print_row(t->o.out, t->width, right, N_RESULT_COLS, cells);
}

static void table_header(gh_table *t)
{
    if (t->header_done) return;
    t->header_done = 1;
    settle_widths(t);
    const char *titles[N_RESULT_COLS];
    for (int c = 0; c < N_RESULT_COLS; c++) titles[c] = result_cols[c].title;
    print_result_row(t, titles);
}

static const char *reason(const gh_result *res)
{
    return res->detail[0] ? res->detail : res->verify.message;
}

/* "FAIL  cpu, 0:Intel Core i7, tiled tile=16, f32 nn 37x53x29: why", kept for the end. */
static char *failure_text(const gh_result *res, const char *device)
{
    char trans[3], types[128];
    gh_trans_name(trans, res->trans_a, res->trans_b);
    return gh_strdupf("%-5s %s, %s, %s%s%s, %s %s %" PRId64 "x%" PRId64 "x%" PRId64 ": %s",
                      gh_result_status_name(res->status), res->backend, device, res->kernel, res->params[0] ? " " : "",
                      res->params, gh_result_types_label(res, types, sizeof types), trans, res->m, res->n, res->k,
                      reason(res)[0] ? reason(res) : "(no reason given)");
}

static summary_row *summary_row_for(gh_table *t, char *const *cells)
{
    for (size_t i = t->n_rows; i-- > 0;) {
        summary_row *r = &t->rows[i];
        int same = 1;
        for (int c = 0; c < N_TEXT_COLS && same; c++) same = strcmp(r->cells[c], cells[c]) == 0;
        if (same) return r;
    }
    t->rows = gh_xrealloc(t->rows, (t->n_rows + 1) * sizeof *t->rows);
    summary_row *r = &t->rows[t->n_rows++];
    memset(r, 0, sizeof *r);
    for (int c = 0; c < N_TEXT_COLS; c++) r->cells[c] = gh_strdup(cells[c]);
    for (int d = 0; d < GH_DTYPE_COUNT; d++) r->best[d] = -1;
    return r;
}

static void count_result(gh_table *t, const gh_result *res, char *const *cells)
{
    summary_row *r = summary_row_for(t, cells);
    if ((int)res->status < N_STATUS) r->count[res->status]++;
    int ran = res->status == GH_RESULT_PASS || res->status == GH_RESULT_UNCHECKED;
    if (ran && res->repeats > 0 && res->dtype < GH_DTYPE_COUNT && res->gflops > r->best[res->dtype])
        r->best[res->dtype] = res->gflops;
    if ((unsigned)res->dtype < GH_DTYPE_COUNT) t->dtypes_seen |= GH_DTYPE_BIT(res->dtype);
}

void gh_table_result(gh_table *t, const gh_result *res)
{
    if (!t || !res) return;
    char device[512], shape[96], err[32], ms[32], gf[32], peak[32], trans[3];
    gh_device_label(device, sizeof device, res->device_index, res->device_name);
    char *cells[N_RESULT_COLS];
    text_cells(cells, res->backend, device, res->kernel, res->params);
    count_result(t, res, cells);
    gh_first_screen_result(t->screen, res, cells[COL_DEVICE]);

    int failed = res->status == GH_RESULT_FAIL || res->status == GH_RESULT_ERROR || res->status == GH_RESULT_CRASHED ||
                 res->status == GH_RESULT_TIMEOUT || res->status == GH_RESULT_CANCELLED;
    if (failed) {
        char *text = failure_text(res, cells[COL_DEVICE]);
        if (t->o.quiet) print_indented(t->o.err, "", "      ", text);
        if (gh_sl_push(&t->failures, text) != 0) print_indented(t->o.err, "", "      ", "(out of memory)");
    }
    if (t->rows_now) {
        char types[128];
        table_header(t);
        gh_trans_name(trans, res->trans_a, res->trans_b);
        snprintf(shape, sizeof shape, "%" PRId64 "x%" PRId64 "x%" PRId64, res->m, res->n, res->k);
        if (res->verify.checked) snprintf(err, sizeof err, "%.3g", res->verify.max_err_over_bound);
        else snprintf(err, sizeof err, "-");
        if (res->repeats > 0) {
            snprintf(ms, sizeof ms, "%.4f", res->kernel_ms_median);
            snprintf(gf, sizeof gf, "%.1f", res->gflops);
        } else {
            snprintf(ms, sizeof ms, "-");
            snprintf(gf, sizeof gf, "-");
        }
        if (res->repeats > 0 && res->gpu.peak_gflops > 0 && res->gpu.peak_percent >= 0)
            snprintf(peak, sizeof peak, "%.1f", res->gpu.peak_percent);
        else snprintf(peak, sizeof peak, "-");
        /* the GPU's state (core/device_state): "-" not sampled, "ok", or "throttled" */
        const char *gpu = !res->gpu.samples ? "-" : res->gpu.throttled ? "throttled" : "ok";
        const char *row[N_RESULT_COLS] = {cells[0],
                                          cells[1],
                                          cells[2],
                                          cells[3],
                                          gh_dtype_name(res->dtype),
                                          trans,
                                          shape,
                                          gh_result_status_name(res->status),
                                          err,
                                          ms,
                                          gf,
                                          peak,
                                          gpu};
        print_result_row(t, row);
        /* an 8-bit case's types (B's, C's, the scales) on a line of their own, too wide for the column */
        if (res->arith_declared || res->types.explicit_types)
            fprintf(t->o.out, "    %s: %s\n", gh_result_types_label(res, types, sizeof types), res->arithmetic);
        if (res->params_note[0] && res->params_used[0])
            fprintf(t->o.out, "    %s: %s\n", res->params_used, res->params_note);
        else if (res->params_note[0]) fprintf(t->o.out, "    %s\n", res->params_note); /* the plugin's note */
        if (res->gpu.throttled) fprintf(t->o.out, "    throttled while timed: %s\n", res->gpu.throttle_reason);
        if (res->status != GH_RESULT_PASS && reason(res)[0]) print_indented(t->o.out, "    ", "    ", reason(res));
    }
    free_cells(cells, N_TEXT_COLS);
    fflush(t->o.quiet ? t->o.err : t->o.out);
}

/* One line per member under its split's row; a failure on a line of its own. */
void gh_table_split_members(gh_table *t, const gh_report_split_member *members, size_t n)
{
    if (!t || !t->rows_now) return;
    for (size_t i = 0; i < n; i++) {
        const gh_report_split_member *m = &members[i];
        fprintf(t->o.out,
                "    %s/%d %s%s%s: %" PRId64 " chunks, %" PRId64
                " GEMMs, compute %.3f ms, upload %.3f ms, "
                "download %.3f ms, wait %.3f ms; %s, %s\n",
                m->backend, m->device_index, m->kernel, m->params && *m->params ? " " : "", m->params ? m->params : "",
                m->chunks, m->gemms, m->compute_ms, m->upload_ms, m->download_ms, m->wait_ms,
                m->streams ? "streams" : "blocking calls", m->layout ? m->layout : "-");
        fprintf(t->o.out, "      upload %.2f GB/s, download %.2f GB/s; host memory: %s; NUMA: %s; B: %s\n",
                m->upload_gbps, m->download_gbps, m->host_memory && *m->host_memory ? m->host_memory : "-",
                m->numa && *m->numa ? m->numa : "-", m->b_path && *m->b_path ? m->b_path : "-");
        if (m->error && m->error[0]) print_indented(t->o.out, "      failed: ", "      ", m->error);
    }
    fflush(t->o.out);
}

void gh_table_agreement(gh_table *t, const gh_agreement *a)
{
    if (!t) return;
    gh_first_screen_agreement(t->screen, a);
    if (!t->rows_now) return;
    char *line = gh_agreement_line(a);
    fprintf(t->o.out, "%s\n", line ? line : "agreement: (out of memory)");
    free(line);
    for (size_t g = 0; t->o.full_agreement && g < a->n_groups; g++) {
        const gh_agreement_group *grp = &a->groups[g];
        char name[24];
        gh_agreement_group_name(name, sizeof name, g);
        fprintf(t->o.out, "  %s (hash %016" PRIx64 "):", name, grp->hash);
        for (size_t m = 0; m < grp->n_members; m++) fprintf(t->o.out, "%s %s", m ? "," : "", grp->members[m]);
        fputc('\n', t->o.out);
    }
    fflush(t->o.out);
}

void gh_table_say(gh_table *t, const char *text)
{
    if (!t) return;
    FILE *f = t->o.quiet ? t->o.err : t->o.out;
    print_indented(f, "", "", text);
    fflush(f);
}

void gh_table_line(gh_table *t, const char *text)
{
    if (!t || !t->o.out) return;
    fprintf(t->o.out, "%s\n", text);
    fflush(t->o.out);
}

void gh_table_note(gh_table *t, const char *text)
{
    if (!t) return;
    FILE *f = t->o.quiet ? t->o.err : t->o.out;
    if (t->o.quiet || t->o.verbose) { /* the first screen has them at the end, once */
        print_indented(f, "note: ", "      ", text);
        fflush(f);
    }
    gh_sl_push(&t->notes, gh_strdup(text)); /* out of memory: not repeated at the end */
}

/* ------------------------------------------------------------------------ */
/* The end. */

/* Whether the summary shows a column for status s. */
static int status_shown(const gh_table *t, int s)
{
    if (s < N_STATUS_ALWAYS) return 1;
    for (size_t i = 0; i < t->n_rows; i++)
        if (t->rows[i].count[s]) return 1;
    return 0;
}

static void summary_table(gh_table *t)
{
    const char *titles[MAX_COLS];
    char best_titles[GH_DTYPE_COUNT][32];
    int width[MAX_COLS], right[MAX_COLS];
    size_t n = 0;
    settle_widths(t);
    for (int c = 0; c < N_TEXT_COLS; c++, n++) {
        titles[n] = result_cols[c].title;
        width[n] = t->width[c];
        right[n] = 0;
    }
    for (int s = 0; s < N_STATUS; s++) {
        if (!status_shown(t, s)) continue;
        titles[n] = count_titles[s];
        width[n] = (int)strlen(count_titles[s]);
        right[n++] = 1;
    }
    for (int d = 0; d < GH_DTYPE_COUNT; d++) {
        if (!(t->dtypes_seen & GH_DTYPE_BIT(d))) continue;
        snprintf(best_titles[d], sizeof best_titles[d], "%s GFLOP/s", gh_dtype_name((gh_dtype)d));
        titles[n] = best_titles[d];
        width[n] = (int)strlen(best_titles[d]);
        right[n++] = 1;
    }
    fprintf(t->o.out, "\nsummary (GFLOP/s: the best of the results that ran):\n");
    print_row(t->o.out, width, right, n, titles);
    for (size_t i = 0; i < t->n_rows; i++) {
        const summary_row *r = &t->rows[i];
        char numbers[N_STATUS + GH_DTYPE_COUNT][32];
        const char *cells[MAX_COLS];
        size_t k = 0;
        for (int c = 0; c < N_TEXT_COLS; c++) cells[k++] = r->cells[c];
        for (int s = 0; s < N_STATUS; s++) {
            if (!status_shown(t, s)) continue;
            snprintf(numbers[s], sizeof numbers[s], "%zu", r->count[s]);
            cells[k++] = numbers[s];
        }
        for (int d = 0; d < GH_DTYPE_COUNT; d++) {
            if (!(t->dtypes_seen & GH_DTYPE_BIT(d))) continue;
            if (r->best[d] >= 0) snprintf(numbers[N_STATUS + d], sizeof numbers[0], "%.1f", r->best[d]);
            else snprintf(numbers[N_STATUS + d], sizeof numbers[0], "-");
            cells[k++] = numbers[N_STATUS + d];
        }
        print_row(t->o.out, width, right, k, cells);
    }
}

/* The unsupported results of the first screen: a count, since each says only
 * what a kernel or device lacks. */
static void unsupported_count(const gh_table *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->n_rows; i++) n += t->rows[i].count[GH_RESULT_UNSUPPORTED];
    if (n)
        fprintf(t->o.out,
                "\n%zu unsupported result%s (a dtype or feature the kernel or device lacks);\n"
                "--verbose or the CSV gives each reason\n",
                n, n == 1 ? "" : "s");
}

void gh_table_summary(gh_table *t)
{
    if (!t || t->o.quiet) return;
    const char *again = t->o.verbose ? ", again" : "";
    if (t->o.verbose && t->n_rows) summary_table(t);
    else gh_first_screen_kernels(t->screen, t->o.out);
    gh_first_screen_verdicts(t->screen, t->o.out);
    if (!t->o.verbose) unsupported_count(t);
    if (t->failures.n) {
        fprintf(t->o.out, "\nfailures and errors (%zu)%s:\n", t->failures.n, again);
        for (size_t i = 0; i < t->failures.n; i++) print_indented(t->o.out, "  ", "        ", t->failures.items[i]);
    }
    if (t->notes.n) {
        fprintf(t->o.out, "\nnotes (%zu)%s:\n", t->notes.n, again);
        for (size_t i = 0; i < t->notes.n; i++) print_indented(t->o.out, "  ", "    ", t->notes.items[i]);
    }
    fflush(t->o.out);
}
