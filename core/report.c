/* Results as they arrive: a table on the terminal, CSV and JSON on disk.
 *
 * The CSV gets one line per result, flushed at once. The JSON is kept in
 * memory as pre-rendered fragments and rewritten whole after every change,
 * into a temp file renamed over the real one, so the file on disk is always
 * one complete document. One field list per result (encode.c) feeds both
 * formats, so their columns and keys cannot drift apart. The terminal table
 * is table.c's.
 *
 * Not thread-safe: call from one thread (the run loop). */
#include "report.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "encode.h"
#include "table.h"

#ifndef GEMMHOST_VERSION
#define GEMMHOST_VERSION "unknown"
#endif

static char *str_concat(const char *a, const char *b)
{
    gh_sbuf sb = {0};
    gh_sb_puts(&sb, a);
    gh_sb_puts(&sb, b);
    return gh_sb_take(&sb);
}

/* ------------------------------------------------------------------------ */
/* The report. */

struct gh_report {
    gh_table *table;             /* NULL: quiet */
    FILE *csv;                   /* NULL: no files */
    char *csv_path, *json_path, *json_tmp_path;
    char *head_json;             /* the members before the lists: version and config */
    gh_strlist plugins, devices, device_keys, results, agreement, splits, notes;
    int failed;
    char error[512];             /* the first write failure */
};

/* Keeps the first failure: it is usually the cause of the rest. */
static void report_fail(gh_report *r, const char *fmt, ...)
{
    if (r->failed) return;
    r->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->error, sizeof r->error, fmt, ap);
    va_end(ap);
}

static int write_json_list(FILE *f, const char *name, const gh_strlist *l, int last)
{
    fprintf(f, "  \"%s\": [", name);
    for (size_t i = 0; i < l->n; i++)
        fprintf(f, "%s\n    %s", i ? "," : "", l->items[i]);
    fprintf(f, "%s]%s\n", l->n ? "\n  " : "", last ? "" : ",");
    return ferror(f) ? -1 : 0;
}

static int write_json_doc(const gh_report *r, FILE *f)
{
    fprintf(f, "{\n%s", r->head_json);
    if (write_json_list(f, "plugins", &r->plugins, 0) || write_json_list(f, "devices", &r->devices, 0) ||
        write_json_list(f, "results", &r->results, 0) || write_json_list(f, "agreement", &r->agreement, 0) ||
        write_json_list(f, "splits", &r->splits, 0) || write_json_list(f, "notes", &r->notes, 1))
        return -1;
    fputs("}\n", f);
    return ferror(f) ? -1 : 0;
}

/* Writes the whole document beside the real file, then renames it over, so
 * a reader (or a killed run) never sees half a document. Writes err on failure. */
static int rewrite_json(const gh_report *r, char *err, size_t err_size)
{
    FILE *f = fopen(r->json_tmp_path, "w");
    if (!f) {
        snprintf(err, err_size, "cannot create %s: %s", r->json_tmp_path, strerror(errno));
        return -1;
    }
    int bad = write_json_doc(r, f);
    int saved = errno;
    if (fclose(f) != 0 && !bad) { bad = 1; saved = errno; }
    if (bad) {
        snprintf(err, err_size, "cannot write %s: %s", r->json_tmp_path, strerror(saved));
        remove(r->json_tmp_path);
        return -1;
    }
    if (rename(r->json_tmp_path, r->json_path) != 0) {
        snprintf(err, err_size, "cannot rename %s to %s: %s", r->json_tmp_path, r->json_path, strerror(errno));
        remove(r->json_tmp_path);
        return -1;
    }
    return 0;
}

static void update_json(gh_report *r)
{
    if (!r->json_path) return;
    char err[sizeof r->error];
    if (rewrite_json(r, err, sizeof err) != 0) report_fail(r, "%s", err);
}

/* Adds a rendered fragment (NULL: rendering ran out of memory) and rewrites. */
static void add_fragment(gh_report *r, gh_strlist *list, char *json)
{
    if (gh_sl_push(list, json) != 0) {
        report_fail(r, "cannot update %s: out of memory", r->json_path ? r->json_path : "the report");
        return;
    }
    update_json(r);
}

static void write_csv(gh_report *r, char *line)
{
    if (!r->csv) { free(line); return; }
    if (!line) { report_fail(r, "cannot write %s: out of memory", r->csv_path); return; }
    size_t n = strlen(line);
    /* Flushed per line: a killed run leaves only complete lines. */
    if (fwrite(line, 1, n, r->csv) != n || fflush(r->csv) != 0)
        report_fail(r, "cannot write %s: %s", r->csv_path, strerror(errno));
    free(line);
}

