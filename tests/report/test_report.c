/* Tests of core/report: the table, the CSV (RFC 4180) and the JSON (always a
 * complete document on disk). Usage: test_report OUTPUT_DIR. Leaves basic.*,
 * snapshot_N.json and killed.* in OUTPUT_DIR for check_report.py. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report.h"

static int passed, failed;

#define CHECK(cond, ...)                                            \
    do {                                                            \
        if (cond) passed++;                                         \
        else {                                                      \
            failed++;                                               \
            fprintf(stderr, "%s:%d: FAILED: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                           \
            fputc('\n', stderr);                                    \
        }                                                           \
    } while (0)

static const char *out_dir;

static char *path_in_out(const char *name)
{
    static char buf[8][1024];
    static int next;
    char *p = buf[next++ % 8];
    snprintf(p, sizeof buf[0], "%s/%s", out_dir, name);
    return p;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, len = 0;
    char *s = malloc(cap);
    for (size_t n; s && (n = fread(s + len, 1, cap - len - 1, f)) > 0;) {
        len += n;
        if (cap - len < 2) { cap *= 2; s = realloc(s, cap); }
    }
    fclose(f);
    if (s) s[len] = '\0';
    return s;
}

static int copy_file(const char *from, const char *to)
{
    char *s = read_file(from);
    FILE *f = fopen(to, "wb");
    int rc = s && f && fputs(s, f) >= 0 ? 0 : -1;
    if (f && fclose(f) != 0) rc = -1;
    free(s);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* A strict RFC 4180 reader: records of fields; quoted fields may hold
 * commas, doubled quotes and line breaks. */

enum { CSV_MAX_RECORDS = 64, CSV_MAX_FIELDS = 64 };

typedef struct csv_doc {
    size_t n_records;
    size_t n_fields[CSV_MAX_RECORDS];
    char *field[CSV_MAX_RECORDS][CSV_MAX_FIELDS];
    int bad;                 /* malformed: text after a closing quote, an unclosed quote, ... */
} csv_doc;

static void csv_free(csv_doc *d)
{
    for (size_t r = 0; r < d->n_records; r++)
        for (size_t f = 0; f < d->n_fields[r]; f++) free(d->field[r][f]);
    memset(d, 0, sizeof *d);
}

static const char *csv_field(const char *p, char **out, int *bad)
{
    size_t cap = strlen(p) + 1, n = 0;
    char *s = malloc(cap);
    if (*p == '"') {
        for (p++;; p++) {
            if (*p == '\0') { *bad = 1; break; }
            if (*p == '"' && p[1] == '"') { s[n++] = '"'; p++; continue; }
            if (*p == '"') { p++; break; }
            s[n++] = *p;
        }
        if (*p != ',' && *p != '\n' && *p != '\r' && *p != '\0') *bad = 1;
    } else {
        for (; *p && *p != ',' && *p != '\n' && *p != '\r'; p++) {
            if (*p == '"') *bad = 1;
            s[n++] = *p;
        }
    }
    s[n] = '\0';
    *out = s;
    return p;
}

static int csv_parse(const char *text, csv_doc *d)
{
    memset(d, 0, sizeof *d);
    const char *p = text;
    if (!p) return -1;
    while (*p) {
        if (d->n_records == CSV_MAX_RECORDS) return -1;
        size_t r = d->n_records++;
        for (;;) {
            if (d->n_fields[r] == CSV_MAX_FIELDS) return -1;
            p = csv_field(p, &d->field[r][d->n_fields[r]++], &d->bad);
            if (*p == ',') { p++; continue; }
            break;
        }
        if (*p == '\r') p++;
        if (*p == '\n') p++;
        else d->bad = 1;     /* every record, the last included, ends its line */
    }
    return d->bad ? -1 : 0;
}

/* The field of record `row` under header `name`, or NULL. */
static const char *csv_get(const csv_doc *d, size_t row, const char *name)
{
    if (row >= d->n_records) return NULL;
    for (size_t f = 0; f < d->n_fields[0]; f++)
        if (strcmp(d->field[0][f], name) == 0) return f < d->n_fields[row] ? d->field[row][f] : NULL;
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* A strict JSON checker (RFC 8259: no NaN, no Infinity, no trailing commas)
 * that also counts the elements of each top-level array member. */

typedef struct json_counts {
    const char *keys[16];
    long lens[16];
    size_t n;
} json_counts;

static const char *json_value(const char *p, int depth, json_counts *top, const char *key);

static const char *json_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    return p;
}

