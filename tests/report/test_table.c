/* Tests of what a run shows on the terminal (core/report/table.c through the
 * report, and core/verify/agreement_text.c): columns sized to the rows of a sweep,
 * wrapping instead of cutting, one agreement line per case, the summary at
 * the end and --quiet. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agreement_text.h"
#define CHECK_MAIN /* this file holds the check counters */
#include "first_screen.h"
#include "fixtures.h"
#include "report.h"
#include "table.h"

typedef struct terminal {
    FILE *out, *messages;
    gh_report *r;
} terminal;

/* A report without files, its table and quiet messages in temp files. */
static terminal open_terminal(int quiet, int full_agreement)
{
    terminal t = {tmpfile(), tmpfile(), NULL};
    char err[256] = "";
    gh_report_options o = {
        .table = t.out, .messages = t.messages, .quiet = quiet, .full_agreement = full_agreement, .verbose = 1};
    if (t.out && t.messages) t.r = gh_report_open(&o, err, sizeof err);
    EXPECT(t.r != NULL, "open a report without files: %s", err);
    return t;
}

/* Closes the report; returns what went to the table (and *messages, if asked). */
static char *close_terminal(terminal *t, char **messages)
{
    char err[256] = "";
    EXPECT(gh_report_close(t->r, err, sizeof err) == 0, "close: %s", err);
    char *out = read_stream(t->out);
    if (messages) *messages = read_stream(t->messages);
    fclose(t->out);
    fclose(t->messages);
    return out;
}

/* The line of text that contains `what`, copied (the last 4 stay valid); "" when none. */
static char *line_with(const char *text, const char *what)
{
    static char lines[4][1024];
    static int next;
    char *line = lines[next++ % 4];
    const char *p = strstr(text, what);
    line[0] = '\0';
    if (!p) return line;
    while (p > text && p[-1] != '\n') p--;
    size_t n = strcspn(p, "\n");
    if (n >= sizeof lines[0]) n = sizeof lines[0] - 1;
    memcpy(line, p, n);
    line[n] = '\0';
    return line;
}

/* Where `column` starts in the header line. */
static long column_at(const char *text, const char *column)
{
    const char *hdr = line_with(text, "backend ");
    const char *c = strstr(hdr, column);
    return c ? (long)(c - hdr) : -1;
}

/* A sweep of tile values under a long backend name: every params cell whole,
 * every row's status under the header's. */
static void test_sweep_columns(void)
{
    terminal t = open_terminal(0, 0);
    if (!t.r) return;
    gh_device_info dev = sample_device();
    static const char *const tiles[] = {"tile=4", "tile=8", "tile=16", "tile=32", "tile=64 vec=4 unroll=2"};
    const char *backend = "cpu-with-a-much-longer-backend-name";
    for (int i = 0; i < 5; i++)
        gh_report_expect(t.r, backend, "0:Intel(R) Core(TM) i7-8700 Very Long Name CPU @ 3.20GHz", "tiled", tiles[i]);
    for (int i = 0; i < 5; i++) {
        gh_result res = pass_result(&dev, 0);
        res.backend = backend;
        snprintf(res.params, sizeof res.params, "%s", tiles[i]);
        gh_report_result(t.r, &res);
    }
    char *out = close_terminal(&t, NULL);
    long status_at = column_at(out, "status");
    EXPECT(status_at > 0, "header has a status column:\n%s", out);
    for (int i = 0; i < 5; i++) {
        char cell[64];
        snprintf(cell, sizeof cell, " %s ", tiles[i]); /* whole, between column gaps */
        char *row = line_with(out, cell);
        EXPECT(*row, "params '%s' whole in its row:\n%s", tiles[i], out);
        EXPECT(strncmp(row, backend, strlen(backend)) == 0, "backend name whole in row %d: %s", i, row);
        EXPECT((long)strlen(row) > status_at && strncmp(row + status_at, "pass", 4) == 0,
               "row %d: status under the header's:\n%s", i, out);
        EXPECT(strstr(row, "0:Intel Core i7-8700 Very Long Name CPU") != NULL, "device whole in row %d: %s", i, row);
    }
    EXPECT(strchr(out, '~') == NULL, "nothing cut with '~':\n%s", out);
    EXPECT(count_lines_starting(out, "backend ") == 1, "one header:\n%s", out);
    free(out);
}

/* A cell past the widest width wraps onto the next lines of its column;
 * every character is still there, in order. */
