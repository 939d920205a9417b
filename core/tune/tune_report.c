/* See tune_report.h. Rows are kept whole (their strings owned here) and
 * rendered through encode.c's field lists, so the CSV columns and the JSON
 * keys are the same list. */
#define _POSIX_C_SOURCE 200809L
#include "tune_report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "data.h"
#include "encode.h"
#include "replace_file.h"
#include "util.h"

typedef struct who_copy {
    char *backend, *plugin, *device_name, *driver_version, *kernel;
    int device_index;
    gh_dtype dtype;
    char trans[3];
} who_copy;

typedef struct row_copy {
    size_t search; /* index into searches */
    size_t candidate;
    char *params, *status, *detail;
    gh_size_class size_class;
    int64_t m, n, k;
    double kernel_ms, gflops;
    int from_cache;
} row_copy;

typedef struct winner_copy {
    size_t search;
    gh_size_class size_class;
    size_t candidate;
    char *params, *default_params, *sizes;
    double gflops, default_gflops;
} winner_copy;

struct gh_tune_report {
    char *csv, *json, *files, *cache_path;
    char start[32];
    who_copy *searches;
    size_t n_searches;
    row_copy *rows;
    size_t n_rows;
    winner_copy *winners;
    size_t n_winners;
    gh_strlist notes;
};

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

gh_tune_report *gh_tune_report_open(const char *prefix, int overwrite, const char *cache_path, char *err,
                                    size_t err_size)
{
    gh_tune_report *r = gh_xcalloc(1, sizeof *r);
    r->cache_path = gh_strdup(cache_path ? cache_path : "");
    gh_iso_time_now(r->start);
    if (!prefix || !*prefix) return r;
    r->csv = gh_strdupf("%s-tune.csv", prefix);
    r->json = gh_strdupf("%s-tune.json", prefix);
    r->files = gh_strdupf("%s and %s", r->csv, r->json);
    const char *there = exists(r->csv) ? r->csv : exists(r->json) ? r->json : NULL;
    if (there && !overwrite) {
        snprintf(err, err_size,
                 "%s exists and may hold an earlier tuning run's results; --overwrite replaces it (or give "
                 "another --output)",
                 there);
        gh_tune_report_close(r, 1, NULL, 0);
        return NULL;
    }
    if (gh_make_parent_folders(r->csv, err, err_size) != 0 || gh_tune_report_write(r, err, err_size) != 0) {
        gh_tune_report_close(r, 1, NULL, 0);
        return NULL;
    }
    return r;
}

const char *gh_tune_report_files(const gh_tune_report *r)
{
    return r->files;
}

static int same_who(const who_copy *w, const gh_tune_who *who)
{
    return strcmp(w->backend, who->backend) == 0 && w->device_index == who->device_index &&
           strcmp(w->kernel, who->kernel) == 0 && w->dtype == who->dtype;
}

/* The search's index, added on first sight. */
static size_t search_of(gh_tune_report *r, const gh_tune_who *who)
{
    for (size_t i = 0; i < r->n_searches; i++)
        if (same_who(&r->searches[i], who)) return i;
    r->searches = gh_xrealloc(r->searches, (r->n_searches + 1) * sizeof *r->searches);
    who_copy *w = &r->searches[r->n_searches];
    *w = (who_copy){gh_strdup(who->backend),
                    gh_strdup(who->plugin),
                    gh_strdup(who->device_name),
                    gh_strdup(who->driver_version ? who->driver_version : ""),
                    gh_strdup(who->kernel),
                    who->device_index,
                    who->dtype,
                    {0}};
    gh_trans_name(w->trans, who->trans_a, who->trans_b);
    return r->n_searches++;
}

void gh_tune_report_row(gh_tune_report *r, const gh_tune_who *who, const gh_tune_row *row)
{
    size_t s = search_of(r, who);
    r->rows = gh_xrealloc(r->rows, (r->n_rows + 1) * sizeof *r->rows);
    r->rows[r->n_rows++] = (row_copy){s,
                                      row->candidate,
                                      gh_strdup(row->params),
                                      gh_strdup(row->status),
                                      gh_strdup(row->detail ? row->detail : ""),
                                      row->size_class,
                                      row->m,
                                      row->n,
                                      row->k,
                                      row->kernel_ms,
                                      row->gflops,
                                      row->from_cache};
}

