/* Results as they arrive: the terminal (table.c), CSV and JSON on disk, and
 * JUnit XML (junit.c).
 *
 * The CSV gets one line per result and the record log (result_log.h) one
 * line per record, each flushed at once: what a kill leaves is every record
 * before it. The JSON is kept in memory as pre-rendered fragments and
 * rewritten whole, into a temp file renamed over the real one, at
 * checkpoints spaced so that the bytes written stay linear in the records
 * (see checkpoint_due) and at close: the file on disk is always one complete
 * document, at most a checkpoint behind the log, and says "complete": false
 * until gh_report_close. JUnit is written at the same checkpoints. One field
 * list per result (encode.c) feeds every format, so their columns and keys
 * cannot drift apart.
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
#include "experiment.h"
#include "fingerprint_json.h"
#include "gemmhost_build_info.h"
#include "junit.h"
#include "output_guard.h"
#include "replace_file.h"
#include "result_log.h"
#include "table.h"
#include "util.h"

#ifndef GEMMHOST_VERSION
#define GEMMHOST_VERSION "unknown"
#endif

struct gh_report {
    gh_table *table; /* the terminal, quiet or not */
    gh_report_paths paths;
    char *files;             /* "X.csv and X.json" */
    FILE *csv;               /* NULL: no files */
    gh_junit *junit;         /* NULL: no JUnit file */
    gh_result_log *log;      /* NULL: no files */
    char *head_json;         /* the members that do not change: version, host, command line, config */
    char *head_log;          /* the same as the log's first line */
    char start[32], end[32]; /* ISO 8601 UTC; end is "" until close */
    int complete;
    int cancelled;
    char *experiment; /* experiment.h; NULL: none */
    int held;         /* gh_report_hold: no checkpoint until the hold ends */
    int staged;       /* resuming: the log is staged until the first checkpoint (result_log.h) */
    /* Checkpoints: the records' bytes (as the log has them) so far and at
     * the last checkpoint, when that was, and whether a record came since. */
    uint64_t record_bytes, checkpoint_bytes;
    struct timespec checkpoint_time;
    int dirty;
    /* What was written, for GEMMHOST_REPORT_STATS. */
    size_t json_written, junit_written, json_rewrites, junit_rewrites, n_results;
    uint64_t log_written;
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

