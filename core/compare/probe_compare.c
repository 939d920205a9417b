/* Probe files side by side; see probe_compare.h. A row is one property of
 * one backend (or plugin), kernel variant, device and dtype; its cell per
 * file is the finding's verdict with its bits and period, which is what a
 * driver or compiler change moves (the text and evidence follow from
 * them). */
#include "probe_compare.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

enum { PC_SAME = 0, PC_DIFFER = 1, PC_USAGE = 2 };

int gh_is_probe_file(const char *path)
{
    json_t *doc = json_load_file(path, 0, NULL);
    const int yes = json_is_object(doc) && json_object_get(doc, "gemmhost_probe") != NULL;
    json_decref(doc);
    return yes;
}

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

/* What a finding says, in one cell: "nearest, 23 bits", "every 4". */
static char *cell_of(const json_t *f)
{
    const json_t *bits = json_object_get(f, "bits"), *every = json_object_get(f, "every");
    char b[32] = "", e[32] = "";
    if (json_is_integer(bits)) snprintf(b, sizeof b, ", %d bits", (int)json_integer_value(bits));
    if (json_is_integer(every)) snprintf(e, sizeof e, ", every %d", (int)json_integer_value(every));
    return gh_strdupf("%s%s%s", str(f, "verdict"), b, e);
}

typedef struct pc_state {
    size_t n;
    const gh_probe_compare_options *o;
    json_t *rows;    /* [{backend, plugin, kernel, params, device, dtype, property, values: [cell | null]}] */
    json_t *index;   /* row key -> its position in rows */
    json_t *drivers; /* backend and device -> ["driver; api" | null per file] */
} pc_state;

static json_t *nulls(size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) json_array_append_new(a, json_null());
    return a;
}

static void add_subject(pc_state *st, size_t file, const json_t *s)
{
    const char *who = st->o->by_plugin ? str(s, "plugin") : str(s, "backend");
    char device[64];
    if (st->o->ignore_device_names)
        snprintf(device, sizeof device, "%d", (int)json_integer_value(json_object_get(s, "device_index")));
    char *dev_key = gh_strdupf("%s\x1f%s", who, st->o->ignore_device_names ? device : str(s, "device"));
    json_t *drv = json_object_get(st->drivers, dev_key);
    if (!drv) json_object_set_new(st->drivers, dev_key, drv = nulls(st->n));
    char *d = gh_strdupf("plugin %s, device %s, driver %s, %s", str(s, "plugin"), str(s, "device"), str(s, "driver"),
                         str(s, "api"));
    json_array_set_new(drv, file, json_string(d));
    free(d);
    const json_t *findings = json_object_get(s, "findings");
    for (size_t i = 0; i < json_array_size(findings); i++) {
        const json_t *f = json_array_get(findings, i);
        char *key = gh_strdupf("%s\x1f%s\x1f%s\x1f%s\x1f%s", dev_key, str(s, "kernel"), str(s, "params"),
                               str(s, "dtype"), str(f, "property"));
        json_t *at = json_object_get(st->index, key), *row;
        if (at) row = json_array_get(st->rows, (size_t)json_integer_value(at));
        else {
            row = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:o}", "backend", str(s, "backend"), "plugin",
                            str(s, "plugin"), "kernel", str(s, "kernel"), "params", str(s, "params"), "device",
                            st->o->ignore_device_names ? device : str(s, "device"), "dtype", str(s, "dtype"),
                            "property", str(f, "property"), "values", nulls(st->n));
            json_object_set_new(st->index, key, json_integer((json_int_t)json_array_size(st->rows)));
            json_array_append_new(st->rows, row);
        }
        char *cell = cell_of(f);
        json_array_set_new(json_object_get(row, "values"), file, json_string(cell));
        free(cell);
        free(key);
    }
    free(dev_key);
}

/* Loads file `file` into the rows; 0, or -1 with a message. */
static int add_file(pc_state *st, size_t file, const char *path, json_t *files)
{
    json_error_t e;
    json_t *doc = json_load_file(path, 0, &e);
    if (!doc) {
        fprintf(stderr, "gemmhost compare: %s:%d: not readable as JSON: %s\n", path, e.line, e.text);
        return -1;
    }
    const json_t *subjects = json_object_get(doc, "subjects");
    if (!json_is_object(doc) || !json_object_get(doc, "gemmhost_probe") || !json_is_array(subjects)) {
        fprintf(stderr,
                "gemmhost compare: %s is not a gemmhost probe file (no \"gemmhost_probe\" and \"subjects\"): probes "
                "compare with probes only, results files with results files\n",
                path);
        json_decref(doc);
        return -1;
    }
    json_array_append_new(files,
                          json_pack("{s:s, s:s, s:s}", "label", "", "path", path, "version", str(doc, "version")));
    for (size_t i = 0; i < json_array_size(subjects); i++) add_subject(st, file, json_array_get(subjects, i));
    json_decref(doc);
    return 0;
}

/* 1 when two or more files have the row and they do not all agree; *common
 * counts the rows that two or more files have. */
