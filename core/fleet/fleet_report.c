/* fleet_report.h: the rank reports put together, written and shown. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "fleet_report.h"
#include "replace_file.h"
#include "report.h"
#include "result_log_read.h"
#include "util.h"

char *gh_fleet_prefix(const char *prefix)
{
    size_t n = strlen(prefix);
    if (n && prefix[n - 1] == '/') return gh_strdupf("%s%s", prefix, GH_REPORT_DEFAULT_NAME);
    return gh_strdup(prefix);
}

char *gh_fleet_rank_prefix(const char *prefix, int rank)
{
    char *base = gh_fleet_prefix(prefix);
    char *out = gh_strdupf("%s.rank-%d", base, rank);
    free(base);
    return out;
}

static int status_rank(int s)
{
    if (s == 130 || s == 143) return 5;
    if (s == EXIT_USAGE) return 4;
    if (s == EXIT_VERIFY_FAILED) return 3;
    if (s == EXIT_NOT_RUN) return 2;
    return s == EXIT_PASS ? 0 : 1;
}

int gh_fleet_worse_status(int a, int b)
{
    return status_rank(b) > status_rank(a) ? b : a;
}

static size_t results_in(const json_t *doc)
{
    return json_array_size(json_object_get(doc, "results"));
}

/* The rank's results document: the JSON, or the log when the JSON is
 * behind it (rewritten only at checkpoints) or unreadable. NULL when
 * neither can be read. */
static json_t *load_rank_doc(const char *json_path, const char *log_path)
{
    json_error_t jerr;
    json_t *doc = json_path ? json_load_file(json_path, 0, &jerr) : NULL;
    json_t *log = NULL;
    char err[1024];
    if (log_path && gh_result_log_load(log_path, &log, err, sizeof err) != 0) log = NULL;
    if (log && (!doc || results_in(log) > results_in(doc) ||
                (!json_is_true(json_object_get(doc, "complete")) && json_is_true(json_object_get(log, "complete"))))) {
        json_decref(doc);
        return log;
    }
    json_decref(log);
    return doc;
}

char *gh_fleet_rank_report(int rank, const char *host, int local_rank, int size, int status, int idle, const char *why,
                           const char *json_path, const char *log_path)
{
    json_t *doc = idle || (!json_path && !log_path) ? NULL : load_rank_doc(json_path, log_path);
    json_t *r =
        json_pack("{s:i, s:s, s:i, s:i, s:i, s:b, s:s?, s:s?, s:o?}", "rank", rank, "host", host, "local_rank",
                  local_rank, "size", size, "status", status, "idle", idle, "why", why, "file", json_path, "doc", doc);
    char *text = r ? json_dumps(r, JSON_COMPACT) : NULL;
    json_decref(r);
    return text ? text : gh_strdupf("{\"rank\":%d,\"status\":%d,\"why\":\"out of memory\"}", rank, status);
}

/* Appends the members of a rank's list `key` to the fleet's, each with its
 * rank and host. */
static void append_list(json_t *fleet, const json_t *doc, const char *key, int rank, const char *host)
{
    json_t *into = json_object_get(fleet, key);
    size_t i;
    json_t *item;
    json_array_foreach(json_object_get(doc, key), i, item)
    {
        if (json_is_object(item)) {
            json_t *copy = json_deep_copy(item);
            json_object_set_new(copy, "rank", json_integer(rank));
            json_object_set_new(copy, "host", json_string(host));
            json_array_append_new(into, copy);
        } else if (json_is_string(item)) {
            json_array_append_new(into, json_sprintf("rank %d (%s): %s", rank, host, json_string_value(item)));
        }
    }
}

/* The status a rank's results give when it sent none (a file read back):
 * nothing run is 3, as the rank's own run would have said. */
static int status_of_results(const json_t *doc)
{
    int status = results_in(doc) ? EXIT_PASS : EXIT_NOT_RUN;
    size_t i;
    json_t *res;
    json_array_foreach(json_object_get(doc, "results"), i, res)
    {
        const char *s = json_string_value(json_object_get(res, "status"));
        if (s && (!strcmp(s, "fail") || !strcmp(s, "crashed") || !strcmp(s, "timeout"))) status = EXIT_VERIFY_FAILED;
    }
    return status;
}

