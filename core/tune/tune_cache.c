/* The tuner's cache file; see tune_cache.h. The document is kept as a
 * jansson tree, checked whole when it is read (so every later access can
 * trust its shape) and dumped whole when it is written. An entry handle is
 * the entry's json_t. */
#define _POSIX_C_SOURCE 200809L
#include "tune_cache.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "data.h"
#include "encode.h"
#include "output_guard.h"
#include "replace_file.h"
#include "util.h"

#define FORMAT_NAME    "gemmhost tune cache"
#define FORMAT_VERSION 1

struct gh_tune_cache {
    char *path;
    json_t *doc;
    char *problem;  /* why the file on disk was unusable; NULL when fine */
    int not_a_file; /* it is a folder, device, FIFO...: never set aside */
};

static json_t *J(const gh_tune_entry *e)
{
    return (json_t *)e;
}

/* jansson takes valid UTF-8 only, and a device name or a worker's stderr
 * may not be: each invalid byte becomes '?'. The caller frees. */
static char *utf8_clean(const char *s)
{
    char *out = gh_strdup(s ? s : "");
    for (unsigned char *p = (unsigned char *)out; *p;) {
        size_t n = gh_utf8_seq_len(p);
        if (n == 0) *p++ = '?';
        else p += n;
    }
    return out;
}

/* A jansson constructor's result; NULL only when out of memory. */
static json_t *must(json_t *v)
{
    if (!v) {
        fputs("gemmhost: out of memory in the tune cache\n", stderr);
        abort();
    }
    return v;
}

char *gh_tune_cache_path(const char *configured)
{
    if (configured && *configured) return gh_strdup(configured);
    const char *env = getenv(GH_TUNE_CACHE_ENV);
    if (env && *env) return gh_strdup(env);
    const char *xdg = getenv("XDG_CACHE_HOME");
    if (xdg && *xdg == '/') return gh_strdupf("%s/gemmhost/tune.json", xdg); /* the spec ignores a relative one */
    const char *home = getenv("HOME");
    if (home && *home) return gh_strdupf("%s/.cache/gemmhost/tune.json", home);
    return NULL;
}

static json_t *empty_doc(void)
{
    return json_pack("{s:s, s:i, s:[]}", "format", FORMAT_NAME, "version", FORMAT_VERSION, "entries");
}

/* ---- checking a document read from disk ---- */

/* First shape error found: "entries[2].measurements[5].m is not an integer". */
typedef struct shape_check {
    char where[256];
    char *error;
} shape_check;

__attribute__((format(printf, 2, 3))) static int wrong(shape_check *sc, const char *fmt, ...)
{
    if (sc->error) return -1;
    va_list ap;
    va_start(ap, fmt);
    char *what = gh_vstrdupf(fmt, ap);
    va_end(ap);
    sc->error = gh_strdupf("%s%s%s", sc->where, *sc->where ? " " : "", what);
    free(what);
    return -1;
}

/* The member `key` of `obj` with a jansson type test; names it when wrong. */
static int has(shape_check *sc, const json_t *obj, const char *key, int (*is)(const json_t *), const char *what)
{
    const json_t *v = json_object_get(obj, key);
    if (v && is(v)) return 0;
    if (!v) return wrong(sc, "lacks \"%s\" (%s)", key, what);
    return wrong(sc, "has \"%s\" that is not %s", key, what);
}

static int is_string(const json_t *v)
{
    return json_is_string(v);
}
static int is_integer(const json_t *v)
{
    return json_is_integer(v);
}
static int is_number(const json_t *v)
{
    return json_is_number(v);
}
static int is_object(const json_t *v)
{
    return json_is_object(v);
}
static int is_array(const json_t *v)
{
    return json_is_array(v);
}

/* A parameter set: {"tile": 16, ...}, integers only. */
static int check_params(shape_check *sc, const json_t *obj)
{
    if (has(sc, obj, "params", is_object, "an object") != 0) return -1;
    const char *name;
    json_t *v;
    json_object_foreach((json_t *)json_object_get(obj, "params"), name, v)
    {
        if (!json_is_integer(v)) return wrong(sc, "has parameter \"%s\" that is not an integer", name);
    }
    return 0;
}