/* On success, start and len give the raw string without quotes. */
static const char *json_string(const char *p, const char **start, size_t *len)
{
    if (*p != '"') return NULL;
    const char *s = ++p;
    for (; *p != '"'; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '\0' || c < 0x20) return NULL;
        if (c == '\\') {
            p++;
            if (*p == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i]) return NULL;
                p += 4;
            } else if (!*p || !strchr("\"\\/bfnrt", *p)) return NULL;
        }
    }
    if (start) *start = s;
    if (len) *len = (size_t)(p - s);
    return p + 1;
}

static const char *json_number(const char *p)
{
    if (*p == '-') p++;
    if (*p == '0') p++;
    else if (*p >= '1' && *p <= '9') while (*p >= '0' && *p <= '9') p++;
    else return NULL;
    if (*p == '.') {
        p++;
        if (!(*p >= '0' && *p <= '9')) return NULL;
        while (*p >= '0' && *p <= '9') p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (!(*p >= '0' && *p <= '9')) return NULL;
        while (*p >= '0' && *p <= '9') p++;
    }
    return p;
}

static const char *json_array(const char *p, int depth, json_counts *top, const char *key)
{
    long n = 0;
    p = json_ws(p + 1);
    if (*p != ']') {
        for (;;) {
            p = json_value(p, depth + 1, top, NULL);
            if (!p) return NULL;
            n++;
            p = json_ws(p);
            if (*p == ']') break;
            if (*p != ',') return NULL;
            p = json_ws(p + 1);
        }
    }
    if (depth == 1 && key && top->n < 16) {
        top->keys[top->n] = key;
        top->lens[top->n++] = n;
    }
    return p + 1;
}

static const char *json_object(const char *p, int depth, json_counts *top)
{
    p = json_ws(p + 1);
    if (*p == '}') return p + 1;
    for (;;) {
        const char *k;
        size_t klen;
        p = json_string(p, &k, &klen);
        if (!p) return NULL;
        p = json_ws(p);
        if (*p != ':') return NULL;
        p = json_ws(p + 1);
        static char keybuf[16][32];
        char *key = NULL;
        if (depth == 0 && top->n < 16 && klen < 32) {
            key = keybuf[top->n];
            memcpy(key, k, klen);
            key[klen] = '\0';
        }
        p = json_value(p, depth + 1, top, key);
        if (!p) return NULL;
        p = json_ws(p);
        if (*p == '}') return p + 1;
        if (*p != ',') return NULL;
        p = json_ws(p + 1);
    }
}

static const char *json_value(const char *p, int depth, json_counts *top, const char *key)
{
    if (depth > 64) return NULL;
    p = json_ws(p);
    switch (*p) {
    case '{': return json_object(p, depth, top);
    case '[': return json_array(p, depth, top, key);
    case '"': return json_string(p, NULL, NULL);
    case 't': return strncmp(p, "true", 4) == 0 ? p + 4 : NULL;
    case 'f': return strncmp(p, "false", 5) == 0 ? p + 5 : NULL;
    case 'n': return strncmp(p, "null", 4) == 0 ? p + 4 : NULL;
    default: return json_number(p);
    }
}

/* 0 when text is one valid JSON document. */
static int json_check(const char *text, json_counts *top)
{
    memset(top, 0, sizeof *top);
    if (!text) return -1;
    const char *p = json_value(text, 0, top, NULL);
    return p && *json_ws(p) == '\0' ? 0 : -1;
}

static long json_count(const json_counts *top, const char *key)
{
    for (size_t i = 0; i < top->n; i++)
        if (strcmp(top->keys[i], key) == 0) return top->lens[i];
    return -1;
}

/* ------------------------------------------------------------------------ */
/* Fixtures. */

static const char *tricky_detail = "bad value, got \"x\"\nat (1, 2)";

static gh_device_info sample_device(void)
{
    gh_device_info d;
    memset(&d, 0, sizeof d);
    d.size = sizeof d;
    d.name = "Intel(R) Core(TM) i7-8700 Very Long Name CPU @ 3.20GHz";
    d.vendor = "GenuineIntel, \"Inc\"";
    d.driver_version = "1.2.3";
    d.api = "C (4 threads)";
    d.platform = "";
    d.global_mem_bytes = 16ull << 30;
    d.compute_units = 4;
    d.is_software = 1;
    d.has_fp64 = 1;
    return d;
}