static int is_folder(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* mkdir -p, and what is there must be a folder. */
static int make_folders(const char *path, char *err, size_t err_size)
{
    if (gh_make_folders(path, "the output folder", err, err_size) != 0) return -1;
    if (is_folder(path)) return 0;
    snprintf(err, err_size, "cannot use %s as the output folder: it is not a folder", path);
    return -1;
}

/* ------------------------------------------------------------------------ */
/* The JSON. */

static void json_list(gh_sbuf *b, const char *name, const gh_strlist *l, int last)
{
    gh_sb_printf(b, "  \"%s\": [", name);
    for (size_t i = 0; i < l->n; i++) gh_sb_printf(b, "%s\n    %s", i ? "," : "", l->items[i]);
    gh_sb_printf(b, "%s]%s\n", l->n ? "\n  " : "", last ? "" : ",");
}

static int rewrite_json(gh_report *r, char *err, size_t err_size)
{
    char now[32];
    gh_iso_time_now(now);
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
    size_t len = strlen(text);
    int rc = gh_replace_file(r->paths.json, text, len, err, err_size);
    free(text);
    if (rc == 0) {
        r->json_written += len;
        r->json_rewrites++;
    }
    return rc;
}

/* A rewrite costs about the records' bytes so far; one is due when the
 * records since the last have doubled them, or, after a few seconds, have
 * grown them by a sixteenth. Each rewrite then follows growth by a fixed
 * fraction, so all of them together write a bounded multiple of the final
 * size (a 17th... of a geometric series), not one file per record. */
#define CHECKPOINT_SECONDS 2.0

static double seconds_since(const struct timespec *t)
{
    struct timespec now;
    if (clock_gettime(CLOCK_MONOTONIC, &now) != 0) return 0; /* no clock: only the doubling counts */
    return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

static int checkpoint_due(const gh_report *r)
{
    uint64_t since = r->record_bytes - r->checkpoint_bytes;
    return since >= r->checkpoint_bytes ||
           (since >= r->checkpoint_bytes / 16 && seconds_since(&r->checkpoint_time) >= CHECKPOINT_SECONDS);
}

/* Brings the JSON and JUnit up to the records, when due (or forced). */
static void checkpoint(gh_report *r, int force)
{
    if (r->held || (!force && (!r->dirty || !checkpoint_due(r)))) return;
    char err[sizeof r->error];
    /* A resumed run's log takes the earlier one's place first: it holds all the JSON will. */
    if (gh_result_log_commit(r->log, err, sizeof err) != 0) report_fail(r, "%s", err);
    else r->staged = 0;
    if (r->paths.json && !r->staged && rewrite_json(r, err, sizeof err) != 0) report_fail(r, "%s", err);
    if (r->junit) {
        size_t before = r->junit_written;
        if (gh_junit_write(r->junit, &r->junit_written, err, sizeof err) != 0) report_fail(r, "%s", err);
        r->junit_rewrites += r->junit_written != before;
    }
    r->checkpoint_bytes = r->record_bytes;
    if (clock_gettime(CLOCK_MONOTONIC, &r->checkpoint_time) != 0)
        memset(&r->checkpoint_time, 0, sizeof r->checkpoint_time);
    r->dirty = 0;
}

/* A record: counted for the checkpoints, appended to the log, kept (with
 * JSON files) for the next rewrite. `json` NULL: rendering ran out of memory. */
static void add_record(gh_report *r, const char *kind, gh_strlist *list, char *json)
{
    if (!json) {
        report_fail(r, "cannot update the report: out of memory");
        return;
    }
    r->record_bytes += strlen(json) + strlen(kind) + sizeof "{\"record\":\"\",\"value\":}\n" - 1;
    r->dirty = 1;
    char err[sizeof r->error];
    if (r->log && gh_result_log_append(r->log, kind, json, err, sizeof err) != 0) report_fail(r, "%s", err);
    if (!r->paths.json) free(json);
    else if (gh_sl_push(list, json) != 0) report_fail(r, "cannot update %s: out of memory", r->paths.json);
}

/* The members that stay as they are: who ran what, where, with which config
 * and as which experiment. `sep` goes between members ("," in the log,
 * ",\n  " in the JSON), after the last one too. */
static char *render_head_members(const gh_report_options *o, const char *sep)
{
    char host[256] = "";
    if (gethostname(host, sizeof host) != 0) snprintf(host, sizeof host, "unknown");
    host[sizeof host - 1] = '\0';
    gh_sbuf b = {0};
    gh_sb_puts(&b, "\"gemmhost\": {\"version\": ");
    gh_json_str(&b, GEMMHOST_VERSION);
    gh_sb_puts(&b, ", \"git_commit\": ");
    gh_json_str(&b, GEMMHOST_GIT_COMMIT);
    gh_sb_puts(&b, ", \"build_type\": ");
    gh_json_str(&b, GEMMHOST_BUILD_TYPE);
    gh_sb_printf(&b, "}%s\"host\": ", sep);
    gh_json_str(&b, host);
    if (o->experiment) {
        gh_sb_printf(&b, "%s\"experiment\": ", sep);
        gh_json_str(&b, o->experiment);
    }
    gh_sb_printf(&b, "%s\"command_line\": [", sep);
    for (int i = 0; i < o->argc && o->argv; i++) {
        if (i) gh_sb_puts(&b, ", ");
        gh_json_str(&b, o->argv[i]);
    }
    gh_sb_printf(&b, "]%s\"config\": ", sep);
    gh_json_str(&b, o->config_text);
    if (o->settings_json) gh_sb_printf(&b, "%s\"settings\": %s", sep, o->settings_json);
    if (o->fleet_json) gh_sb_printf(&b, "%s\"fleet\": %s", sep, o->fleet_json);
    gh_sb_puts(&b, sep);
    return gh_sb_take(&b);
}

/* The JSON's head: indented members, each line ending ",\n". */
static char *render_head_json(const gh_report_options *o)
{
    char *members = render_head_members(o, ",\n  ");
    char *head = members ? gh_strdupf("  %.*s\n", (int)(strlen(members) - 2), members) : NULL;
    free(members);
    return head;
}

/* The log's head: one object on one line, with the start time. */
static char *render_head_log(const gh_report_options *o, const char *start)
{
    char *members = render_head_members(o, ",");
    char *head = members ? gh_strdupf("{%s\"start\":\"%s\"}", members, start) : NULL;
    free(members);
    return head;
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
    gh_result_log_abandon(r->log);
    gh_report_paths_free(&r->paths);
    free(r->files);
    free(r->head_json);
    free(r->head_log);
    free(r->experiment);
    gh_sl_free(&r->plugins);
    gh_sl_free(&r->devices);
    gh_sl_free(&r->device_keys);
    gh_sl_free(&r->results);
    gh_sl_free(&r->agreement);
    gh_sl_free(&r->splits);
    gh_sl_free(&r->notes);
    free(r);
}

/* Creates the files: the CSV with its header, the log with its head, the
 * JSON with empty lists, the JUnit XML with an empty suite. Resuming, the
 * earlier JSON and log are what is being continued: they stay until the
 * first checkpoint replaces them with as much or more. */
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
        r->log = gh_result_log_open(r->paths.log, r->head_log, r->staged, err, err_size);
        if (!r->log) return -1;
        if (!r->staged && rewrite_json(r, err, err_size) != 0) return -1;
    }
    if (r->paths.junit) {
        gh_junit_info info = {r->paths.junit, r->start, "", GEMMHOST_VERSION, GEMMHOST_GIT_COMMIT, r->experiment};
        char host[256] = "";
        if (gethostname(host, sizeof host) == 0) host[sizeof host - 1] = '\0';
        info.hostname = host;
        r->junit = gh_junit_open(&info, err, err_size);
        if (!r->junit) return -1;
        if (!r->staged && gh_junit_write(r->junit, &r->junit_written, err, err_size) != 0) return -1;
    }
    r->checkpoint_bytes = gh_result_log_bytes(r->log);
    if (clock_gettime(CLOCK_MONOTONIC, &r->checkpoint_time) != 0)
        memset(&r->checkpoint_time, 0, sizeof r->checkpoint_time);
    return 0;
}