static void test_wrap(void)
{
    terminal t = open_terminal(0, 0);
    if (!t.r) return;
    gh_device_info dev = sample_device();
    const char *params = "tile=16 vec=4 unroll=8 local_x=16 local_y=16 prefetch=2 double_buffer=1 swizzle=3";
    gh_report_expect(t.r, "cpu", "0:cpu", "tiled", params);
    gh_result res = pass_result(&dev, 0);
    snprintf(res.params, sizeof res.params, "%s", params);
    gh_report_result(t.r, &res);
    char *out = close_terminal(&t, NULL);
    long at = column_at(out, "params");
    long dtype_at = column_at(out, "dtype");
    EXPECT(at > 0 && dtype_at - at - 1 <= GH_TABLE_MAX_CELL && dtype_at - at - 1 >= 40,
           "params column capped at %d (is %ld):\n%s", GH_TABLE_MAX_CELL, dtype_at - at - 1, out);
    /* Join the params cells of the row's lines. */
    char joined[512] = "";
    const char *row = strstr(out, "\ncpu ");
    for (const char *line = row ? row + 1 : NULL; line && *line && strncmp(line, "agreement", 9);) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if ((long)len <= at) break;
        char cell[128];
        size_t n = (size_t)(dtype_at - at) < len - (size_t)at ? (size_t)(dtype_at - at) : len - (size_t)at;
        memcpy(cell, line + at, n);
        cell[n] = '\0';
        while (n > 0 && cell[n - 1] == ' ') cell[--n] = '\0';
        if (*joined) strcat(joined, " ");
        strcat(joined, cell);
        line = end ? end + 1 : NULL;
    }
    EXPECT(strcmp(joined, params) == 0, "wrapped params read back whole: '%s'\n%s", joined, out);
    free(out);
}

static gh_agreement agreement(gh_agreement_group *groups, size_t n, double diff)
{
    gh_agreement a = {3, GH_F32, 0, 0, 37, 53, 29, groups, n, diff, {0, 0}};
    return a;
}

static void check_line(const gh_agreement *a, const char *want)
{
    char *line = gh_agreement_line(a);
    EXPECT(line && strcmp(line, want) == 0, "agreement line\n  got:  %s\n  want: %s", line ? line : "(null)", want);
    free(line);
}

/* The line of two groups, A (na members) and B (nb), with this max diff. */
static void check_two_groups(const char **a, size_t na, const char **b, size_t nb, double diff, const char *want)
{
    gh_agreement_group groups[] = {{1, a, na}, {2, b, nb}};
    gh_agreement ag = agreement(groups, 2, diff);
    check_line(&ag, want);
}

static void test_agreement_lines(void)
{
    const char *a1[] = {"cpu/0/naive", "cpu/0/tiled tile=8"};
    const char *b1[] = {"opencl/0/naive", "opencl/0/tiled tile=8", "opencl/0/tiled tile=16"};
    const char *c1[] = {"vulkan/0/naive", "vulkan/0/tiled tile=8", "vulkan/0/tiled tile=16"};
    gh_agreement_group g1[] = {{1, a1, 2}, {2, b1, 3}, {3, c1, 3}};
    gh_agreement a = agreement(g1, 3, 0.102);
    check_line(&a,
               "agreement f32 nn 37x53x29: 3 groups (A: cpu x2; B: opencl x3; C: vulkan x3), "
               "max diff 0.102 of the bound");

    /* A backend split across groups shows its members; its devices only when it ran several. */
    const char *a2[] = {"cpu/0/naive", "opencl/0/naive", "opencl/1/tiled tile=8"};
    const char *b2[] = {"cpu/0/tiled tile=8", "opencl/1/naive"};
    check_two_groups(a2, 3, b2, 2, 2.5,
                     "agreement f32 nn 37x53x29: 2 groups (A: cpu naive, opencl/0 naive, opencl/1 tiled tile=8; "
                     "B: cpu tiled tile=8, opencl/1 naive), max diff 2.5 of the bound (BEYOND)");

    /* A long group: GH_AGREEMENT_ITEMS items, then a count. */
    const char *a3[] = {"cpu/0/t 1", "cpu/0/t 2", "cpu/0/t 3", "cpu/0/t 4", "cpu/0/t 5", "cpu/0/t 6"};
    const char *b3[] = {"cpu/0/t 7", "gpu/0/t 1"};
    check_two_groups(a3, 6, b3, 2, 0.5,
                     "agreement f32 nn 37x53x29: 2 groups (A: cpu t 1, cpu t 2, cpu t 3, cpu t 4, +2 more; "
                     "B: cpu t 7, gpu t 1), max diff 0.5 of the bound");

    gh_agreement_group g4[] = {{1, a1, 2}};
    a = agreement(g4, 1, 0);
    check_line(&a, "agreement f32 nn 37x53x29: 1 group, identical outputs (all 2 results)");
    a = agreement(NULL, 0, 0);
    check_line(&a, "agreement f32 nn 37x53x29: no outputs");
}