static gh_result pass_result(const gh_device_info *dev, int case_index)
{
    gh_result r;
    memset(&r, 0, sizeof r);
    r.case_index = case_index;
    r.backend = "cpu";
    r.plugin = "cpu";
    r.plugin_path = "/usr/lib/gemmhost/gemmhost-cpu.so";
    r.device_index = 0;
    r.device_name = dev->name;
    r.device = dev;
    r.kernel = "tiled";
    snprintf(r.params, sizeof r.params, "tile=16");
    r.dtype = GH_F32;
    r.trans_b = 1;
    r.m = 100; r.n = 75; r.k = 50;
    r.alpha = 1; r.beta = 0.5;
    r.status = GH_RESULT_PASS;
    r.verify_method = "full";
    r.verify.passed = 1;
    r.verify.checked = 1;
    r.verify.max_abs_err = 1.5e-7;
    r.verify.max_err_over_bound = 0.01;
    r.verify.rel_fro_err = 2e-8;
    r.verify.fail_i = r.verify.fail_j = -1;
    r.deterministic = 1;
    r.output_hash = 0x00ab00cd00ef0012ull;
    r.repeats = 5;
    r.kernel_ms_median = 0.25; r.kernel_ms_min = 0.2; r.kernel_ms_max = 0.5;
    r.clock = GH_CLOCK_DEVICE;
    r.upload_ms = 0.1; r.download_ms = 0.05;
    r.gflops = 2.0 * 100 * 75 * 50 / 0.25e-3 / 1e9;
    return r;
}

/* A wrong result: NaN and Inf in the numbers, a detail that needs quoting. */
static gh_result fail_result(const gh_device_info *dev)
{
    gh_result r = pass_result(dev, 1);
    r.kernel = "naive";
    r.params[0] = '\0';
    r.status = GH_RESULT_FAIL;
    snprintf(r.detail, sizeof r.detail, "%s", tricky_detail);
    r.verify.passed = 0;
    r.verify.max_abs_err = NAN;
    r.verify.max_err_over_bound = INFINITY;
    r.verify.rel_fro_err = -INFINITY;
    r.verify.fail_i = 1; r.verify.fail_j = 2;
    r.verify.fail_got = NAN; r.verify.fail_expected = 0.125;
    r.verify.guard_overwrites = 3;
    r.deterministic = 0;
    r.gflops = NAN;
    return r;
}

/* Declined before running: no verify, no timing, no device (a split group). */
static gh_result unsupported_result(void)
{
    gh_result r;
    memset(&r, 0, sizeof r);
    r.case_index = 2;
    r.backend = "gpus";
    r.plugin = "opencl";
    r.device_index = -1;
    r.device_name = "split(gpu0,gpu1)";
    r.kernel = "tiled";
    r.dtype = GH_F64;
    r.m = r.n = r.k = 16384;
    r.status = GH_RESULT_UNSUPPORTED;
    snprintf(r.detail, sizeof r.detail, "f64 needs cl_khr_fp64");
    r.verify_method = "none";
    r.verify.fail_i = r.verify.fail_j = -1;
    return r;
}

/* ------------------------------------------------------------------------ */
/* Tests. */

/* Reads both files as a killed run would leave them and checks they hold
 * exactly n_results results. */
static void check_files_complete(const char *prefix, long n_results, const char *when)
{
    char path[1024];
    snprintf(path, sizeof path, "%s.csv", prefix);
    char *csv_text = read_file(path);
    csv_doc csv;
    CHECK(csv_parse(csv_text, &csv) == 0, "%s: %s is not valid CSV", when, path);
    CHECK(csv.n_records == (size_t)n_results + 1, "%s: %zu CSV records, want %ld", when, csv.n_records,
          n_results + 1);
    for (size_t r = 1; r < csv.n_records; r++)
        CHECK(csv.n_fields[r] == csv.n_fields[0], "%s: record %zu has %zu fields, header %zu", when, r,
              csv.n_fields[r], csv.n_fields[0]);
    csv_free(&csv);
    free(csv_text);

    snprintf(path, sizeof path, "%s.json", prefix);
    char *json_text = read_file(path);
    json_counts top;
    CHECK(json_check(json_text, &top) == 0, "%s: %s is not valid JSON", when, path);
    CHECK(json_count(&top, "results") == n_results, "%s: %ld JSON results, want %ld", when,
          json_count(&top, "results"), n_results);
    free(json_text);
}