/* Do not leave half a report behind. */
static void remove_files(gh_report *r)
{
    if (r->csv) fclose(r->csv);
    r->csv = NULL;
    gh_result_log_abandon(r->log);
    r->log = NULL;
    if (r->paths.csv) gh_output_remove(r->paths.csv);
    if (r->paths.json) gh_output_remove(r->paths.json);
    if (r->paths.log) gh_output_remove(r->paths.log);
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
    gh_table_options t = {o->table, o->messages, o->quiet || !o->table, o->full_agreement, o->verbose};
    r->table = gh_table_open(&t);
    gh_iso_time_now(r->start);
    r->head_json = render_head_json(o);
    r->head_log = render_head_log(o, r->start);
    r->experiment = o->experiment ? gh_strdup(o->experiment) : NULL;
    if (r->paths.csv) r->files = gh_strdupf("%s, %s and %s", r->paths.csv, r->paths.json, r->paths.log);
    if (!r->table || !r->head_json || !r->head_log)
        return open_failed(r, err, err_size, "cannot open report: out of memory");
    r->held = r->staged = o->resume;
    if (open_files(r, err, err_size) != 0) {
        if (!o->resume) remove_files(r);
        else if (r->csv) fclose(r->csv); /* the earlier run's JSON and log are never removed */
        r->csv = NULL;
        return open_failed(r, err, err_size, NULL);
    }
    if (!r->paths.csv) gh_table_say(r->table, "output is empty: no result files are written");
    if (r->paths.replaces)
        fprintf(o->messages ? o->messages : stderr,
                "gemmhost: replacing %s: the complete results of this same experiment (config and selection), "
                "run again; --output OTHER keeps both\n",
                r->files);
    return r;
}

const char *gh_report_files(const gh_report *r)
{
    return r ? r->files : NULL;
}

