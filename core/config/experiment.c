/* Experiment identity; see experiment.h. */
#define _POSIX_C_SOURCE 200809L
#include "experiment.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "result_log_read.h"
#include "util.h"

/* FNV-1a: no collision resistance needed, only a stable name for a config. */
static uint64_t fnv1a(uint64_t h, const char *s)
{
    for (size_t i = 0, n = strlen(s) + 1; i < n; i++) { /* the '\0' too: "ab","c" differs from "a","bc" */
        h ^= (unsigned char)s[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

char *gh_experiment_id(const char *config_text, const char *backends, const char *kernels, const char *devices)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    const char *parts[] = {"config", config_text, "backend", backends, "kernel", kernels, "device", devices};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) h = fnv1a(h, parts[i] ? parts[i] : "");
    return gh_strdupf("fnv1a64:%016" PRIx64, h);
}

void gh_earlier_run_free(gh_earlier_run *e)
{
    free(e->experiment);
    memset(e, 0, sizeof *e);
}

static int from_doc(const json_t *doc, gh_earlier_run *out)
{
    const json_t *results = json_object_get(doc, "results");
    if (!json_is_object(doc) || !json_is_array(results) || !json_is_object(json_object_get(doc, "gemmhost"))) return -1;
    const char *exp = json_string_value(json_object_get(doc, "experiment"));
    out->readable = 1;
    free(out->experiment);
    out->experiment = exp ? gh_strdup(exp) : NULL;
    out->complete = json_is_true(json_object_get(doc, "complete"));
    out->n_results = json_array_size(results);
    return 0;
}

static int exists(const char *path)
{
    struct stat st;
    return path && lstat(path, &st) == 0;
}

void gh_earlier_run_read(const char *json_path, const char *log_path, gh_earlier_run *out)
{
    memset(out, 0, sizeof *out);
    out->exists = exists(json_path) || exists(log_path);
    if (!out->exists) return;
    json_error_t jerr;
    json_t *doc = exists(json_path) ? json_load_file(json_path, 0, &jerr) : NULL;
    if (exists(json_path) && !doc)
        snprintf(out->why, sizeof out->why, "%s: line %d: %s", json_path, jerr.line, jerr.text);
    else if (doc && from_doc(doc, out) != 0)
        snprintf(out->why, sizeof out->why, "%s is not a gemmhost results file", json_path);
    if ((out->readable && out->complete) || !exists(log_path)) {
        if (!out->why[0] && !out->readable) snprintf(out->why, sizeof out->why, "%s is missing", json_path);
        json_decref(doc);
        return;
    }
    /* The JSON is behind (a checkpoint) or gone: the log of its run has every record. */
    char err[512];
    json_t *log = NULL;
    if (gh_result_log_load(log_path, &log, err, sizeof err) != 0) {
        if (!out->readable) snprintf(out->why, sizeof out->why, "%s", err);
    } else if (out->readable && !gh_result_log_same_run(doc, log)) {
        /* Not the JSON's run: the JSON says what is there. */
    } else if (from_doc(log, out) == 0) {
        out->why[0] = '\0';
    } else if (!out->readable) {
        snprintf(out->why, sizeof out->why, "%s is not a gemmhost record log", log_path);
    }
    json_decref(log);
    json_decref(doc);
}

int gh_junit_experiment(const char *path, char **experiment, int *complete)
{
    *experiment = NULL;
    *complete = 0;
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char head[4096]; /* the properties come first */
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = '\0';
    const char *key = "<property name=\"gemmhost.experiment\" value=\"";
    const char *at = strstr(head, key);
    if (!at) return -1;
    at += strlen(key);
    size_t len = strcspn(at, "\"");
    *experiment = gh_strdupf("%.*s", (int)len, at);
    *complete = strstr(head, "<property name=\"complete\" value=\"true\"/>") != NULL;
    return 0;
}
