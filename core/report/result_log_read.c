/* The record log read back; see result_log_read.h. */
#define _POSIX_C_SOURCE 200809L
#include "result_log_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* The document's list a record kind goes to. */
static const char *list_of(const char *kind)
{
    static const char *const kinds[][2] = {{"plugin", "plugins"},      {"device", "devices"}, {"result", "results"},
                                           {"agreement", "agreement"}, {"split", "splits"},   {"note", "notes"}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(kind, kinds[i][0]) == 0) return kinds[i][1];
    return NULL;
}

static json_t *new_doc(void)
{
    json_t *doc = json_object();
    json_object_set_new(doc, "complete", json_false());
    json_object_set_new(doc, "cancelled", json_false());
    static const char *const lists[] = {"plugins", "devices", "results", "agreement", "splits", "notes"};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) json_object_set_new(doc, lists[i], json_array());
    return doc;
}

/* One record into the document. Returns NULL, or why the record is not one. */
static const char *add_record(json_t *doc, json_t *rec, size_t line_no)
{
    const char *kind = json_string_value(json_object_get(rec, "record"));
    json_t *value = json_object_get(rec, "value");
    if (!json_is_object(rec) || !kind || !value) return "not a record (no \"record\" and \"value\")";
    if (line_no == 1) {
        if (strcmp(kind, "head") != 0 || !json_is_object(value)) return "the first line is not the run's head";
        json_object_update(doc, value);
        json_t *start = json_object_get(value, "start");
        json_object_set_new(doc, "time", json_pack("{s:O?,s:n,s:n}", "start", start, "end", "updated"));
        json_object_del(doc, "start");
        return NULL;
    }
    if (strcmp(kind, "end") == 0) {
        json_object_set(doc, "complete", json_object_get(value, "complete"));
        json_object_set(doc, "cancelled", json_object_get(value, "cancelled"));
        json_object_set(json_object_get(doc, "time"), "end", json_object_get(value, "end"));
        return NULL;
    }
    const char *list = list_of(kind);
    if (!list) return "an unknown record kind";
    json_array_append(json_object_get(doc, list), value);
    return NULL;
}

int gh_result_log_load(const char *path, json_t **doc, char *err, size_t err_size)
{
    *doc = NULL;
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, err_size, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    json_t *d = new_doc();
    char *line = NULL;
    size_t cap = 0, line_no = 0;
    ssize_t len;
    int rc = 0;
    errno = 0;
    while ((len = getline(&line, &cap, f)) > 0) {
        line_no++;
        if (line[len - 1] != '\n') break; /* the last line, cut by a kill: left out */
        json_error_t jerr;
        json_t *rec = json_loadb(line, (size_t)len, 0, &jerr);
        const char *why = rec ? add_record(d, rec, line_no) : jerr.text;
        json_decref(rec);
        if (why) {
            snprintf(err, err_size, "%s:%zu: %s", path, line_no, why);
            rc = -1;
            break;
        }
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, err_size, "cannot read %s: %s", path, strerror(errno));
        rc = -1;
    }
    if (rc == 0 && !json_object_get(d, "time")) {
        snprintf(err, err_size, "%s has no whole first line (the run's head)", path);
        rc = -1;
    }
    free(line);
    fclose(f);
    if (rc != 0) json_decref(d);
    else *doc = d;
    return rc;
}

int gh_result_log_same_run(const json_t *json_doc, const json_t *log_doc)
{
    const json_t *a = json_object_get(json_object_get(json_doc, "time"), "start");
    const json_t *b = json_object_get(json_object_get(log_doc, "time"), "start");
    const json_t *x = json_object_get(json_doc, "experiment"), *y = json_object_get(log_doc, "experiment");
    return a && b && json_equal(a, b) && ((!x && !y) || (x && y && json_equal(x, y)));
}