static int check_measurement(shape_check *sc, const json_t *m)
{
    if (!json_is_object(m)) return wrong(sc, "is not an object");
    if (check_params(sc, m) != 0 || has(sc, m, "trans", is_string, "a string") != 0 ||
        has(sc, m, "m", is_integer, "an integer") != 0 || has(sc, m, "n", is_integer, "an integer") != 0 ||
        has(sc, m, "k", is_integer, "an integer") != 0 || has(sc, m, "status", is_string, "a string") != 0 ||
        has(sc, m, "kernel_ms", is_number, "a number") != 0 || has(sc, m, "gflops", is_number, "a number") != 0 ||
        has(sc, m, "detail", is_string, "a string") != 0)
        return -1;
    return 0;
}

static int check_entry(shape_check *sc, const json_t *e, size_t index)
{
    snprintf(sc->where, sizeof sc->where, "entries[%zu]", index);
    if (!json_is_object(e)) return wrong(sc, "is not an object");
    static const char *const strings[] = {"plugin", "device", "driver_version", "kernel", "dtype"};
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++)
        if (has(sc, e, strings[i], is_string, "a string") != 0) return -1;
    if (has(sc, e, "params", is_array, "an array") != 0 || has(sc, e, "best", is_object, "an object") != 0 ||
        has(sc, e, "measurements", is_array, "an array") != 0)
        return -1;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(e, "params"), i, v)
    {
        if (!json_is_string(v)) return wrong(sc, "has params[%zu] that is not a string", i);
    }
    const char *cls;
    json_object_foreach(json_object_get(e, "best"), cls, v)
    {
        snprintf(sc->where, sizeof sc->where, "entries[%zu].best.%s", index, cls);
        if (!json_is_object(v)) return wrong(sc, "is not an object");
        if (check_params(sc, v) != 0 || has(sc, v, "gflops", is_number, "a number") != 0) return -1;
    }
    json_array_foreach(json_object_get(e, "measurements"), i, v)
    {
        snprintf(sc->where, sizeof sc->where, "entries[%zu].measurements[%zu]", index, i);
        if (check_measurement(sc, v) != 0) return -1;
    }
    return 0;
}

/* NULL when doc is a tune cache this gemmhost reads; else why not. */
static char *check_doc(const json_t *doc)
{
    shape_check sc = {.where = ""};
    const json_t *format = json_object_get(doc, "format"), *version = json_object_get(doc, "version");
    if (!json_is_object(doc)) wrong(&sc, "the document is not a JSON object");
    else if (!json_is_string(format) || strcmp(json_string_value(format), FORMAT_NAME) != 0)
        wrong(&sc, "\"format\" is not \"" FORMAT_NAME "\": not a gemmhost tune cache");
    else if (!json_is_integer(version) || json_integer_value(version) != FORMAT_VERSION)
        wrong(&sc, "\"version\" is not %d (written by another gemmhost version)", FORMAT_VERSION);
    else if (has(&sc, doc, "entries", is_array, "an array") == 0) {
        size_t i;
        json_t *e;
        json_array_foreach(json_object_get(doc, "entries"), i, e)
        {
            if (check_entry(&sc, e, i) != 0) break;
        }
    }
    return sc.error;
}

gh_tune_cache *gh_tune_cache_load(const char *path, FILE *warn)
{
    gh_tune_cache *c = gh_xcalloc(1, sizeof *c);
    c->path = gh_strdup(path);
    struct stat st = {0};
    int there = stat(path, &st) == 0;
    if (!there && (errno == ENOENT || errno == ENOTDIR)) { /* no file there (yet) */
        c->doc = empty_doc();
        return c;
    }
    json_error_t jerr;
    /* Only a regular file is opened: a FIFO would block, a device is not ours to read. */
    json_t *doc = !there || S_ISREG(st.st_mode) ? json_load_file(path, 0, &jerr) : NULL;
    if (there && !S_ISREG(st.st_mode)) {
        c->not_a_file = 1;
        c->problem = gh_strdupf("is %s, not a file", gh_file_kind_name(st.st_mode));
    } else if (!doc) {
        if (jerr.line > 0)
            c->problem = gh_strdupf("is not valid JSON: line %d, column %d: %s", jerr.line, jerr.column, jerr.text);
        else c->problem = gh_strdupf("cannot be read: %s", jerr.text);
    } else {
        char *why = check_doc(doc);
        if (why) c->problem = gh_strdupf("is not a tune cache: %s", why);
        free(why);
    }
    if (c->problem) {
        fprintf(warn ? warn : stderr, "gemmhost: warning: tune cache %s %s; ignored (%s%s%s)\n", path, c->problem,
                c->not_a_file ? "the tuner leaves it alone: set another tune_cache to tune"
                              : "the tuner sets it aside as ",
                c->not_a_file ? "" : path, c->not_a_file ? "" : ".bad");
        json_decref(doc);
        doc = empty_doc();
    }
    c->doc = doc;
    return c;
}