static void test_csv_and_json(void)
{
    const char *prefix = path_in_out("basic");
    char err[512] = "";
    gh_device_info dev = sample_device();
    /* Control characters, quotes, UTF-8 and one invalid byte in the config. */
    const char *config = "[run]\nsizes = 64\t; \"x\" \\ \x01 caf\xc3\xa9 \xff\n";
    gh_report *r = gh_report_open(prefix, config, NULL, err, sizeof err);
    CHECK(r != NULL, "open: %s", err);
    if (!r) return;
    check_files_complete(prefix, 0, "after open");

    gh_report_plugin_info(r, &(gh_report_plugin){"cpu", "/usr/lib/gemmhost/gemmhost-cpu.so", "0.1", 1, 0, NULL});
    gh_report_plugin_info(r, &(gh_report_plugin){"vulkan", "/x/gemmhost-vulkan.so", NULL, 2, 0,
                                                 "ABI major 2, host has 1"});
    gh_report_device(r, "cpu", 0, &dev);
    gh_report_device(r, "cpu", 0, &dev);     /* the same device again: stored once */
    gh_report_device(r, "cpu2", 0, &dev);

    gh_result results[3] = {pass_result(&dev, 0), fail_result(&dev), unsupported_result()};
    for (int i = 0; i < 3; i++) {
        gh_report_result(r, &results[i]);
        char when[64], snap[64];
        snprintf(when, sizeof when, "after result %d", i + 1);
        check_files_complete(prefix, i + 1, when);
        snprintf(snap, sizeof snap, "snapshot_%d.json", i + 1);
        CHECK(copy_file(path_in_out("basic.json"), path_in_out(snap)) == 0, "copy %s", snap);
    }
    const char *labels[] = {"cpu/0/naive", "cpu/0/tiled[tile=16]"};
    gh_agreement_group groups[2] = {{0x1234, &labels[0], 1}, {0x5678, &labels[1], 1}};
    gh_agreement a = {1, GH_F32, 0, 1, 100, 75, 50, groups, 2, INFINITY};
    gh_report_agreement(r, &a);
    gh_report_note(r, "backend %s: %s", "cuda", "no device (driver \"missing\")");
    CHECK(gh_report_close(r, err, sizeof err) == 0, "close: %s", err);

    char *csv_text = read_file(path_in_out("basic.csv"));
    csv_doc csv;
    CHECK(csv_parse(csv_text, &csv) == 0, "basic.csv parses");
    CHECK(csv.n_records == 4, "%zu records", csv.n_records);
    const char *want[][2] = {
        {"backend", "cpu"}, {"device_vendor", "GenuineIntel, \"Inc\""}, {"device_is_software", "1"},
        {"params", "tile=16"}, {"dtype", "f32"}, {"trans", "nt"}, {"m", "100"}, {"status", "pass"},
        {"output_hash", "00ab00cd00ef0012"}, {"clock", "device"}, {"kernel_ms_median", "0.25"},
        {"beta", "0.5"}, {"fail_i", ""}, {"detail", ""},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const char *got = csv_get(&csv, 1, want[i][0]);
        CHECK(got && strcmp(got, want[i][1]) == 0, "row 1 %s = '%s', want '%s'", want[i][0], got ? got : "(none)",
              want[i][1]);
    }
    const char *want_fail[][2] = {
        {"status", "FAIL"}, {"detail", tricky_detail}, {"max_abs_err", "nan"}, {"max_err_over_bound", "inf"},
        {"rel_fro_err", "-inf"}, {"fail_i", "1"}, {"fail_j", "2"}, {"fail_expected", "0.125"},
        {"guard_overwrites", "3"}, {"deterministic", "0"}, {"params", ""},
    };
    for (size_t i = 0; i < sizeof want_fail / sizeof want_fail[0]; i++) {
        const char *got = csv_get(&csv, 2, want_fail[i][0]);
        CHECK(got && strcmp(got, want_fail[i][1]) == 0, "row 2 %s = '%s', want '%s'", want_fail[i][0],
              got ? got : "(none)", want_fail[i][1]);
    }
    const char *want_unsup[][2] = {
        {"status", "unsupported"}, {"device_index", "-1"}, {"device_vendor", ""}, {"kernel_ms_median", ""},
        {"clock", ""}, {"output_hash", ""}, {"max_err_over_bound", ""}, {"repeats", "0"},
    };
    for (size_t i = 0; i < sizeof want_unsup / sizeof want_unsup[0]; i++) {
        const char *got = csv_get(&csv, 3, want_unsup[i][0]);
        CHECK(got && strcmp(got, want_unsup[i][1]) == 0, "row 3 %s = '%s', want '%s'", want_unsup[i][0],
              got ? got : "(none)", want_unsup[i][1]);
    }
    csv_free(&csv);
    free(csv_text);

    char *json = read_file(path_in_out("basic.json"));
    json_counts top;
    CHECK(json_check(json, &top) == 0, "final basic.json is valid JSON");
    CHECK(json_count(&top, "plugins") == 2, "plugins %ld", json_count(&top, "plugins"));
    CHECK(json_count(&top, "devices") == 2, "devices %ld (one per backend/device)", json_count(&top, "devices"));
    CHECK(json_count(&top, "agreement") == 1, "agreement %ld", json_count(&top, "agreement"));
    CHECK(json_count(&top, "notes") == 1, "notes %ld", json_count(&top, "notes"));
    CHECK(json && strstr(json, "\"max_err_over_bound\":null"), "inf becomes null");
    CHECK(json && strstr(json, "\"max_abs_err\":null"), "nan becomes null");
    CHECK(json && strstr(json, "\"max_diff_in_bounds\":null"), "agreement inf becomes null");
    CHECK(json && strstr(json, "\\t; \\\"x\\\" \\\\ \\u0001 caf\xc3\xa9 \\ufffd\\n"),
          "config escaped: control chars, quote, backslash; UTF-8 kept; invalid byte replaced");
    CHECK(json && strstr(json, "\"detail\":\"bad value, got \\\"x\\\"\\nat (1, 2)\""), "detail escaped");
    struct stat st;
    CHECK(stat(path_in_out("basic.json.tmp"), &st) != 0, "no temp file left behind");
    free(json);
}

