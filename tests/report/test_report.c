/* Tests of core/report's files: the CSV (RFC 4180), the JSON (always a
 * complete document on disk, "complete" only after close), JUnit XML, the
 * output paths and the refusal to replace an earlier run's files. Usage:
 * test_report OUTPUT_DIR. Leaves basic.*, snapshot_N.json and killed.* in
 * OUTPUT_DIR for check_report.py and xmllint. (The terminal: test_table.c.) */
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

#define CHECK_MAIN /* this file holds the check counters */
#include "fixtures.h"
#include "report.h"

static const char *out_dir;

static char *path_in_out(const char *name)
{
    static char buf[8][1024];
    static int next;
    char *p = buf[next++ % 8];
    snprintf(p, sizeof buf[0], "%s/%s", out_dir, name);
    return p;
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

enum { CSV_MAX_RECORDS = 64, CSV_MAX_FIELDS = 128 };

typedef struct csv_doc {
    size_t n_records;
    size_t n_fields[CSV_MAX_RECORDS];
    char *field[CSV_MAX_RECORDS][CSV_MAX_FIELDS];
    int bad; /* malformed: text after a closing quote, an unclosed quote, ... */
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
            if (*p == '\0') {
                *bad = 1;
                break;
            }
            if (*p == '"' && p[1] == '"') {
                s[n++] = '"';
                p++;
                continue;
            }
            if (*p == '"') {
                p++;
                break;
            }
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
            if (*p == ',') {
                p++;
                continue;
            }
            break;
        }
        if (*p == '\r') p++;
        if (*p == '\n') p++;
        else d->bad = 1; /* every record, the last included, ends its line */
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
    else if (*p >= '1' && *p <= '9')
        while (*p >= '0' && *p <= '9') p++;
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

/* A report as a run opens it: files at prefix (replacing any left by an
 * earlier test run), the table on `table` when not NULL. */
/* Where quiet reports say their failures: not the test's own output. */
static FILE *sink;

/* The command line stored in the JSON of basic.* and killed.*. */
static char *const sample_argv[] = {"gemmhost", "--config", "my run.ini", "--junit", "r\"esults.xml", NULL};

/* The options of a run writing files at prefix (replacing those of an
 * earlier test run), JUnit XML at junit (or none), no table. */
static gh_report_options file_options(const char *prefix, const char *config, const char *junit)
{
    gh_report_options o = {.prefix = prefix,
                           .config_text = config,
                           .junit_path = junit,
                           .overwrite = 1,
                           .argc = 5,
                           .argv = sample_argv,
                           .messages = sink};
    return o;
}

static gh_report *open_report(const char *prefix, const char *config, FILE *table, char *err, size_t err_size)
{
    gh_report_options o = file_options(prefix, config, NULL);
    o.table = table;
    return gh_report_open(&o, err, err_size);
}

/* ------------------------------------------------------------------------ */
/* Tests. */

/* Lines of the record log PREFIX.jsonl of one kind ("result", "note", ...). */
static long log_count(const char *prefix, const char *kind)
{
    char path[1024], key[64];
    snprintf(path, sizeof path, "%s.jsonl", prefix);
    snprintf(key, sizeof key, "{\"record\":\"%s\",", kind);
    char *text = read_file(path);
    long n = 0;
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : "")
        n += strncmp(line, key, strlen(key)) == 0;
    free(text);
    return n;
}

/* Reads the files as a killed run would leave them and checks that the CSV
 * and the record log hold exactly n_results results, and the JSON (rewritten
 * at checkpoints) is a whole document with no more. */