static int row_differs(const json_t *row, size_t *common)
{
    const json_t *v = json_object_get(row, "values");
    const char *first = NULL;
    int differs = 0, seen = 0;
    for (size_t f = 0; f < json_array_size(v); f++) {
        const char *s = json_string_value(json_array_get(v, f));
        if (!s) continue;
        seen++;
        if (!first) first = s;
        else if (strcmp(s, first) != 0) differs = 1;
    }
    if (seen >= 2) (*common)++;
    return differs;
}

static void label(char *out, size_t size, size_t f)
{
    if (f < 26) snprintf(out, size, "%c", (char)('A' + f));
    else snprintf(out, size, "F%zu", f + 1);
}

static void print_text(const pc_state *st, const json_t *files, size_t differ, size_t common)
{
    printf("gemmhost compare: probes\n");
    for (size_t f = 0; f < st->n; f++) {
        const json_t *file = json_array_get(files, f);
        printf("  %s  %s (gemmhost %s)\n", str(file, "label"), str(file, "path"), str(file, "version"));
    }
    /* the devices whose driver or API differ: the likely cause of what follows */
    const char *key;
    json_t *drv;
    int header = 0;
    json_object_foreach(st->drivers, key, drv)
    {
        const char *first = NULL;
        int differs = 0;
        for (size_t f = 0; f < st->n; f++) {
            const char *s = json_string_value(json_array_get(drv, f));
            if (s && !first) first = s;
            else if (s && strcmp(s, first) != 0) differs = 1;
        }
        if (!differs) continue;
        if (!header++) printf("\nDevices, drivers and APIs that differ:\n");
        printf("  %.*s\n", (int)strcspn(key, "\x1f"), key);
        for (size_t f = 0; f < st->n; f++) {
            const char *s = json_string_value(json_array_get(drv, f));
            printf("    %s  %s\n", str(json_array_get(files, f), "label"), s ? s : "(not probed)");
        }
    }
    char group[1024] = "";
    for (size_t r = 0; r < json_array_size(st->rows); r++) {
        const json_t *row = json_array_get(st->rows, r);
        char here[1024];
        snprintf(here, sizeof here, "%s %s kernel %s%s%s, %s",
                 st->o->by_plugin ? str(row, "plugin") : str(row, "backend"), str(row, "device"), str(row, "kernel"),
                 *str(row, "params") ? " " : "", str(row, "params"), str(row, "dtype"));
        if (strcmp(here, group) != 0) {
            printf("\n%s\n", here);
            snprintf(group, sizeof group, "%s", here);
        }
        const json_t *v = json_object_get(row, "values");
        const int differs = json_is_true(json_object_get(row, "differs"));
        printf("  %-18s", str(row, "property"));
        for (size_t f = 0; f < st->n; f++) {
            const char *s = json_string_value(json_array_get(v, f));
            const int last = f + 1 == st->n && !differs; /* no trailing blanks */
            printf(" %s: %-*s", str(json_array_get(files, f), "label"), last ? 0 : 24, s ? s : "-");
        }
        printf("%s\n", differs ? " DIFFERS" : "");
    }
    printf("\n%zu findings in common, %zu differ\n", common, differ);
}

int gh_probe_compare(const char *const *paths, size_t n, const gh_probe_compare_options *o)
{
    pc_state st = {n, o, json_array(), json_object(), json_object()};
    json_t *files = json_array();
    int status = PC_SAME;
    for (size_t f = 0; f < n && status == PC_SAME; f++)
        if (add_file(&st, f, paths[f], files) != 0) status = PC_USAGE;
    for (size_t f = 0; f < json_array_size(files); f++) {
        char l[24];
        label(l, sizeof l, f);
        json_object_set_new(json_array_get(files, f), "label", json_string(l));
    }
    size_t differ = 0, common = 0;
    for (size_t r = 0; status == PC_SAME && r < json_array_size(st.rows); r++) {
        json_t *row = json_array_get(st.rows, r);
        const int d = row_differs(row, &common);
        json_object_set_new(row, "differs", json_boolean(d));
        differ += d;
    }
    if (status == PC_SAME && common == 0) {
        fprintf(stderr,
                "gemmhost compare: the probe files have no finding in common (backend%s, kernel, device, dtype and "
                "property): compare probes of the same config, or try --by-plugin or --ignore-device-names\n",
                o->by_plugin ? " by plugin" : "");
        status = PC_USAGE;
    }
    if (status == PC_SAME) {
        status = differ ? PC_DIFFER : PC_SAME;
        if (o->json) {
            json_t *doc =
                json_pack("{s:s, s:O, s:O, s:I, s:I, s:i}", "compare", "probes", "files", files, "rows", st.rows,
                          "in_common", (json_int_t)common, "differ", (json_int_t)differ, "exit_status", status);
            if (json_dumpf(doc, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER) != 0) {
                fprintf(stderr, "gemmhost compare: cannot write the JSON to stdout\n");
                status = PC_USAGE;
            }
            fputc('\n', stdout);
            json_decref(doc);
        } else print_text(&st, files, differ, common);
    }
    json_decref(files);
    json_decref(st.rows);
    json_decref(st.index);
    json_decref(st.drivers);
    return status;
}
