/* A results file read back for compare; see results_file.h. */
#define _POSIX_C_SOURCE 200809L
#include "results_file.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fingerprint_json.h"
#include "util.h"

static const char *str_of(const json_t *o, const char *name)
{
    return json_string_value(json_object_get(o, name));
}

static int is_int(const json_t *o, const char *name)
{
    return json_is_integer(json_object_get(o, name));
}

static double num_of(const json_t *o, const char *name)
{
    const json_t *v = json_object_get(o, name);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static int failed(gh_results_file *f, char *err, size_t err_size, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int failed(gh_results_file *f, char *err, size_t err_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
    gh_results_file_free(f);
    return -1;
}

/* The major number of a "MAJOR.MINOR.PATCH" version, -1 when it has none. */
static long major_of(const char *version)
{
    char *end;
    errno = 0;
    long major = version ? strtol(version, &end, 10) : -1;
    return version && end != version && errno == 0 ? major : -1;
}

static int parse_result(const json_t *o, gh_rf_result *r)
{
    static const char *const required[] = {"backend", "kernel", "dtype", "trans", "status"};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!str_of(o, required[i])) return -1;
    if (!is_int(o, "case_index") || !is_int(o, "m") || !is_int(o, "n") || !is_int(o, "k")) return -1;
    *r = (gh_rf_result){
        .backend = str_of(o, "backend"),
        .plugin = str_of(o, "plugin") ? str_of(o, "plugin") : str_of(o, "backend"),
        .device_name = str_of(o, "device_name") ? str_of(o, "device_name") : "",
        .kernel = str_of(o, "kernel"),
        .params = str_of(o, "params") ? str_of(o, "params") : "",
        .dtype = str_of(o, "dtype"),
        .trans = str_of(o, "trans"),
        .status = str_of(o, "status"),
        .output_hash = str_of(o, "output_hash"),
        .detail = str_of(o, "detail") ? str_of(o, "detail") : "",
        .case_index = (int)json_integer_value(json_object_get(o, "case_index")),
        .device_index = is_int(o, "device_index") ? (int)json_integer_value(json_object_get(o, "device_index")) : -1,
        .rank = is_int(o, "rank") ? (int)json_integer_value(json_object_get(o, "rank")) : -1,
        .rank_host = str_of(o, "host") ? str_of(o, "host") : "",
        .m = json_integer_value(json_object_get(o, "m")),
        .n = json_integer_value(json_object_get(o, "n")),
        .k = json_integer_value(json_object_get(o, "k")),
        .alpha = num_of(o, "alpha"),
        .beta = num_of(o, "beta"),
        .ms_min = num_of(o, "kernel_ms_min"),
        .ms_median = num_of(o, "kernel_ms_median"),
        .ms_max = num_of(o, "kernel_ms_max"),
        .b_dtype = str_of(o, "b_dtype") ? str_of(o, "b_dtype") : str_of(o, "dtype"),
        .c_dtype = str_of(o, "c_dtype") ? str_of(o, "c_dtype") : str_of(o, "dtype"),
        .scale_a = json_is_number(json_object_get(o, "scale_a")) ? num_of(o, "scale_a") : 1.0,
        .scale_b = json_is_number(json_object_get(o, "scale_b")) ? num_of(o, "scale_b") : 1.0,
        .scale_c = json_is_number(json_object_get(o, "scale_c")) ? num_of(o, "scale_c") : 1.0,
    };
    if (r->output_hash && !*r->output_hash) r->output_hash = NULL;
    return 0;
}

/* The result's output fingerprint (fingerprint_json.h), when it has one. */
static int read_fingerprint(const json_t *o, gh_rf_result *r, char *why, size_t why_size)
{
    gh_fingerprint *fp = gh_xcalloc(1, sizeof *fp);
    int rc = gh_fingerprint_from_json(o, fp, why, why_size);
    if (rc == 0 && fp->n > 0) r->fingerprint = fp;
    else free(fp);
    return rc;
}

static void parse_devices(gh_results_file *f, const json_t *devices)
{
    f->devices = gh_xcalloc(json_array_size(devices) + 1, sizeof *f->devices);
    for (size_t i = 0; i < json_array_size(devices); i++) {
        const json_t *d = json_array_get(devices, i);
        if (!str_of(d, "backend") || !is_int(d, "device_index")) continue; /* nothing to match it by */
        f->devices[f->n_devices++] = (gh_rf_device){
            .backend = str_of(d, "backend"),
            .name = str_of(d, "name"),
            .vendor = str_of(d, "vendor"),
            .driver_version = str_of(d, "driver_version"),
            .api = str_of(d, "api"),
            .index = (int)json_integer_value(json_object_get(d, "device_index")),
            .rank = is_int(d, "rank") ? (int)json_integer_value(json_object_get(d, "rank")) : -1,
        };
    }
}

/* The document, with a message that tells an empty, a truncated and a
 * non-JSON file apart. */
static json_t *read_doc(const char *path, char *err, size_t err_size)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, err_size, "%s: cannot read it: %s", path, strerror(errno));
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, err_size, "%s: is a folder, not a results file (give PREFIX.json)", path);
        return NULL;
    }
    if (st.st_size == 0) {
        snprintf(err, err_size, "%s: is empty (a run that wrote nothing, or a copy cut short)", path);
        return NULL;
    }
    json_error_t jerr;
    json_t *doc = json_load_file(path, 0, &jerr);
    if (doc) return doc;
    if (jerr.position >= st.st_size || strstr(jerr.text, "end of file") || strstr(jerr.text, "premature"))
        snprintf(err, err_size,
                 "%s: is truncated: the JSON ends early (line %d: %s); was it copied while a run wrote it?", path,
                 jerr.line, jerr.text);
    else snprintf(err, err_size, "%s: is not JSON: line %d, column %d: %s", path, jerr.line, jerr.column, jerr.text);
    return NULL;
}