static void check_files_complete(const char *prefix, long n_results, const char *when)
{
    char path[1024];
    snprintf(path, sizeof path, "%s.csv", prefix);
    char *csv_text = read_file(path);
    csv_doc csv;
    EXPECT(csv_parse(csv_text, &csv) == 0, "%s: %s is not valid CSV", when, path);
    EXPECT(csv.n_records == (size_t)n_results + 1, "%s: %zu CSV records, want %ld", when, csv.n_records, n_results + 1);
    for (size_t r = 1; r < csv.n_records; r++)
        EXPECT(csv.n_fields[r] == csv.n_fields[0], "%s: record %zu has %zu fields, header %zu", when, r,
               csv.n_fields[r], csv.n_fields[0]);
    csv_free(&csv);
    free(csv_text);

    snprintf(path, sizeof path, "%s.json", prefix);
    char *json_text = read_file(path);
    json_counts top;
    EXPECT(json_check(json_text, &top) == 0, "%s: %s is not valid JSON", when, path);
    EXPECT(json_count(&top, "results") <= n_results, "%s: %ld JSON results, want at most %ld", when,
           json_count(&top, "results"), n_results);
    free(json_text);
    EXPECT(log_count(prefix, "head") == 1, "%s: the log has one head", when);
    EXPECT(log_count(prefix, "result") == n_results, "%s: %ld results in the log, want %ld", when,
           log_count(prefix, "result"), n_results);
}