/* One line per case; the members of every group only with full_agreement. */
static void test_agreement_in_table(void)
{
    const char *a1[] = {"cpu/0/naive", "cpu/0/tiled tile=8"};
    const char *b1[] = {"opencl/0/naive"};
    gh_agreement_group groups[] = {{0x1234, a1, 2}, {0x5678, b1, 1}};
    gh_agreement a = agreement(groups, 2, 0.25);
    for (int full = 0; full <= 1; full++) {
        terminal t = open_terminal(0, full);
        if (!t.r) return;
        gh_report_agreement(t.r, &a);
        char *out = close_terminal(&t, NULL);
        EXPECT(count_lines_starting(out, "agreement ") == 1, "full %d: one agreement line:\n%s", full, out);
        EXPECT(strstr(out, "2 groups (A: cpu x2; B: opencl naive), max diff 0.25 of the bound") != NULL,
               "full %d: the condensed line:\n%s", full, out);
        int members = strstr(out, "\n  A (hash 0000000000001234): cpu/0/naive, cpu/0/tiled tile=8\n") != NULL &&
                      strstr(out, "\n  B (hash 0000000000005678): opencl/0/naive\n") != NULL;
        EXPECT(members == full, "full %d: member lines %s:\n%s", full, full ? "shown" : "not shown", out);
        free(out);
    }
}

static gh_result error_result(const gh_device_info *dev)
{
    gh_result r = pass_result(dev, 2);
    r.status = GH_RESULT_ERROR;
    r.repeats = 0;
    snprintf(r.detail, sizeof r.detail, "simulated device lost");
    return r;
}

static gh_result unchecked_result(const gh_device_info *dev)
{
    gh_result r = pass_result(dev, 3);
    r.status = GH_RESULT_UNCHECKED;
    r.verify.checked = 0;
    r.verify_method = "none";
    r.dtype = GH_F64;
    r.gflops = 7.5;
    return r;
}

/* A count per status and the best GFLOP/s per dtype; failures and notes again at the end. */
static void test_summary(void)
{
    terminal t = open_terminal(0, 0);
    if (!t.r) return;
    gh_device_info dev = sample_device();
    gh_report_note(t.r, "backend cuda could not run: no device");
    gh_result slow = pass_result(&dev, 0), fast = pass_result(&dev, 1);
    slow.gflops = 1.5;
    fast.gflops = 4.25;
    gh_result rows[] = {
        slow, fast, fail_result(&dev), unsupported_result(), error_result(&dev), unchecked_result(&dev)};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) gh_report_result(t.r, &rows[i]);
    gh_report_summary(t.r);
    char *out = close_terminal(&t, NULL);
    const char *end = strstr(out, "\nsummary");
    EXPECT(end != NULL, "a summary:\n%s", out);
    if (!end) {
        free(out);
        return;
    }
    EXPECT(strstr(end, "passed failed unsupported errors unchecked f32 GFLOP/s f64 GFLOP/s") != NULL,
           "summary header:\n%s", end);
    /* tiled tile=16: 2 passed, 1 error, 1 unchecked; best f32 4.2 (of 1.5, 4.25), f64 7.5 (unchecked ran). */
    char *tiled = line_with(end, "tile=16");
    char *naive = line_with(end, "naive");
    char *gpus = line_with(end, "gpus ");
    int p, f, u, e, c;
    char f32[16], f64[16];
    const char *nums = strstr(tiled, "tile=16");
    EXPECT(nums && sscanf(nums + 7, "%d %d %d %d %d %15s %15s", &p, &f, &u, &e, &c, f32, f64) == 7 && p == 2 &&
               f == 0 && u == 0 && e == 1 && c == 1 && !strcmp(f32, "4.2") && !strcmp(f64, "7.5"),
           "tiled row counts: %s", tiled);
    nums = strstr(naive, " - ");
    EXPECT(nums && sscanf(nums + 3, "%d %d %d %d %d %15s %15s", &p, &f, &u, &e, &c, f32, f64) == 7 && p == 0 &&
               f == 1 && !strcmp(f32, "-") && !strcmp(f64, "-"),
           "naive row: a failure, no GFLOP/s: %s", naive);
    nums = strstr(gpus, " - ");
    EXPECT(nums && sscanf(nums + 3, "%d %d %d %d %d", &p, &f, &u, &e, &c) == 5 && p + f + e + c == 0 && u == 1,
           "split row: one unsupported: %s", gpus);
    const char *again = strstr(end, "failures and errors (2), again:\n");
    EXPECT(again != NULL, "failures again:\n%s", end);
    EXPECT(again && strstr(again,
                           "\n  FAIL  cpu, 0:Intel Core i7-8700 Very Long Name CPU, naive, f32 nt 100x75x50: "
                           "bad value, got \"x\"\n") != NULL,
           "the failure with its reason:\n%s", end);
    EXPECT(again && strstr(again,
                           "\n  ERROR cpu, 0:Intel Core i7-8700 Very Long Name CPU, tiled tile=16, f32 nt "
                           "100x75x50: simulated device lost\n") != NULL,
           "the error with its reason:\n%s", end);
    EXPECT(strstr(end, "notes (1), again:\n  backend cuda could not run: no device\n") != NULL, "notes again:\n%s",
           end);
    EXPECT(strstr(out, "unchecked") && count_lines_starting(out, "cpu ") >= 5, "unchecked row shown:\n%s", out);
    free(out);
}

