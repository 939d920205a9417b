/* Results as they arrive: the terminal (table.c), CSV and JSON on disk, and
 * JUnit XML (junit.c).
 *
 * The CSV gets one line per result, flushed at once. The JSON is kept in
 * memory as pre-rendered fragments and rewritten whole after every change,
 * into a temp file renamed over the real one, so the file on disk is always
 * one complete document; it says "complete": false until gh_report_close.
 * One field list per result (encode.c) feeds both formats, so their columns
 * and keys cannot drift apart.
 *
 * Not thread-safe: call from one thread (the run loop). */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "encode.h"
#include "gemmhost_build_info.h"
#include "junit.h"
#include "output_guard.h"
#include "replace_file.h"
#include "table.h"

#ifndef GEMMHOST_VERSION
#define GEMMHOST_VERSION "unknown"
#endif

struct gh_report {
    gh_table *table; /* the terminal, quiet or not */
    gh_report_paths paths;
    char *files;             /* "X.csv and X.json" */
    FILE *csv;               /* NULL: no files */
    gh_junit *junit;         /* NULL: no JUnit file */
    char *head_json;         /* the members that do not change: version, host, command line, config */
    char start[32], end[32]; /* ISO 8601 UTC; end is "" until close */
    int complete;
    int cancelled;
    int held, json_pending; /* gh_report_hold: a rewrite waits for the hold's end */
    gh_strlist plugins, devices, device_keys, results, agreement, splits, notes;
    int failed;
    char error[512]; /* the first write failure */
};

/* Keeps the first failure: it is usually the cause of the rest. */
static void report_fail(gh_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report_fail(gh_report *r, const char *fmt, ...)
{
    if (r->failed) return;
    r->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->error, sizeof r->error, fmt, ap);
    va_end(ap);
}

static char *str_concat(const char *a, const char *b)
{
    gh_sbuf sb = {0};
    gh_sb_puts(&sb, a);
    gh_sb_puts(&sb, b);
    return gh_sb_take(&sb);
}