static void test_csv_and_json(void)
{
    char prefix[1024]; /* a copy: path_in_out reuses its buffers */
    snprintf(prefix, sizeof prefix, "%s", path_in_out("basic"));
    char err[512] = "";
    gh_device_info dev = sample_device();
    /* Control characters, quotes, UTF-8 and one invalid byte in the config. */
    const char *config = "[run]\nsizes = 64\t; \"x\" \\ \x01 caf\xc3\xa9 \xff\n";
    gh_report_options o = file_options(prefix, config, path_in_out("basic.xml"));
    gh_report *r = gh_report_open(&o, err, sizeof err);
    EXPECT(r != NULL, "open: %s", err);
    if (!r) return;
    check_files_complete(prefix, 0, "after open");
    char *json = read_file(path_in_out("basic.json"));
    EXPECT(json && strstr(json, "\"complete\": false,"), "open run: complete is false");
    free(json);

    gh_report_plugin_info(r, &(gh_report_plugin){"cpu", "/usr/lib/gemmhost/gemmhost-cpu.so", "0.1", 1, 0, NULL});
    gh_report_plugin_info(
        r, &(gh_report_plugin){"vulkan", "/x/gemmhost-vulkan.so", NULL, 2, 0, "ABI major 2, host has 1"});
    gh_report_device(r, "cpu", 0, &dev);
    gh_report_device(r, "cpu", 0, &dev); /* the same device again: stored once */
    gh_report_device(r, "cpu2", 0, &dev);

    gh_result results[3] = {pass_result(&dev, 0), fail_result(&dev), unsupported_result()};
    for (int i = 0; i < 3; i++) {
        gh_report_result(r, &results[i]);
        char when[64], snap[64];
        snprintf(when, sizeof when, "after result %d", i + 1);
        check_files_complete(prefix, i + 1, when);
        snprintf(snap, sizeof snap, "snapshot_%d.json", i + 1);
        EXPECT(copy_file(path_in_out("basic.json"), path_in_out(snap)) == 0, "copy %s", snap);
        char *xml = read_file(path_in_out("basic.xml"));
        int cases = 0;
        for (const char *p = xml; p && (p = strstr(p, "<testcase ")); p++) cases++;
        EXPECT(cases <= i + 1 && strstr(xml, "</testsuites>\n"),
               "%s: the JUnit file is whole and holds %d testcases, want at most %d", when, cases, i + 1);
        free(xml);
    }
    const char *labels[] = {"cpu/0/naive", "cpu/0/tiled[tile=16]"};
    gh_agreement_group groups[2] = {{0x1234, &labels[0], 1}, {0x5678, &labels[1], 1}};
    gh_agreement a = {1, GH_F32, 0, 1, 100, 75, 50, groups, 2, INFINITY, {0, 1}};
    gh_report_agreement(r, &a);
    gh_report_note(r, "backend %s: %s", "cuda", "no device (driver \"missing\")");
    EXPECT(gh_report_close(r, err, sizeof err) == 0, "close: %s", err);

    char *csv_text = read_file(path_in_out("basic.csv"));
    csv_doc csv;
    EXPECT(csv_parse(csv_text, &csv) == 0, "basic.csv parses");
    EXPECT(csv.n_records == 4, "%zu records", csv.n_records);
    const char *want[][2] = {
        {"backend", "cpu"},
        {"device_vendor", "GenuineIntel, \"Inc\""},
        {"device_is_software", "1"},
        {"params", "tile=16"},
        {"dtype", "f32"},
        {"trans", "nt"},
        {"m", "100"},
        {"status", "pass"},
        {"output_hash", "00ab00cd00ef0012"},
        {"clock", "device"},
        {"kernel_ms_median", "0.25"},
        {"beta", "0.5"},
        {"fail_i", ""},
        {"detail", ""},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const char *got = csv_get(&csv, 1, want[i][0]);
        EXPECT(got && strcmp(got, want[i][1]) == 0, "row 1 %s = '%s', want '%s'", want[i][0], got ? got : "(none)",
               want[i][1]);
    }
    const char *want_fail[][2] = {
        {"status", "FAIL"},        {"detail", tricky_detail}, {"max_abs_err", "nan"}, {"max_err_over_bound", "inf"},
        {"rel_fro_err", "-inf"},   {"fail_i", "1"},           {"fail_j", "2"},        {"fail_expected", "0.125"},
        {"guard_overwrites", "3"}, {"deterministic", "0"},    {"params", ""},
    };
    for (size_t i = 0; i < sizeof want_fail / sizeof want_fail[0]; i++) {
        const char *got = csv_get(&csv, 2, want_fail[i][0]);
        EXPECT(got && strcmp(got, want_fail[i][1]) == 0, "row 2 %s = '%s', want '%s'", want_fail[i][0],
               got ? got : "(none)", want_fail[i][1]);
    }
    const char *want_unsup[][2] = {
        {"status", "unsupported"},  {"device_index", "-1"}, {"device_vendor", ""},
        {"kernel_ms_median", ""},   {"clock", ""},          {"output_hash", ""},
        {"max_err_over_bound", ""}, {"repeats", "0"},
    };
    for (size_t i = 0; i < sizeof want_unsup / sizeof want_unsup[0]; i++) {
        const char *got = csv_get(&csv, 3, want_unsup[i][0]);
        EXPECT(got && strcmp(got, want_unsup[i][1]) == 0, "row 3 %s = '%s', want '%s'", want_unsup[i][0],
               got ? got : "(none)", want_unsup[i][1]);
    }
    csv_free(&csv);
    free(csv_text);

    json = read_file(path_in_out("basic.json"));
    json_counts top;
    EXPECT(json_check(json, &top) == 0, "final basic.json is valid JSON");
    EXPECT(json && strstr(json, "\"complete\": true,"), "closed run: complete is true");
    EXPECT(json_count(&top, "plugins") == 2, "plugins %ld", json_count(&top, "plugins"));
    EXPECT(json_count(&top, "devices") == 2, "devices %ld (one per backend/device)", json_count(&top, "devices"));
    EXPECT(json_count(&top, "agreement") == 1, "agreement %ld", json_count(&top, "agreement"));
    EXPECT(json_count(&top, "notes") == 1, "notes %ld", json_count(&top, "notes"));
    EXPECT(json_count(&top, "results") == 3, "closed run: results %ld", json_count(&top, "results"));
    EXPECT(log_count(prefix, "end") == 1, "closed run: the log ends with an end record");
    char *xml = read_file(path_in_out("basic.xml"));
    int cases = 0;
    for (const char *p = xml; p && (p = strstr(p, "<testcase ")); p++) cases++;
    EXPECT(cases == 3, "closed run: the JUnit file holds %d testcases, want 3", cases);
    free(xml);
    EXPECT(json && strstr(json, "\"max_err_over_bound\":null"), "inf becomes null");
    EXPECT(json && strstr(json, "\"max_abs_err\":null"), "nan becomes null");
    EXPECT(json && strstr(json, "\"max_diff_in_bounds\":null"), "agreement inf becomes null");
    EXPECT(json && strstr(json, "\\t; \\\"x\\\" \\\\ \\u0001 caf\xc3\xa9 \\ufffd\\n"),
           "config escaped: control chars, quote, backslash; UTF-8 kept; invalid byte replaced");
    EXPECT(json && strstr(json, "\"detail\":\"bad value, got \\\"x\\\"\\nat (1, 2)\""), "detail escaped");
    struct stat st;
    EXPECT(stat(path_in_out("basic.json.tmp"), &st) != 0, "no temp file left behind");
    free(json);
}