static void report_free(gh_report *r)
{
    gh_table_close(r->table);
    free(r->csv_path);
    free(r->json_path);
    free(r->json_tmp_path);
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

/* Creates both files: the CSV with its header, the JSON with empty lists. */
static int open_files(gh_report *r, const char *prefix, char *err, size_t err_size)
{
    r->csv_path = str_concat(prefix, ".csv");
    r->json_path = str_concat(prefix, ".json");
    r->json_tmp_path = str_concat(prefix, ".json.tmp");
    if (!r->csv_path || !r->json_path || !r->json_tmp_path) {
        snprintf(err, err_size, "cannot open report %s: out of memory", prefix);
        return -1;
    }
    r->csv = fopen(r->csv_path, "w");
    if (!r->csv) {
        snprintf(err, err_size, "cannot create %s: %s", r->csv_path, strerror(errno));
        return -1;
    }
    gh_result zero;
    memset(&zero, 0, sizeof zero);
    gh_fieldset fs;
    gh_fields_result(&fs, &zero);
    write_csv(r, gh_render_csv_header(&fs));
    if (r->failed) {
        snprintf(err, err_size, "%s", r->error);
        return -1;
    }
    return rewrite_json(r, err, err_size);
}

static char *render_head_json(const char *config_text)
{
    gh_sbuf b = {0};
    gh_sb_puts(&b, "  \"gemmhost\": {\"version\": ");
    gh_json_str(&b, GEMMHOST_VERSION);
    gh_sb_puts(&b, "},\n  \"config\": ");
    gh_json_str(&b, config_text);
    gh_sb_puts(&b, ",\n");
    return gh_sb_take(&b);
}

gh_report *gh_report_open(const char *prefix, const char *config_text, FILE *table,
                          char *err, size_t err_size)
{
    gh_report *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, err_size, "cannot open report: out of memory");
        return NULL;
    }
    if (table && !(r->table = gh_table_open(table))) {
        snprintf(err, err_size, "cannot open report: out of memory");
        report_free(r);
        return NULL;
    }
    r->head_json = render_head_json(config_text);
    if (!r->head_json) {
        snprintf(err, err_size, "cannot open report: out of memory");
        report_free(r);
        return NULL;
    }
    if (prefix && *prefix && open_files(r, prefix, err, err_size) != 0) {
        if (r->csv) {
            fclose(r->csv);
            remove(r->csv_path);   /* do not leave half a report behind */
        }
        report_free(r);
        return NULL;
    }
    return r;
}

/* ------------------------------------------------------------------------ */
/* Public calls. Each takes a NULL report as "no report". */

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
    if (k && gh_sl_contains(&r->device_keys, k)) { free(k); return; }   /* once per backend/device */
    if (gh_sl_push(&r->device_keys, k) != 0) {
        report_fail(r, "cannot update the report: out of memory");
        return;
    }
    gh_fieldset fs;
    gh_fields_device(&fs, backend, device_index, info);
    add_fragment(r, &r->devices, gh_render_json_object(&fs));
}

void gh_report_result(gh_report *r, const gh_result *res)
{
    if (!r || !res) return;
    if (r->table) gh_table_result(r->table, res);
    gh_fieldset fs;
    gh_fields_result(&fs, res);
    if (r->csv) write_csv(r, gh_render_csv_row(&fs));
    if (r->json_path) add_fragment(r, &r->results, gh_render_json_object(&fs));
}

void gh_report_split_members(gh_report *r, const gh_result *res, double wall_ms,
                             const gh_report_split_member *members, size_t n)
{
    if (!r || !res || (!members && n)) return;
    if (r->table) gh_table_split_members(r->table, members, n);
    if (r->json_path) add_fragment(r, &r->splits, gh_render_split_json(res, wall_ms, members, n));
}

void gh_report_agreement(gh_report *r, const gh_agreement *a)
{
    if (!r || !a) return;
    if (r->table) gh_table_agreement(r->table, a);
    if (r->json_path) add_fragment(r, &r->agreement, gh_render_agreement_json(a));
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
    if (!s) { report_fail(r, "cannot add a note: out of memory"); return; }
    if (r->table) gh_table_note(r->table, s);
    if (r->json_path) {
        gh_sbuf b = {0};
        gh_json_str(&b, s);
        add_fragment(r, &r->notes, gh_sb_take(&b));
    }
    free(s);
}

int gh_report_close(gh_report *r, char *err, size_t err_size)
{
    if (!r) return 0;
    if (r->csv && fclose(r->csv) != 0) report_fail(r, "cannot write %s: %s", r->csv_path, strerror(errno));
    r->csv = NULL;
    int rc = r->failed ? -1 : 0;
    if (rc) snprintf(err, err_size, "%s", r->error);
    report_free(r);
    return rc;
}