static void free_winner(winner_copy *w)
{
    free(w->params);
    free(w->default_params);
    free(w->sizes);
}

void gh_tune_report_winner(gh_tune_report *r, const gh_tune_who *who, const gh_tune_winner *w)
{
    size_t s = search_of(r, who);
    winner_copy *slot = NULL;
    for (size_t i = 0; i < r->n_winners && !slot; i++)
        if (r->winners[i].search == s && r->winners[i].size_class == w->size_class) slot = &r->winners[i];
    if (slot) {
        free_winner(slot);
    } else {
        r->winners = gh_xrealloc(r->winners, (r->n_winners + 1) * sizeof *r->winners);
        slot = &r->winners[r->n_winners++];
    }
    *slot = (winner_copy){s,
                          w->size_class,
                          w->candidate,
                          gh_strdup(w->params),
                          gh_strdup(w->default_params ? w->default_params : ""),
                          gh_strdup(w->sizes ? w->sizes : ""),
                          w->gflops,
                          w->default_gflops};
}

void gh_tune_report_note(gh_tune_report *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = gh_vstrdupf(fmt, ap);
    va_end(ap);
    gh_sl_push(&r->notes, text);
}

static int is_winner(const gh_tune_report *r, const row_copy *row)
{
    for (size_t i = 0; i < r->n_winners; i++)
        if (r->winners[i].search == row->search && r->winners[i].size_class == row->size_class &&
            r->winners[i].candidate == row->candidate)
            return 1;
    return 0;
}

static void who_fields(gh_fieldset *fs, const who_copy *w)
{
    gh_fs_str(fs, "backend", w->backend);
    gh_fs_str(fs, "plugin", w->plugin);
    gh_fs_int(fs, "device_index", w->device_index);
    gh_fs_str(fs, "device_name", w->device_name);
    gh_fs_str(fs, "driver_version", w->driver_version);
    gh_fs_str(fs, "kernel", w->kernel);
    gh_fs_str(fs, "dtype", gh_dtype_name(w->dtype));
    gh_fs_str(fs, "trans", w->trans);
}

static void row_fields(gh_fieldset *fs, const gh_tune_report *r, const row_copy *row)
{
    const int ran = row->kernel_ms > 0;
    fs->n = 0;
    who_fields(fs, &r->searches[row->search]);
    gh_fs_int(fs, "candidate", (int64_t)row->candidate);
    gh_fs_str(fs, "params", row->params);
    gh_fs_str(fs, "size_class", gh_size_class_name(row->size_class));
    gh_fs_int(fs, "m", row->m);
    gh_fs_int(fs, "n", row->n);
    gh_fs_int(fs, "k", row->k);
    gh_fs_str(fs, "status", row->status);
    gh_fs_num_if(fs, "kernel_ms", ran, row->kernel_ms, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "gflops", ran, row->gflops, GH_NUM_DIGITS);
    gh_fs_bool(fs, "from_cache", row->from_cache);
    gh_fs_bool(fs, "winner", is_winner(r, row));
    gh_fs_str(fs, "detail", row->detail);
}

static void winner_fields(gh_fieldset *fs, const gh_tune_report *r, const winner_copy *w)
{
    fs->n = 0;
    who_fields(fs, &r->searches[w->search]);
    gh_fs_str(fs, "size_class", gh_size_class_name(w->size_class));
    gh_fs_str(fs, "params", w->params);
    gh_fs_num(fs, "gflops", w->gflops);
    gh_fs_str(fs, "default_params", w->default_params);
    gh_fs_num_if(fs, "default_gflops", w->default_gflops > 0, w->default_gflops, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "speedup", w->default_gflops > 0, w->default_gflops > 0 ? w->gflops / w->default_gflops : 0,
                 GH_NUM_DIGITS);
    gh_fs_str(fs, "sizes", w->sizes);
}