const char *gh_tune_cache_file(const gh_tune_cache *c)
{
    return c->path;
}

const char *gh_tune_cache_problem(const gh_tune_cache *c)
{
    return c->problem;
}

int gh_tune_cache_save(gh_tune_cache *c, FILE *warn, char *err, size_t err_size)
{
    struct stat st;
    int replaced = c->problem && !c->not_a_file && stat(c->path, &st) == 0 && !S_ISREG(st.st_mode);
    if (c->problem && (c->not_a_file || replaced)) {
        /* only the unreadable file that was read is set aside: never a device or folder */
        char *now = replaced ? gh_strdupf("is now %s", gh_file_kind_name(st.st_mode)) : gh_strdup(c->problem);
        snprintf(err, err_size,
                 "the tune cache %s %s; gemmhost sets aside only a file it could not read, and leaves this alone: "
                 "set another tune_cache (or %s)",
                 c->path, now, GH_TUNE_CACHE_ENV);
        free(now);
        return -1;
    }
    if (c->problem) {
        /* PATH.bad, or PATH.bad.N when an earlier one is there: none is lost */
        char *bad = NULL;
        for (int i = 0; i < 1000 && !bad; i++) {
            bad = i ? gh_strdupf("%s.bad.%d", c->path, i) : gh_strdupf("%s.bad", c->path);
            if (lstat(bad, &st) == 0) {
                free(bad);
                bad = NULL;
            }
        }
        if (!bad || (rename(c->path, bad) != 0 && errno != ENOENT)) {
            snprintf(err, err_size, "cannot set the unusable tune cache %s aside as %s: %s", c->path,
                     bad ? bad : "PATH.bad.N", bad ? strerror(errno) : "all taken");
            free(bad);
            return -1;
        }
        fprintf(warn ? warn : stderr, "gemmhost: the unusable tune cache is now %s; %s starts afresh\n", bad, c->path);
        free(bad);
        free(c->problem);
        c->problem = NULL;
    }
    if (gh_make_parent_folders(c->path, err, err_size) != 0) return -1;
    char *text = json_dumps(c->doc, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
    if (!text) {
        snprintf(err, err_size, "cannot write the tune cache %s: out of memory", c->path);
        return -1;
    }
    size_t len = strlen(text);
    char *with_newline = gh_xrealloc(text, len + 2);
    with_newline[len] = '\n';
    with_newline[len + 1] = '\0';
    int rc = gh_replace_file(c->path, with_newline, len + 1, err, err_size);
    free(with_newline);
    return rc;
}

void gh_tune_cache_free(gh_tune_cache *c)
{
    if (!c) return;
    json_decref(c->doc);
    free(c->path);
    free(c->problem);
    free(c);
}

/* ---- entries ---- */

static int str_is(const json_t *obj, const char *key, const char *want)
{
    const char *s = json_string_value(json_object_get(obj, key));
    char *clean = utf8_clean(want);
    int same = s && want && strcmp(s, clean) == 0;
    free(clean);
    return same;
}

void gh_tune_key_dtype_text(const gh_tune_key *key, char *text, size_t size)
{
    const gh_case_types *t = &key->types;
    if (t->explicit_types)
        snprintf(text, size, "%sx%s->%s", gh_dtype_name(key->dtype), gh_dtype_name(t->b), gh_dtype_name(t->c));
    else snprintf(text, size, "%s", gh_dtype_name(key->dtype));
}

static int same_key(const json_t *e, const gh_tune_key *key)
{
    char dtype[64];
    gh_tune_key_dtype_text(key, dtype, sizeof dtype);
    return str_is(e, "plugin", key->plugin) && str_is(e, "device", key->device) &&
           str_is(e, "driver_version", key->driver_version) && str_is(e, "kernel", key->kernel) &&
           str_is(e, "dtype", dtype);
}

/* The entry's parameter names are the kernel's, in its order. */
static int same_params(const json_t *e, const gh_kernel_info *info)
{
    const json_t *names = json_object_get(e, "params");
    if (json_array_size(names) != info->n_params) return 0;
    for (size_t p = 0; p < info->n_params; p++)
        if (strcmp(json_string_value(json_array_get(names, p)), info->params[p].name) != 0) return 0;
    return 1;
}

static json_t *find(const gh_tune_cache *c, const gh_tune_key *key, size_t *index)
{
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(c->doc, "entries"), i, e)
    {
        if (!same_key(e, key)) continue;
        if (index) *index = i;
        return e;
    }
    return NULL;
}