/* A run killed after 3 results, without close: the files already hold them. */
static void test_killed_run(void)
{
    const char *prefix = path_in_out("killed");
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        char err[256];
        gh_device_info dev = sample_device();
        gh_report *r = gh_report_open(prefix, "[run]\n", NULL, err, sizeof err);
        if (!r) _exit(2);
        gh_result res = fail_result(&dev);
        for (int i = 0; i < 3; i++) gh_report_result(r, &res);
        gh_report_note(r, "about to die");
        _exit(0);   /* no close, no stdio flush at exit */
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "child ran");
    check_files_complete(prefix, 3, "after kill");
    char *json = read_file(path_in_out("killed.json"));
    json_counts top;
    CHECK(json_check(json, &top) == 0 && json_count(&top, "notes") == 1, "killed.json has its note");
    free(json);
}

static void test_bad_prefix(void)
{
    char err[512] = "";
    const char *prefix = "/nonexistent-gemmhost-dir/sub/results";
    gh_report *r = gh_report_open(prefix, "", NULL, err, sizeof err);
    CHECK(r == NULL, "open in a missing directory fails");
    CHECK(strstr(err, prefix) != NULL, "error names the path: '%s'", err);
    CHECK(strstr(err, strerror(ENOENT)) != NULL, "error says why: '%s'", err);
    gh_report_close(r, err, sizeof err);   /* NULL is fine */
}

/* The JSON cannot be replaced (a directory took its name): close says so. */
static void test_write_failure(void)
{
    const char *prefix = path_in_out("broken");
    char err[512] = "";
    gh_report *r = gh_report_open(prefix, "", NULL, err, sizeof err);
    CHECK(r != NULL, "open: %s", err);
    if (!r) return;
    const char *json_path = path_in_out("broken.json");
    remove(json_path);
    CHECK(mkdir(json_path, 0755) == 0, "mkdir %s: %s", json_path, strerror(errno));
    gh_device_info dev = sample_device();
    gh_result res = pass_result(&dev, 0);
    gh_report_result(r, &res);
    CHECK(gh_report_close(r, err, sizeof err) == -1, "close reports the failed write");
    CHECK(strstr(err, "broken.json") != NULL, "error names the file: '%s'", err);
    rmdir(json_path);
    remove(path_in_out("broken.csv"));
}

static int count_lines_starting(const char *text, const char *start)
{
    int n = 0;
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "")
        if (strncmp(p, start, strlen(start)) == 0) n++;
    return n;
}