/* --quiet: no table, no summary; failures, errors and notes still said. */
static void test_quiet(void)
{
    terminal t = open_terminal(1, 0);
    if (!t.r) return;
    gh_device_info dev = sample_device();
    gh_report_note(t.r, "backend vulkan could not run: no ICD");
    gh_result rows[] = {pass_result(&dev, 0), fail_result(&dev), unsupported_result(), error_result(&dev)};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) gh_report_result(t.r, &rows[i]);
    gh_report_summary(t.r);
    char *messages;
    char *out = close_terminal(&t, &messages);
    EXPECT(out && *out == '\0', "nothing on the table stream:\n%s", out);
    EXPECT(strstr(messages, "note: backend vulkan could not run: no ICD\n") != NULL, "note said:\n%s", messages);
    EXPECT(strstr(messages,
                  "FAIL  cpu, 0:Intel Core i7-8700 Very Long Name CPU, naive, f32 nt 100x75x50: bad value, "
                  "got \"x\"\n      at (1, 2)\n") != NULL,
           "failure with its whole reason:\n%s", messages);
    EXPECT(strstr(messages, "simulated device lost") != NULL, "error with its reason:\n%s", messages);
    EXPECT(strstr(messages, "cl_khr_fp64") == NULL && strstr(messages, "summary") == NULL,
           "no unsupported rows, no summary:\n%s", messages);
    free(out);
    free(messages);
}

/* The first screen groups 8-bit results by their type combination: two
 * e4m3 results of other B and C types get a column, an agreement line and a
 * fastest line each. */
static void test_first_screen_fp8(void)
{
    gh_first_screen *s = gh_first_screen_new();
    FILE *out = tmpfile();
    EXPECT(s && out, "a first screen and a temp file");
    if (!s || !out) return;
    gh_device_info dev = sample_device();
    gh_result f32 = pass_result(&dev, 0), mixed = pass_result(&dev, 1), half = pass_result(&dev, 2);
    f32.gflops = 1.5;
    mixed.dtype = half.dtype = GH_E4M3;
    mixed.types = (gh_case_types){GH_E4M3, GH_E5M2, GH_F32, 1, 1, 1, 1};
    mixed.gflops = 2.25;
    half.types = (gh_case_types){GH_E4M3, GH_E4M3, GH_F16, 1, 1, 1, 1};
    half.gflops = 3.5;
    const char *members[] = {"cpu/0/tiled tile=16", "opencl/0/tiled"};
    gh_agreement_group group = {1, members, 2};
    gh_agreement agree = {.dtype = GH_E4M3, .m = 100, .n = 75, .k = 50, .groups = &group, .n_groups = 1};
    gh_first_screen_result(s, &f32, "0:dev");
    gh_first_screen_result(s, &mixed, "0:dev");
    agree.case_index = 1;
    gh_first_screen_agreement(s, &agree);
    gh_first_screen_result(s, &half, "0:dev");
    agree.case_index = 2;
    gh_first_screen_agreement(s, &agree);
    gh_first_screen_kernels(s, out);
    gh_first_screen_verdicts(s, out);
    char *text = read_stream(out);
    fclose(out);
    EXPECT(strstr(text, "unsup     f32 e4m3xe5m2->f32 e4m3xe4m3->f16\n") != NULL, "a column per combination:\n%s",
           text);
    EXPECT(strstr(text, "     1.5            2.2            3.5\n") != NULL, "each combination's best:\n%s", text);
    EXPECT(strstr(text, "agreement e4m3xe5m2->f32: all 1 cases identical") != NULL, "its agreement:\n%s", text);
    EXPECT(strstr(text, "agreement e4m3xe4m3->f16: all 1 cases identical") != NULL, "its agreement:\n%s", text);
    EXPECT(strstr(text, "fastest e4m3xe5m2->f32: 2.2 GFLOP/s") != NULL, "its fastest:\n%s", text);
    EXPECT(strstr(text, "fastest e4m3xe4m3->f16: 3.5 GFLOP/s") != NULL, "its fastest:\n%s", text);
    free(text);
    gh_first_screen_free(s);
}

int main(void)
{
    check_quiet = 1; /* failures and the summary only */
    test_sweep_columns();
    test_wrap();
    test_agreement_lines();
    test_agreement_in_table();
    test_summary();
    test_quiet();
    test_first_screen_fp8();
    return check_summary("test_table");
}