/* GEMMHOST_REPORT_STATS=PATH: what the files cost, for tests and benchmarks. */
static void write_stats(gh_report *r)
{
    const char *path = getenv("GEMMHOST_REPORT_STATS");
    if (!path || !*path) return;
    FILE *f = fopen(path, "w");
    if (!f) {
        report_fail(r, "cannot write GEMMHOST_REPORT_STATS file %s: %s", path, strerror(errno));
        return;
    }
    fprintf(f,
            "results %zu\njson_rewrites %zu\njson_bytes_written %zu\nlog_bytes %llu\njunit_rewrites %zu\n"
            "junit_bytes_written %zu\n",
            r->n_results, r->json_rewrites, r->json_written, (unsigned long long)r->log_written, r->junit_rewrites,
            r->junit_written);
    if (fclose(f) != 0) report_fail(r, "cannot write GEMMHOST_REPORT_STATS file %s: %s", path, strerror(errno));
}

int gh_report_close(gh_report *r, char *err, size_t err_size)
{
    if (!r) return 0;
    gh_iso_time_now(r->end);
    r->complete = !r->cancelled;
    r->held = 0;
    char jerr[sizeof r->error];
    if (r->log) {
        char *end = gh_strdupf("{\"complete\":%s,\"cancelled\":%s,\"end\":\"%s\"}", r->complete ? "true" : "false",
                               r->cancelled ? "true" : "false", r->end);
        if (gh_result_log_append(r->log, "end", end, jerr, sizeof jerr) != 0) report_fail(r, "%s", jerr);
        free(end);
    }
    checkpoint(r, 1);
    if (r->junit && gh_junit_close(r->junit, NULL, jerr, sizeof jerr) != 0) report_fail(r, "%s", jerr);
    r->junit = NULL;
    r->log_written = gh_result_log_bytes(r->log);
    if (gh_result_log_close(r->log, jerr, sizeof jerr) != 0) report_fail(r, "%s", jerr);
    r->log = NULL;
    write_stats(r);
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
    /* The first release of a resumed run writes what was read back, as one write. */
    if (!hold) checkpoint(r, r->staged && r->dirty);
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
    add_record(r, "plugin", &r->plugins, gh_render_json_object(&fs));
    checkpoint(r, 0);
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
    add_record(r, "device", &r->devices, gh_render_json_object(&fs));
    checkpoint(r, 0);
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
    /* The log first: --resume reads it, so a kill between the two writes
     * leaves a result in the log that the CSV lacks (rebuilt on resume),
     * never one in the CSV that the log lacks. */
    add_record(r, "result", &r->results,
               gh_fingerprint_json_append(gh_render_json_object(&fs), &res->fingerprint,
                                          res->types.explicit_types ? res->types.c : res->dtype));
    if (r->csv) write_csv(r, gh_render_csv_row(&fs));
    r->n_results++;
    char err[sizeof r->error];
    if (r->junit && gh_junit_result(r->junit, res, err, sizeof err) != 0) report_fail(r, "%s", err);
    checkpoint(r, 0);
}

void gh_report_split_members(gh_report *r, const gh_result *res, double wall_ms, const gh_report_split_member *members,
                             size_t n)
{
    if (!r || !res || (!members && n)) return;
    gh_table_split_members(r->table, members, n);
    if (r->paths.json) add_record(r, "split", &r->splits, gh_render_split_json(res, wall_ms, members, n));
    checkpoint(r, 0);
}

void gh_report_agreement(gh_report *r, const gh_agreement *a)
{
    if (!r || !a) return;
    gh_table_agreement(r->table, a);
    if (r->paths.json) add_record(r, "agreement", &r->agreement, gh_render_agreement_json(a));
    checkpoint(r, 0);
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
        add_record(r, "note", &r->notes, gh_sb_take(&b));
    }
    char err[sizeof r->error];
    if (r->junit && gh_junit_note(r->junit, s, err, sizeof err) != 0) report_fail(r, "%s", err);
    r->dirty |= r->junit != NULL;
    free(s);
    checkpoint(r, 0);
}

void gh_report_summary(gh_report *r)
{
    if (r) gh_table_summary(r->table);
}