static char *render_csv(const gh_tune_report *r)
{
    gh_sbuf b = {0};
    gh_fieldset fs;
    row_copy header_row = {0};
    who_copy header_who = {"", "", "", "", "", 0, GH_F32, "nn"};
    const gh_tune_report header = {.searches = &header_who, .n_searches = 1};
    row_fields(&fs, &header, &header_row);
    char *line = gh_render_csv_header(&fs);
    gh_sb_puts(&b, line ? line : "");
    free(line);
    for (size_t i = 0; i < r->n_rows; i++) {
        row_fields(&fs, r, &r->rows[i]);
        line = gh_render_csv_row(&fs);
        gh_sb_puts(&b, line ? line : "");
        free(line);
    }
    return gh_sb_take(&b);
}

static char *render_json(const gh_tune_report *r, int complete, int cancelled)
{
    gh_sbuf b = {0};
    gh_fieldset fs;
    gh_sb_printf(&b, "{\n  \"format\": \"gemmhost tune report\",\n  \"complete\": %s,\n  \"cancelled\": %s,\n",
                 complete ? "true" : "false", cancelled ? "true" : "false");
    gh_sb_puts(&b, "  \"start\": ");
    gh_json_str(&b, r->start);
    gh_sb_puts(&b, ",\n  \"cache\": ");
    gh_json_str(&b, r->cache_path);
    gh_sb_puts(&b, ",\n  \"candidates\": [");
    for (size_t i = 0; i < r->n_rows; i++) {
        row_fields(&fs, r, &r->rows[i]);
        gh_sb_printf(&b, "%s\n    {", i ? "," : "");
        gh_render_json_members(&b, &fs);
        gh_sb_putc(&b, '}');
    }
    gh_sb_printf(&b, "%s],\n  \"winners\": [", r->n_rows ? "\n  " : "");
    for (size_t i = 0; i < r->n_winners; i++) {
        winner_fields(&fs, r, &r->winners[i]);
        gh_sb_printf(&b, "%s\n    {", i ? "," : "");
        gh_render_json_members(&b, &fs);
        gh_sb_putc(&b, '}');
    }
    gh_sb_printf(&b, "%s],\n  \"notes\": [", r->n_winners ? "\n  " : "");
    for (size_t i = 0; i < r->notes.n; i++) {
        gh_sb_printf(&b, "%s\n    ", i ? "," : "");
        gh_json_str(&b, r->notes.items[i]);
    }
    gh_sb_printf(&b, "%s]\n}\n", r->notes.n ? "\n  " : "");
    return gh_sb_take(&b);
}

static int write_files(gh_tune_report *r, int complete, int cancelled, char *err, size_t err_size)
{
    if (!r->csv) return 0;
    char *csv = render_csv(r), *json = render_json(r, complete, cancelled);
    int rc = -1;
    if (!csv || !json) snprintf(err, err_size, "cannot write %s: out of memory", r->files);
    else if (gh_replace_file(r->csv, csv, strlen(csv), err, err_size) == 0 &&
             gh_replace_file(r->json, json, strlen(json), err, err_size) == 0)
        rc = 0;
    free(csv);
    free(json);
    return rc;
}

int gh_tune_report_write(gh_tune_report *r, char *err, size_t err_size)
{
    return write_files(r, 0, 0, err, err_size);
}

int gh_tune_report_close(gh_tune_report *r, int cancelled, char *err, size_t err_size)
{
    if (!r) return 0;
    int rc = err ? write_files(r, !cancelled, cancelled, err, err_size) : 0;
    for (size_t i = 0; i < r->n_searches; i++) {
        who_copy *w = &r->searches[i];
        free(w->backend);
        free(w->plugin);
        free(w->device_name);
        free(w->driver_version);
        free(w->kernel);
    }
    for (size_t i = 0; i < r->n_rows; i++) {
        free(r->rows[i].params);
        free(r->rows[i].status);
        free(r->rows[i].detail);
    }
    for (size_t i = 0; i < r->n_winners; i++) free_winner(&r->winners[i]);
    free(r->searches);
    free(r->rows);
    free(r->winners);
    gh_sl_free(&r->notes);
    free(r->csv);
    free(r->json);
    free(r->files);
    free(r->cache_path);
    free(r);
    return rc;
}