static void test_table(void)
{
    FILE *t = tmpfile();
    CHECK(t != NULL, "tmpfile");
    if (!t) return;
    char err[256];
    gh_report *r = gh_report_open(NULL, NULL, t, err, sizeof err);   /* no files */
    CHECK(r != NULL, "open without files");
    gh_device_info dev = sample_device();
    gh_result results[3] = {pass_result(&dev, 0), fail_result(&dev), unsupported_result()};
    gh_report_note(r, "first line\nsecond line");
    for (int i = 0; i < 3; i++) gh_report_result(r, &results[i]);
    const char *labels[] = {"cpu/0/naive", "cpu/0/tiled[tile=16]", "ocl/1/tiled[tile=8]"};
    gh_agreement_group groups[2] = {{0x1234, &labels[0], 2}, {0x5678, &labels[2], 1}};
    gh_agreement a = {1, GH_F32, 0, 0, 100, 75, 50, groups, 2, 0.25};
    gh_report_agreement(r, &a);
    CHECK(gh_report_close(r, err, sizeof err) == 0, "close without files");

    rewind(t);
    char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, t);
    text[n] = '\0';
    fclose(t);

    CHECK(count_lines_starting(text, "backend ") == 1, "one header:\n%s", text);
    CHECK(strstr(text, "note: first line\n      second line\n") != NULL, "note lines:\n%s", text);
    CHECK(count_lines_starting(text, "cpu ") == 2 && count_lines_starting(text, "gpus ") == 1, "three rows:\n%s",
          text);
    CHECK(strstr(text, "\n    bad value, got \"x\"\n    at (1, 2)\n") != NULL, "FAIL detail indented:\n%s", text);
    CHECK(strstr(text, "\n    f64 needs cl_khr_fp64\n") != NULL, "unsupported detail:\n%s", text);
    CHECK(strstr(text, "0:Intel Core i7-8~") != NULL, "device shortened:\n%s", text);
    CHECK(strstr(text, "100x75x50") && strstr(text, "16384x16384x16384 "), "shapes:\n%s", text);
    CHECK(strstr(text, "2 groups, max diff 0.25") != NULL, "agreement summary:\n%s", text);
    CHECK(strstr(text, "cpu/0/naive, cpu/0/tiled[tile=16]\n") != NULL, "group members:\n%s", text);
    CHECK(count_lines_starting(text, "  group ") == 2, "two group lines:\n%s", text);

    /* Every row has the header's width up to its last column. */
    const char *hdr = strstr(text, "backend ");
    const char *row = strstr(text, "\ncpu ");
    CHECK(hdr && row && strchr(row + 1, '\n') - (row + 1) == strchr(hdr, '\n') - hdr,
          "row width matches header:\n%s", text);
}

/* Device info from a plugin built against an older, shorter struct: members
 * past its size are not read. */
static void test_short_device_info(void)
{
    gh_device_info dev = sample_device();
    dev.size = offsetof(gh_device_info, api);   /* has name, vendor, driver_version only */
    char err[256];
    const char *prefix = path_in_out("short");
    gh_report *r = gh_report_open(prefix, "", NULL, err, sizeof err);
    CHECK(r != NULL, "open: %s", err);
    if (!r) return;
    gh_result res = pass_result(&dev, 0);
    gh_report_device(r, "cpu", 0, &dev);
    gh_report_result(r, &res);
    CHECK(gh_report_close(r, err, sizeof err) == 0, "close: %s", err);
    char *csv_text = read_file(path_in_out("short.csv"));
    csv_doc csv;
    CHECK(csv_parse(csv_text, &csv) == 0, "short.csv parses");
    const char *api = csv_get(&csv, 1, "device_api"), *sw = csv_get(&csv, 1, "device_is_software");
    const char *ver = csv_get(&csv, 1, "device_driver_version");
    CHECK(api && !*api && sw && !*sw, "members past size are empty: api '%s', is_software '%s'", api, sw);
    CHECK(ver && strcmp(ver, "1.2.3") == 0, "members within size are kept: '%s'", ver);
    csv_free(&csv);
    free(csv_text);
    char *json = read_file(path_in_out("short.json"));
    CHECK(json && strstr(json, "\"api\":null,\"platform\":null,\"global_mem_bytes\":null"), "device JSON nulls");
    free(json);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
        return 2;
    }
    out_dir = argv[1];
    if (mkdir(out_dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "cannot create %s: %s\n", out_dir, strerror(errno));
        return 2;
    }
    test_csv_and_json();
    test_killed_run();
    test_bad_prefix();
    test_write_failure();
    test_table();
    test_short_device_info();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