static json_t *rank_entry(const json_t *rep, int rank, json_t *fleet, int *complete)
{
    const json_t *doc = json_object_get(rep, "doc");
    const char *host = json_string_value(json_object_get(rep, "host"));
    const json_t *fleet_head = json_object_get(doc, "fleet");
    if (!host) host = json_string_value(json_object_get(fleet_head, "host"));
    if (!host) host = json_string_value(json_object_get(doc, "host"));
    if (!host) host = "?";
    json_t *status = json_object_get(rep, "status");
    int done = json_is_true(json_object_get(doc, "complete"));
    int idle = json_is_true(json_object_get(rep, "idle"));
    json_t *e = json_pack("{s:i, s:s, s:O?, s:b, s:b, s:b, s:I, s:O?, s:O?}", "rank", rank, "host", host, "local_rank",
                          json_object_get(rep, "local_rank") ? json_object_get(rep, "local_rank")
                                                             : json_object_get(fleet_head, "local_rank"),
                          "missing", 0, "idle", idle, "complete", idle || done, "results", (json_int_t)results_in(doc),
                          "file", json_object_get(rep, "file"), "why", json_object_get(rep, "why"));
    int st = json_is_integer(status) ? (int)json_integer_value(status)
             : !doc                  ? EXIT_VERIFY_FAILED
                                     : gh_fleet_worse_status(status_of_results(doc), done ? 0 : EXIT_VERIFY_FAILED);
    json_object_set_new(e, "status", json_integer(st));
    if (!idle && !done) *complete = 0;
    if (doc) {
        append_list(fleet, doc, "plugins", rank, host);
        append_list(fleet, doc, "devices", rank, host);
        append_list(fleet, doc, "results", rank, host);
        append_list(fleet, doc, "splits", rank, host);
        append_list(fleet, doc, "notes", rank, host);
    }
    return e;
}

json_t *gh_fleet_merge(json_t **reports, int size)
{
    json_t *fleet = json_object();
    const json_t *first = NULL;
    for (int r = 0; r < size && !first; r++)
        if (reports[r] && json_object_get(reports[r], "doc")) first = json_object_get(reports[r], "doc");
    /* The head (version, experiment, config, settings) of the first rank with a document. */
    const char *key;
    json_t *value;
    static const char *const lists[] = {"plugins", "devices", "results", "agreement", "splits", "notes", "fleet"};
    json_object_foreach((json_t *)first, key, value)
    {
        int is_list = 0;
        for (size_t i = 0; i < sizeof lists / sizeof *lists; i++) is_list |= strcmp(key, lists[i]) == 0;
        if (!is_list) json_object_set(fleet, key, value);
    }
    for (size_t i = 0; i < sizeof lists / sizeof *lists - 1; i++) json_object_set_new(fleet, lists[i], json_array());
    json_t *ranks = json_array();
    int complete = 1;
    for (int r = 0; r < size; r++) {
        if (reports[r]) {
            json_array_append_new(ranks, rank_entry(reports[r], r, fleet, &complete));
            continue;
        }
        complete = 0;
        json_array_append_new(ranks, json_pack("{s:i, s:s, s:b, s:b, s:i, s:s}", "rank", r, "host", "?", "missing", 1,
                                               "complete", 0, "status", EXIT_VERIFY_FAILED, "why",
                                               "no report and no results file from this rank (it died or never "
                                               "started)"));
    }
    json_object_set_new(fleet, "complete", json_boolean(complete));
    json_object_set_new(fleet, "fleet", json_pack("{s:i, s:o}", "size", size, "ranks", ranks));
    for (int r = 0; r < size; r++) json_decref(reports[r]);
    gh_fleet_agreement(fleet);
    return fleet;
}

int gh_fleet_file_check(const char *path, const char *experiment, int overwrite, char *err, size_t err_size)
{
    struct stat st;
    if (lstat(path, &st) != 0) return 0; /* nothing there yet */
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, err_size, "%s is not a regular file: the fleet's results cannot go there; it is left alone",
                 path);
        return -1;
    }
    if (overwrite) return 0;
    json_error_t jerr;
    json_t *doc = json_load_file(path, 0, &jerr);
    const char *there = json_string_value(json_object_get(doc, "experiment"));
    int same = doc && json_object_get(doc, "fleet") && there && experiment && strcmp(there, experiment) == 0;
    if (!same)
        snprintf(err, err_size,
                 "%s holds %s, which this fleet run would replace: --overwrite replaces it, --output OTHER keeps it",
                 path,
                 !doc                             ? "something that is not a results file"
                 : !json_object_get(doc, "fleet") ? "the results of a run without MPI"
                                                  : "the fleet results of another experiment");
    json_decref(doc);
    return same ? 0 : -1;
}

int gh_fleet_write(const json_t *fleet, const char *path, char *err, size_t err_size)
{
    char *text = json_dumps(fleet, JSON_INDENT(1));
    if (!text) {
        snprintf(err, err_size, "%s: out of memory rendering the fleet report", path);
        return -1;
    }
    size_t n = strlen(text);
    text = gh_xrealloc(text, n + 2);
    memcpy(text + n, "\n", 2);
    int rc = gh_replace_file(path, text, n + 1, err, err_size);
    free(text);
    return rc;
}