const gh_tune_entry *gh_tune_cache_find(const gh_tune_cache *c, const gh_tune_key *key, const gh_kernel_info *info,
                                        int *stale)
{
    if (stale) *stale = 0;
    json_t *e = find(c, key, NULL);
    if (e && !same_params(e, info)) {
        if (stale) *stale = 1;
        return NULL;
    }
    return (const gh_tune_entry *)e;
}

gh_tune_entry *gh_tune_cache_entry(gh_tune_cache *c, const gh_tune_key *key, const gh_kernel_info *info)
{
    size_t index;
    json_t *entries = json_object_get(c->doc, "entries");
    json_t *e = find(c, key, &index);
    if (e && same_params(e, info)) return (gh_tune_entry *)e;
    if (e) json_array_remove(entries, index); /* tuned with other parameters: its numbers mean nothing now */
    json_t *names = json_array();
    for (size_t p = 0; p < info->n_params; p++) json_array_append_new(names, json_string(info->params[p].name));
    char dtype[64];
    gh_tune_key_dtype_text(key, dtype, sizeof dtype);
    char *plugin = utf8_clean(key->plugin), *device = utf8_clean(key->device),
         *driver = utf8_clean(key->driver_version), *kernel = utf8_clean(key->kernel);
    e = must(json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:{}, s:[]}", "plugin", plugin, "device", device,
                       "driver_version", driver, "kernel", kernel, "dtype", dtype, "params", names, "best",
                       "measurements"));
    free(plugin);
    free(device);
    free(driver);
    free(kernel);
    json_array_append_new(entries, e);
    return (gh_tune_entry *)e;
}

/* ---- measurements ---- */

static json_t *params_object(const gh_kernel_info *info, const int64_t *params)
{
    json_t *o = json_object();
    for (size_t p = 0; p < info->n_params; p++)
        json_object_set_new(o, info->params[p].name, json_integer((json_int_t)params[p]));
    return o;
}

static int params_match(const json_t *o, const gh_kernel_info *info, const int64_t *params)
{
    if (json_object_size(o) != info->n_params) return 0;
    for (size_t p = 0; p < info->n_params; p++) {
        const json_t *v = json_object_get(o, info->params[p].name);
        if (!v || json_integer_value(v) != (json_int_t)params[p]) return 0;
    }
    return 1;
}

static void trans_text(char out[3], gh_trans t)
{
    out[0] = t.a ? 't' : 'n';
    out[1] = t.b ? 't' : 'n';
    out[2] = '\0';
}

static json_t *find_measurement(const json_t *e, const gh_kernel_info *info, const int64_t *params, gh_trans t,
                                gh_shape s, size_t *index)
{
    char trans[3];
    trans_text(trans, t);
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(e, "measurements"), i, m)
    {
        if (json_integer_value(json_object_get(m, "m")) != s.m || json_integer_value(json_object_get(m, "n")) != s.n ||
            json_integer_value(json_object_get(m, "k")) != s.k || !str_is(m, "trans", trans) ||
            !params_match(json_object_get(m, "params"), info, params))
            continue;
        if (index) *index = i;
        return m;
    }
    return NULL;
}