/* A run killed after 3 results, without close: the files already hold them. */
static void test_killed_run(void)
{
    char prefix[1024]; /* a copy: path_in_out reuses its buffers */
    snprintf(prefix, sizeof prefix, "%s", path_in_out("killed"));
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        char err[256];
        gh_device_info dev = sample_device();
        gh_report_options o = file_options(prefix, "[run]\n", path_in_out("killed.xml"));
        gh_report *r = gh_report_open(&o, err, sizeof err);
        if (!r) _exit(2);
        gh_result res = fail_result(&dev);
        for (int i = 0; i < 3; i++) gh_report_result(r, &res);
        gh_report_note(r, "about to die");
        _exit(0); /* no close, no stdio flush at exit */
    }
    int status = 0;
    EXPECT(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0, "child ran");
    check_files_complete(prefix, 3, "after kill");
    EXPECT(log_count(prefix, "note") == 1, "killed.jsonl has its note");
    EXPECT(log_count(prefix, "end") == 0, "killed.jsonl has no end");
}

static void test_bad_prefix(void)
{
    char err[512] = "";
    const char *prefix = "/nonexistent-gemmhost-dir/sub/results";
    gh_report *r = open_report(prefix, "", NULL, err, sizeof err);
    EXPECT(r == NULL, "open in a missing directory fails");
    EXPECT(strstr(err, prefix) != NULL, "error names the path: '%s'", err);
    EXPECT(strstr(err, strerror(ENOENT)) != NULL, "error says why: '%s'", err);
    gh_report_close(r, err, sizeof err); /* NULL is fine */
}

/* The JSON cannot be replaced (a directory took its name): close says so. */
static void test_write_failure(void)
{
    char prefix[1024]; /* a copy: path_in_out reuses its buffers */
    snprintf(prefix, sizeof prefix, "%s", path_in_out("broken"));
    char err[512] = "";
    gh_report *r = open_report(prefix, "", NULL, err, sizeof err);
    EXPECT(r != NULL, "open: %s", err);
    if (!r) return;
    const char *json_path = path_in_out("broken.json");
    remove(json_path);
    EXPECT(mkdir(json_path, 0755) == 0, "mkdir %s: %s", json_path, strerror(errno));
    gh_device_info dev = sample_device();
    gh_result res = pass_result(&dev, 0);
    gh_report_result(r, &res);
    EXPECT(gh_report_close(r, err, sizeof err) == -1, "close reports the failed write");
    EXPECT(strstr(err, "broken.json") != NULL, "error names the file: '%s'", err);
    rmdir(json_path);
    remove(path_in_out("broken.csv"));
}

/* Device info from a plugin built against an older, shorter struct: members
 * past its size are not read. */
static void test_short_device_info(void)
{
    gh_device_info dev = sample_device();
    dev.size = offsetof(gh_device_info, api); /* has name, vendor, driver_version only */
    char err[256];
    char prefix[1024]; /* a copy: path_in_out reuses its buffers */
    snprintf(prefix, sizeof prefix, "%s", path_in_out("short"));
    gh_report *r = open_report(prefix, "", NULL, err, sizeof err);
    EXPECT(r != NULL, "open: %s", err);
    if (!r) return;
    gh_result res = pass_result(&dev, 0);
    gh_report_device(r, "cpu", 0, &dev);
    gh_report_result(r, &res);
    EXPECT(gh_report_close(r, err, sizeof err) == 0, "close: %s", err);
    char *csv_text = read_file(path_in_out("short.csv"));
    csv_doc csv;
    EXPECT(csv_parse(csv_text, &csv) == 0, "short.csv parses");
    const char *api = csv_get(&csv, 1, "device_api"), *sw = csv_get(&csv, 1, "device_is_software");
    const char *ver = csv_get(&csv, 1, "device_driver_version");
    EXPECT(api && !*api && sw && !*sw, "members past size are empty: api '%s', is_software '%s'", api ? api : "(null)",
           sw ? sw : "(null)");
    EXPECT(ver && strcmp(ver, "1.2.3") == 0, "members within size are kept: '%s'", ver);
    csv_free(&csv);
    free(csv_text);
    char *json = read_file(path_in_out("short.json"));
    EXPECT(json && strstr(json, "\"api\":null,\"platform\":null,\"global_mem_bytes\":null"), "device JSON nulls");
    free(json);
}