int gh_results_file_load(const char *path, gh_results_file *f, char *err, size_t err_size)
{
    memset(f, 0, sizeof *f);
    f->path = gh_strdup(path);
    f->doc = read_doc(path, err, err_size);
    if (!f->doc) {
        gh_results_file_free(f);
        return -1;
    }
    const json_t *gh = json_object_get(f->doc, "gemmhost"), *results = json_object_get(f->doc, "results");
    if (!json_is_object(f->doc) || !json_is_object(gh) || !str_of(gh, "version") || !json_is_array(results))
        return failed(f, err, err_size,
                      "%s: is JSON but not a gemmhost results file (no \"gemmhost\" version or \"results\" list)",
                      path);
    f->version = str_of(gh, "version");
    f->git_commit = str_of(gh, "git_commit") ? str_of(gh, "git_commit") : "";
    f->build_type = str_of(gh, "build_type") ? str_of(gh, "build_type") : "";
    f->host = str_of(f->doc, "host") ? str_of(f->doc, "host") : "";
    if (major_of(f->version) != major_of(GEMMHOST_VERSION))
        return failed(f, err, err_size,
                      "%s: was written by gemmhost %s, whose results format this gemmhost %s does not read (another "
                      "major version)",
                      path, f->version, GEMMHOST_VERSION);
    f->settings = json_object_get(f->doc, "settings");
    if (!json_is_object(f->settings))
        return failed(f, err, err_size,
                      "%s: is of an older results format (gemmhost %s, no \"settings\"): its seed cannot be checked, "
                      "so its outputs cannot be compared; run it again with this gemmhost",
                      path, f->version);
    f->complete = json_is_true(json_object_get(f->doc, "complete"));
    /* A fleet's file has "fleet": {"size", "ranks"}; a rank's own file has {"rank", "size", ...}: one run's results */
    const json_t *fleet = json_object_get(f->doc, "fleet");
    if (json_is_array(json_object_get(fleet, "ranks")))
        f->fleet_size = (int)json_integer_value(json_object_get(fleet, "size"));
    f->cancelled = json_is_true(json_object_get(f->doc, "cancelled"));
    f->results = gh_xcalloc(json_array_size(results) + 1, sizeof *f->results);
    for (size_t i = 0; i < json_array_size(results); i++) {
        gh_rf_result *r = &f->results[f->n_results];
        if (parse_result(json_array_get(results, i), r) != 0)
            return failed(f, err, err_size,
                          "%s: result %zu lacks backend, kernel, dtype, trans, status, case_index or its shape", path,
                          i + 1);
        char why[256];
        if (read_fingerprint(json_array_get(results, i), r, why, sizeof why) != 0) {
            f->n_results++; /* freed with the others */
            return failed(f, err, err_size, "%s: result %zu (case %d, %s %s): %s", path, i + 1, r->case_index,
                          r->backend, r->kernel, why);
        }
        if (strcmp(r->status, "cancelled") != 0) f->n_results++; /* a cancelled one has nothing to compare */
        else free(r->fingerprint);
    }
    parse_devices(f, json_object_get(f->doc, "devices"));
    return 0;
}

void gh_results_file_free(gh_results_file *f)
{
    if (!f) return;
    free(f->path);
    for (size_t i = 0; f->results && i < f->n_results; i++) free(f->results[i].fingerprint);
    free(f->results);
    free(f->devices);
    json_decref(f->doc);
    memset(f, 0, sizeof *f);
}

void gh_rf_case_label(const gh_rf_result *r, char *out, size_t size)
{
    char types[160];
    if (strcmp(r->dtype, r->b_dtype) == 0 && strcmp(r->dtype, r->c_dtype) == 0)
        snprintf(types, sizeof types, "%s", r->dtype);
    else if (strcmp(r->dtype, r->b_dtype) == 0) snprintf(types, sizeof types, "%s->%s", r->dtype, r->c_dtype);
    else snprintf(types, sizeof types, "%s x %s->%s", r->dtype, r->b_dtype, r->c_dtype);
    if (r->scale_a != 1.0 || r->scale_b != 1.0 || r->scale_c != 1.0)
        snprintf(types + strlen(types), sizeof types - strlen(types), " scales %g,%g,%g", r->scale_a, r->scale_b,
                 r->scale_c);
    snprintf(out, size, "%s %s %lldx%lldx%lld alpha=%g beta=%g (case %d)", types, r->trans, (long long)r->m,
             (long long)r->n, (long long)r->k, r->alpha, r->beta, r->case_index);
}

void gh_rf_result_label(const gh_rf_result *r, char *out, size_t size)
{
    if (r->rank >= 0) {
        int n = snprintf(out, size, "r%d@%s ", r->rank, r->rank_host);
        if (n < 0 || (size_t)n >= size) return;
        out += n, size -= (size_t)n;
    }
    if (r->device_index >= 0)
        snprintf(out, size, "%s %d:%s %s%s%s", r->backend, r->device_index, r->device_name, r->kernel,
                 *r->params ? " " : "", r->params);
    else snprintf(out, size, "%s %s%s%s", r->backend, r->kernel, *r->params ? " " : "", r->params);
}