static void iso_time_now(char out[32])
{
    time_t now = time(NULL);
    struct tm tm;
    if (now == (time_t)-1 || !gmtime_r(&now, &tm) || strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        snprintf(out, 32, "unknown");
}

/* ------------------------------------------------------------------------ */
/* Paths: which files, and whether they would replace an earlier run's. */

static int is_folder(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

void gh_report_paths_free(gh_report_paths *p)
{
    free(p->csv);
    free(p->json);
    free(p->junit);
    free(p->folder);
    memset(p, 0, sizeof *p);
}

static int refuse(const char *path, const char *option, char *err, size_t err_size)
{
    snprintf(err, err_size,
             "%s exists and may hold the results of an earlier run; --overwrite replaces it "
             "(or give another %s)",
             path, option);
    return -1;
}

int gh_report_paths_resolve(const gh_report_options *o, gh_report_paths *p, char *err, size_t err_size)
{
    memset(p, 0, sizeof *p);
    const char *out = o->prefix;
    size_t len = out ? strlen(out) : 0;
    int oom = 0;
    if (len) {
        char *prefix;
        if (out[len - 1] == '/' || is_folder(out)) {
            while (len > 1 && out[len - 1] == '/') len--; /* "dir//" and "dir" alike; "/" stays */
            gh_sbuf b = {0};
            gh_sb_putn(&b, out, len);
            p->folder = gh_sb_take(&b);
            prefix = p->folder ? str_concat(p->folder, strcmp(p->folder, "/") ? "/" GH_REPORT_DEFAULT_NAME
                                                                              : GH_REPORT_DEFAULT_NAME)
                               : NULL;
        } else {
            prefix = str_concat(out, "");
        }
        p->csv = prefix ? str_concat(prefix, ".csv") : NULL;
        p->json = prefix ? str_concat(prefix, ".json") : NULL;
        oom = !p->csv || !p->json;
        free(prefix);
    }
    if (o->junit_path && *o->junit_path) oom |= !(p->junit = str_concat(o->junit_path, ""));
    if (oom) {
        snprintf(err, err_size, "cannot open the report: out of memory");
        gh_report_paths_free(p);
        return -1;
    }
    int earlier = p->csv && (exists(p->csv) || exists(p->json));
    int own_default = o->replace_default && out && strcmp(out, GH_REPORT_DEFAULT_NAME) == 0;
    int rc = 0;
    if (earlier && !o->overwrite && !own_default && !o->resume)
        rc = refuse(exists(p->csv) ? p->csv : p->json, "--output", err, err_size);
    else if (p->junit && exists(p->junit) && !o->overwrite && !o->resume)
        rc = refuse(p->junit, "--junit", err, err_size);
    if (rc) gh_report_paths_free(p);
    else p->replaces = earlier && !o->overwrite && !o->resume;
    return rc;
}

/* mkdir -p: each missing folder on the way. */
static int make_folders(const char *path, char *err, size_t err_size)
{
    char *copy = str_concat(path, "");
    if (!copy) {
        snprintf(err, err_size, "cannot create %s: out of memory", path);
        return -1;
    }
    int rc = 0;
    for (char *p = copy + 1;; p++) {
        if (*p != '/' && *p != '\0') continue;
        char was = *p;
        *p = '\0';
        if (mkdir(copy, 0777) != 0 && errno != EEXIST) {
            snprintf(err, err_size, "cannot create the output folder %s: %s", copy, strerror(errno));
            rc = -1;
            break;
        }
        *p = was;
        if (!was) break;
    }
    if (rc == 0 && !is_folder(path)) {
        snprintf(err, err_size, "cannot use %s as the output folder: it is not a folder", path);
        rc = -1;
    }
    free(copy);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* The JSON. */

static void json_list(gh_sbuf *b, const char *name, const gh_strlist *l, int last)
{
    gh_sb_printf(b, "  \"%s\": [", name);
    for (size_t i = 0; i < l->n; i++) gh_sb_printf(b, "%s\n    %s", i ? "," : "", l->items[i]);
    gh_sb_printf(b, "%s]%s\n", l->n ? "\n  " : "", last ? "" : ",");
}

static int rewrite_json(const gh_report *r, char *err, size_t err_size)
{
    char now[32];
    iso_time_now(now);
    gh_sbuf b = {0};
    gh_sb_printf(&b, "{\n  \"complete\": %s,\n  \"cancelled\": %s,\n%s", r->complete ? "true" : "false",
                 r->cancelled ? "true" : "false", r->head_json);
    gh_sb_printf(&b, "  \"time\": {\"start\": \"%s\", \"end\": ", r->start);
    if (r->end[0]) gh_sb_printf(&b, "\"%s\"", r->end);
    else gh_sb_puts(&b, "null");
    gh_sb_printf(&b, ", \"updated\": \"%s\"},\n", now);
    json_list(&b, "plugins", &r->plugins, 0);
    json_list(&b, "devices", &r->devices, 0);
    json_list(&b, "results", &r->results, 0);
    json_list(&b, "agreement", &r->agreement, 0);
    json_list(&b, "splits", &r->splits, 0);
    json_list(&b, "notes", &r->notes, 1);
    gh_sb_puts(&b, "}\n");
    char *text = gh_sb_take(&b);
    if (!text) {
        snprintf(err, err_size, "cannot write %s: out of memory", r->paths.json);
        return -1;
    }
    int rc = gh_replace_file(r->paths.json, text, strlen(text), err, err_size);
    free(text);
    return rc;
}

static void update_json(gh_report *r)
{
    if (!r->paths.json) return;
    if (r->held) {
        r->json_pending = 1;
        return;
    }
    char err[sizeof r->error];
    if (rewrite_json(r, err, sizeof err) != 0) report_fail(r, "%s", err);
}

/* Adds a rendered fragment (NULL: rendering ran out of memory) and rewrites. */
static void add_fragment(gh_report *r, gh_strlist *list, char *json)
{
    if (!r->paths.json) {
        free(json);
        return;
    }
    if (gh_sl_push(list, json) != 0) {
        report_fail(r, "cannot update %s: out of memory", r->paths.json);
        return;
    }
    update_json(r);
}

/* The members that stay as they are: who ran what, where, with which config. */
static char *render_head_json(const gh_report_options *o)
{
    char host[256] = "";
    if (gethostname(host, sizeof host) != 0) snprintf(host, sizeof host, "unknown");
    host[sizeof host - 1] = '\0';
    gh_sbuf b = {0};
    gh_sb_puts(&b, "  \"gemmhost\": {\"version\": ");
    gh_json_str(&b, GEMMHOST_VERSION);
    gh_sb_puts(&b, ", \"git_commit\": ");
    gh_json_str(&b, GEMMHOST_GIT_COMMIT);
    gh_sb_puts(&b, ", \"build_type\": ");
    gh_json_str(&b, GEMMHOST_BUILD_TYPE);
    gh_sb_puts(&b, "},\n  \"host\": ");
    gh_json_str(&b, host);
    gh_sb_puts(&b, ",\n  \"command_line\": [");
    for (int i = 0; i < o->argc && o->argv; i++) {
        if (i) gh_sb_puts(&b, ", ");
        gh_json_str(&b, o->argv[i]);
    }
    gh_sb_puts(&b, "],\n  \"config\": ");
    gh_json_str(&b, o->config_text);
    if (o->settings_json) gh_sb_printf(&b, ",\n  \"settings\": %s", o->settings_json);
    gh_sb_puts(&b, ",\n");
    return gh_sb_take(&b);
}

/* ------------------------------------------------------------------------ */
/* Opening and closing. */

static void write_csv(gh_report *r, char *line)
{
    if (!r->csv) {
        free(line);
        return;
    }
    if (!line) {
        report_fail(r, "cannot write %s: out of memory", r->paths.csv);
        return;
    }
    size_t n = strlen(line);
    /* Flushed per line: a killed run leaves only complete lines. */
    if (fwrite(line, 1, n, r->csv) != n || fflush(r->csv) != 0)
        report_fail(r, "cannot write %s: %s", r->paths.csv, strerror(errno));
    free(line);
}

static void report_free(gh_report *r)
{
    gh_table_close(r->table);
    gh_junit_free(r->junit);
    gh_report_paths_free(&r->paths);
    free(r->files);
    free(r->head_json);
    gh_sl_free(&r->plugins);
    gh_sl_free(&r->devices);
    gh_sl_free(&r->device_keys);
    gh_sl_free(&r->results);
    gh_sl_free(&r->agreement);
    gh_sl_free(&r->splits);
    gh_sl_free(&r->notes);
    free(r);
}

/* Creates the files: the CSV with its header, the JSON with empty lists, the
 * JUnit XML with an empty suite. */
static int open_files(gh_report *r, char *err, size_t err_size)
{
    if (r->paths.folder && make_folders(r->paths.folder, err, err_size) != 0) return -1;
    if (r->paths.csv) {
        r->csv = gh_output_fopen(r->paths.csv, "the results file", err, err_size);
        if (!r->csv) return -1;
        gh_result zero;
        memset(&zero, 0, sizeof zero);
        gh_fieldset fs;
        gh_fields_result(&fs, &zero);
        write_csv(r, gh_render_csv_header(&fs));
        if (r->failed) {
            snprintf(err, err_size, "%s", r->error);
            return -1;
        }
        /* Resuming: the earlier JSON is what is being continued; it stays until replaced with more. */
        if (!r->held && rewrite_json(r, err, err_size) != 0) return -1;
    }
    if (r->paths.junit) {
        gh_junit_info info = {r->paths.junit, r->start, "", GEMMHOST_VERSION, GEMMHOST_GIT_COMMIT};
        char host[256] = "";
        if (gethostname(host, sizeof host) == 0) host[sizeof host - 1] = '\0';
        info.hostname = host;
        r->junit = gh_junit_open(&info, err, err_size);
        if (!r->junit) return -1;
    }
    return 0;
}

/* Do not leave half a report behind. */
static void remove_files(gh_report *r)
{
    if (r->csv) fclose(r->csv);
    r->csv = NULL;
    if (r->paths.csv) gh_output_remove(r->paths.csv);
    if (r->paths.json) gh_output_remove(r->paths.json);
}

static gh_report *open_failed(gh_report *r, char *err, size_t err_size, const char *why)
{
    if (why) snprintf(err, err_size, "%s", why);
    report_free(r);
    return NULL;
}

gh_report *gh_report_open(const gh_report_options *o, char *err, size_t err_size)
{
    gh_report *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, err_size, "cannot open report: out of memory");
        return NULL;
    }
    if (gh_report_paths_resolve(o, &r->paths, err, err_size) != 0) return open_failed(r, err, err_size, NULL);
    gh_table_options t = {o->table, o->messages, o->quiet || !o->table, o->full_agreement};
    r->table = gh_table_open(&t);
    r->head_json = render_head_json(o);
    if (r->paths.csv) {
        gh_sbuf b = {0};
        gh_sb_printf(&b, "%s and %s", r->paths.csv, r->paths.json);
        r->files = gh_sb_take(&b);
    }
    if (!r->table || !r->head_json || (r->paths.csv && !r->files))
        return open_failed(r, err, err_size, "cannot open report: out of memory");
    iso_time_now(r->start);
    r->held = o->resume;
    int replacing = r->paths.replaces;
    if (open_files(r, err, err_size) != 0) {
        if (!o->resume) remove_files(r);
        else if (r->csv) fclose(r->csv); /* the earlier run's JSON is never removed */
        r->csv = NULL;
        return open_failed(r, err, err_size, NULL);
    }
    if (!r->paths.csv) gh_table_say(r->table, "output is empty: no result files are written");
    if (replacing) {
        char *line = str_concat("replacing the earlier run's ", r->files);
        char *text =
            line ? str_concat(line, " (the built-in default's files; --output PREFIX keeps results apart)") : NULL;
        gh_table_say(r->table, text ? text : "replacing the earlier run's files");
        free(line);
        free(text);
    }
    return r;
}

const char *gh_report_files(const gh_report *r)
{
    return r ? r->files : NULL;
}

int gh_report_close(gh_report *r, char *err, size_t err_size)
{
    if (!r) return 0;
    iso_time_now(r->end);
    r->complete = !r->cancelled;
    r->held = 0;
    update_json(r);
    char jerr[sizeof r->error];
    if (r->junit && gh_junit_close(r->junit, jerr, sizeof jerr) != 0) report_fail(r, "%s", jerr);
    r->junit = NULL;
    if (r->csv && fclose(r->csv) != 0) report_fail(r, "cannot write %s: %s", r->paths.csv, strerror(errno));
    r->csv = NULL;
    int rc = r->failed ? -1 : 0;
    if (rc) snprintf(err, err_size, "%s", r->error);
    else if (r->paths.csv || r->paths.junit) {
        gh_sbuf b = {0};
        gh_sb_puts(&b, "results: ");
        if (r->paths.csv) gh_sb_printf(&b, "%s, %s", r->paths.csv, r->paths.json);
        if (r->paths.junit) gh_sb_printf(&b, "%s%s", r->paths.csv ? ", " : "", r->paths.junit);
        char *line = gh_sb_take(&b);
        if (line && r->table) gh_table_line(r->table, line);
        free(line);
    }
    report_free(r);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* As the run goes. Each call takes a NULL report as "no report". */

void gh_report_hold(gh_report *r, int hold)
{
    if (!r) return;
    r->held = hold;
    char err[sizeof r->error];
    if (gh_junit_hold(r->junit, hold, err, sizeof err) != 0) report_fail(r, "%s", err);
    if (!hold && r->json_pending) {
        r->json_pending = 0;
        update_json(r);
    }
}

void gh_report_cancelled(gh_report *r, const char *signal_name)
{
    if (!r) return;
    r->cancelled = 1;
    gh_junit_cancelled(r->junit);
    gh_report_note(r,
                   "run cancelled by %s: the results so far are kept; run again with --resume and the same "
                   "--output to continue",
                   signal_name);
}

void gh_report_plugin_info(gh_report *r, const gh_report_plugin *p)
{
    if (!r || !p) return;
    gh_fieldset fs;
    gh_fields_plugin(&fs, p);
    add_fragment(r, &r->plugins, gh_render_json_object(&fs));
}

void gh_report_device(gh_report *r, const char *backend, int device_index, const gh_device_info *info)
{
    if (!r) return;
    gh_sbuf key = {0};
    gh_sb_printf(&key, "%d:%s", device_index, backend ? backend : "");
    char *k = gh_sb_take(&key);
    if (k && gh_sl_contains(&r->device_keys, k)) {
        free(k);
        return;
    } /* once per backend/device */
    if (gh_sl_push(&r->device_keys, k) != 0) {
        report_fail(r, "cannot update the report: out of memory");
        return;
    }
    gh_fieldset fs;
    gh_fields_device(&fs, backend, device_index, info);
    add_fragment(r, &r->devices, gh_render_json_object(&fs));
}

void gh_report_expect(gh_report *r, const char *backend, const char *device_label, const char *kernel,
                      const char *params)
{
    if (r) gh_table_expect(r->table, backend, device_label, kernel, params);
}

void gh_report_result(gh_report *r, const gh_result *res)
{
    if (!r || !res) return;
    gh_table_result(r->table, res);
    gh_fieldset fs;
    gh_fields_result(&fs, res);
    if (r->csv) write_csv(r, gh_render_csv_row(&fs));
    add_fragment(r, &r->results, gh_render_json_object(&fs));
    char err[sizeof r->error];
    if (r->junit && gh_junit_result(r->junit, res, err, sizeof err) != 0) report_fail(r, "%s", err);
}

void gh_report_split_members(gh_report *r, const gh_result *res, double wall_ms, const gh_report_split_member *members,
                             size_t n)
{
    if (!r || !res || (!members && n)) return;
    gh_table_split_members(r->table, members, n);
    if (r->paths.json) add_fragment(r, &r->splits, gh_render_split_json(res, wall_ms, members, n));
}

void gh_report_agreement(gh_report *r, const gh_agreement *a)
{
    if (!r || !a) return;
    gh_table_agreement(r->table, a);
    if (r->paths.json) add_fragment(r, &r->agreement, gh_render_agreement_json(a));
}

void gh_report_note(gh_report *r, const char *fmt, ...)
{
    if (!r || !fmt) return;
    gh_sbuf text = {0};
    va_list ap;
    va_start(ap, fmt);
    gh_sb_vprintf(&text, fmt, ap);
    va_end(ap);
    char *s = gh_sb_take(&text);
    if (!s) {
        report_fail(r, "cannot add a note: out of memory");
        return;
    }
    gh_table_note(r->table, s);
    if (r->paths.json) {
        gh_sbuf b = {0};
        gh_json_str(&b, s);
        add_fragment(r, &r->notes, gh_sb_take(&b));
    }
    char err[sizeof r->error];
    if (r->junit && gh_junit_note(r->junit, s, err, sizeof err) != 0) report_fail(r, "%s", err);
    free(s);
}

void gh_report_summary(gh_report *r)
{
    if (r) gh_table_summary(r->table);
}