/* Whether a file exists. */
static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    EXPECT(f && fputs(text, f) >= 0 && fclose(f) == 0, "write %s", path);
}

/* --output FOLDER/: created with its parents, files named gemmhost-results.*. */
static void test_output_folder(void)
{
    char err[512] = "", folder[1024];
    snprintf(folder, sizeof folder, "%s", path_in_out("folder/a/b/"));
    gh_report_options o = file_options(folder, "", NULL);
    gh_report *r = gh_report_open(&o, err, sizeof err);
    EXPECT(r != NULL, "open %s: %s", folder, err);
    const char *files = gh_report_files(r);
    EXPECT(files && strstr(files, "folder/a/b/gemmhost-results.csv, ") && strstr(files, "b/gemmhost-results.json"),
           "files in the folder: %s", files ? files : "(none)");
    EXPECT(gh_report_close(r, err, sizeof err) == 0, "close: %s", err);
    EXPECT(exists(path_in_out("folder/a/b/gemmhost-results.csv")) &&
               exists(path_in_out("folder/a/b/gemmhost-results.json")),
           "both files in the created folder");

    /* The folder named without its '/': the same files, now an earlier run's. */
    o.prefix = path_in_out("folder/a/b");
    gh_report_paths p;
    EXPECT(gh_report_paths_resolve(&o, &p, err, sizeof err) == 0 && p.csv &&
               strcmp(p.csv, path_in_out("folder/a/b/gemmhost-results.csv")) == 0,
           "an existing folder without '/': %s", p.csv ? p.csv : err);
    gh_report_paths_free(&p);

    /* A file where the folder would go. */
    write_text(path_in_out("folder/file"), "x");
    o.prefix = path_in_out("folder/file/sub/");
    r = gh_report_open(&o, err, sizeof err);
    EXPECT(r == NULL && strstr(err, "folder/file"), "a file in the folder's way is named: %s", err);
    gh_report_close(r, err, sizeof err);
}

/* An earlier run's files that cannot be told to be this experiment's are
 * refused, named, with --overwrite and --output OTHER spelled out; nothing
 * is created or changed by a refused open. */
static void test_overwrite(void)
{
    char err[2048] = "", prefix[1024], junit[1024]; /* path_in_out's buffers are reused */
    snprintf(prefix, sizeof prefix, "%s", path_in_out("earlier"));
    snprintf(junit, sizeof junit, "%s", path_in_out("earlier.xml"));
    write_text(path_in_out("earlier.csv"), "earlier run\n");
    remove(path_in_out("earlier.json"));
    remove(path_in_out("earlier.jsonl"));
    gh_report_options o = file_options(prefix, "", junit);
    o.overwrite = 0;
    o.experiment = "fnv1a64:0000000000000001";
    remove(path_in_out("earlier.xml"));
    gh_report *r = gh_report_open(&o, err, sizeof err);
    EXPECT(r == NULL, "an earlier run's CSV alone is refused");
    EXPECT(strstr(err, "earlier.json is missing but") && strstr(err, "earlier.csv exists") &&
               strstr(err, " --overwrite") && strstr(err, "--output ") && strstr(err, "earlier-2"),
           "the refusal names the files and both commands: %s", err);
    char *text = read_file(path_in_out("earlier.csv"));
    EXPECT(text && strcmp(text, "earlier run\n") == 0, "the earlier CSV is unchanged");
    free(text);
    EXPECT(!exists(path_in_out("earlier.json")) && !exists(path_in_out("earlier.xml")) &&
               !exists(path_in_out("earlier.jsonl")),
           "nothing created");

    o.overwrite = 1;
    r = gh_report_open(&o, err, sizeof err);
    EXPECT(r != NULL, "--overwrite replaces it: %s", err);
    EXPECT(gh_report_close(r, err, sizeof err) == 0, "close: %s", err);
    text = read_file(path_in_out("earlier.csv"));
    EXPECT(text && strncmp(text, "case_index,", 11) == 0, "the CSV was replaced");
    free(text);

    /* Now the files are this experiment's, complete: replaced, said on messages. */
    FILE *m = tmpfile();
    o.overwrite = 0;
    o.messages = m;
    r = gh_report_open(&o, err, sizeof err);
    EXPECT(r != NULL, "the same experiment, complete, is replaced: %s", err);
    gh_report_close(r, err, sizeof err);
    text = read_stream(m);
    EXPECT(text && strstr(text, "replacing ") && strstr(text, "this same experiment"), "and says so: %s", text);
    free(text);
    fclose(m);
    o.messages = sink;

    /* Another experiment: refused with both commands. */
    o.experiment = "fnv1a64:0000000000000002";
    EXPECT(gh_report_open(&o, err, sizeof err) == NULL && strstr(err, "another experiment") &&
               strstr(err, "--overwrite") && strstr(err, "--output "),
           "another experiment is refused: %s", err);

    /* The JUnit file alone: another experiment's too. */
    remove(path_in_out("earlier.csv"));
    remove(path_in_out("earlier.json"));
    remove(path_in_out("earlier.jsonl"));
    EXPECT(gh_report_open(&o, err, sizeof err) == NULL && strstr(err, "earlier.xml holds") && strstr(err, "--junit"),
           "an earlier JUnit file of another experiment is refused: %s", err);
    EXPECT(!exists(path_in_out("earlier.csv")), "refused before creating the CSV");
}