int gh_tune_entry_get(const gh_tune_entry *e, const gh_kernel_info *info, const int64_t *params, gh_trans t, gh_shape s,
                      gh_tune_measurement *out)
{
    const json_t *m = find_measurement(J(e), info, params, t, s, NULL);
    if (!m) return 0;
    snprintf(out->status, sizeof out->status, "%s", json_string_value(json_object_get(m, "status")));
    out->kernel_ms = json_number_value(json_object_get(m, "kernel_ms"));
    out->gflops = json_number_value(json_object_get(m, "gflops"));
    snprintf(out->detail, sizeof out->detail, "%s", json_string_value(json_object_get(m, "detail")));
    return 1;
}

/* jansson has no NaN or Inf (json_real refuses them). */
static double finite_or_zero(double v)
{
    return isfinite(v) ? v : 0;
}

void gh_tune_entry_put(gh_tune_entry *e, const gh_kernel_info *info, const int64_t *params, gh_trans t, gh_shape s,
                       const gh_tune_measurement *m)
{
    char trans[3], when[32];
    trans_text(trans, t);
    gh_iso_time_now(when);
    char *status = utf8_clean(m->status), *detail = utf8_clean(m->detail);
    json_t *rec = must(json_pack(
        "{s:o, s:s, s:I, s:I, s:I, s:s, s:f, s:f, s:s, s:s}", "params", params_object(info, params), "trans", trans,
        "m", (json_int_t)s.m, "n", (json_int_t)s.n, "k", (json_int_t)s.k, "status", status, "kernel_ms",
        finite_or_zero(m->kernel_ms), "gflops", finite_or_zero(m->gflops), "detail", detail, "when", when));
    free(status);
    free(detail);
    size_t index;
    json_t *list = json_object_get(J(e), "measurements");
    if (find_measurement(J(e), info, params, t, s, &index)) json_array_set_new(list, index, rec);
    else json_array_append_new(list, rec);
}

void gh_tune_entry_forget(gh_tune_entry *e, const gh_kernel_info *info, const int64_t *params, gh_trans t, gh_shape s)
{
    size_t index;
    if (find_measurement(J(e), info, params, t, s, &index))
        json_array_remove(json_object_get(J(e), "measurements"), index);
}

/* ---- the best per size class ---- */

void gh_tune_entry_set_best(gh_tune_entry *e, const gh_kernel_info *info, gh_size_class c, const int64_t *params,
                            double gflops, double default_gflops, const char *sizes, gh_trans t)
{
    char trans[3], when[32];
    trans_text(trans, t);
    gh_iso_time_now(when);
    json_object_set_new(json_object_get(J(e), "best"), gh_size_class_name(c),
                        must(json_pack("{s:o, s:f, s:f, s:s, s:s, s:s}", "params", params_object(info, params),
                                       "gflops", finite_or_zero(gflops), "default_gflops",
                                       finite_or_zero(default_gflops), "sizes", sizes, "trans", trans, "when", when)));
}

static int allowed(const gh_param_info *p, int64_t v)
{
    if (p->n_allowed == 0) return v >= p->min_value && v <= p->max_value;
    for (size_t i = 0; i < p->n_allowed; i++)
        if (p->allowed[i] == v) return 1;
    return 0;
}

int gh_tune_entry_best(const gh_tune_entry *e, const gh_kernel_info *info, gh_size_class c, int64_t *params, char *why,
                       size_t why_size)
{
    const json_t *best = json_object_get(json_object_get(J(e), "best"), gh_size_class_name(c));
    if (!best) {
        snprintf(why, why_size, "the tune cache has no best for this size class");
        return 0;
    }
    const json_t *values = json_object_get(best, "params");
    for (size_t p = 0; p < info->n_params; p++) {
        const json_t *v = json_object_get(values, info->params[p].name);
        if (!v) {
            snprintf(why, why_size, "the tune cache's best lacks %s", info->params[p].name);
            return 0;
        }
        params[p] = (int64_t)json_integer_value(v);
        if (!allowed(&info->params[p], params[p])) {
            snprintf(why, why_size, "the tune cache's %s=%lld is no longer allowed", info->params[p].name,
                     (long long)params[p]);
            return 0;
        }
    }
    return 1;
}