/* The built-in default's prefix follows the same rule; an empty output
 * writes nothing, saying so. */
static void test_default_and_empty(void)
{
    char err[2048] = "", cwd[1024];
    EXPECT(getcwd(cwd, sizeof cwd) != NULL, "getcwd");
    mkdir(path_in_out("cwd"), 0755);
    EXPECT(chdir(path_in_out("cwd")) == 0, "chdir");
    for (int run = 0; run < 3; run++) {
        FILE *m = tmpfile();
        gh_report_options o = file_options(GH_REPORT_DEFAULT_NAME, "", NULL);
        o.overwrite = 0;
        o.experiment = run < 2 ? "fnv1a64:00000000000000aa" : "fnv1a64:00000000000000bb";
        o.messages = m;
        if (run == 0) remove(GH_REPORT_DEFAULT_NAME ".csv"), remove(GH_REPORT_DEFAULT_NAME ".json");
        if (run == 0) remove(GH_REPORT_DEFAULT_NAME ".jsonl");
        gh_report *r = gh_report_open(&o, err, sizeof err);
        EXPECT((r != NULL) == (run < 2), "default run %d: %s", run, r ? "opens" : err);
        gh_report_close(r, err, sizeof err);
        char *text = read_stream(m);
        int said =
            text && strstr(text, "replacing gemmhost-results.csv, gemmhost-results.json and gemmhost-results.jsonl");
        EXPECT(said == (run == 1), "run %d: replacing %s:\n%s", run, run == 1 ? "said" : "not said", text);
        free(text);
        fclose(m);
    }
    FILE *t = tmpfile();
    gh_report_options o = file_options("", "", NULL);
    o.table = t;
    gh_report *r = gh_report_open(&o, err, sizeof err);
    EXPECT(r != NULL && gh_report_files(r) == NULL, "empty output: no files");
    gh_report_close(r, err, sizeof err);
    char *text = read_stream(t);
    EXPECT(text && count_lines_starting(text, "output is empty: no result files are written") == 1, "said once:\n%s",
           text);
    free(text);
    fclose(t);
    EXPECT(chdir(cwd) == 0, "chdir back");
}

int main(int argc, char **argv)
{
    check_quiet = 1; /* failures and the summary only */
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
        return 2;
    }
    out_dir = argv[1];
    if (mkdir(out_dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "cannot create %s: %s\n", out_dir, strerror(errno));
        return 2;
    }
    sink = fopen("/dev/null", "w");
    test_csv_and_json();
    test_killed_run();
    test_bad_prefix();
    test_write_failure();
    test_short_device_info();
    test_output_folder();
    test_overwrite();
    test_default_and_empty();
    fclose(sink);
    return check_summary("test_report");
}
