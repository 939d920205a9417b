/* Results as they arrive: a table on the terminal, CSV and JSON on disk.
 *
 * The CSV gets one line per result, flushed at once. The JSON is kept in
 * memory as pre-rendered fragments and rewritten whole after every change,
 * into a temp file renamed over the real one, so the file on disk is always
 * one complete document. One field list per result feeds both formats, so
 * their columns and keys cannot drift apart.
 *
 * Not thread-safe: call from one thread (the run loop). */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#ifndef GEMMHOST_VERSION
#define GEMMHOST_VERSION "unknown"
#endif

/* ------------------------------------------------------------------------ */
/* Growable string. Out of memory is sticky and checked once, at take. */

typedef struct sbuf {
    char *s;
    size_t len, cap;
    int oom;
} sbuf;

static int sb_reserve(sbuf *b, size_t extra)
{
    if (b->oom) return -1;
    if (b->len + extra + 1 <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1) cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) { b->oom = 1; return -1; }
    b->s = s;
    b->cap = cap;
    return 0;
}

static void sb_putn(sbuf *b, const char *s, size_t n)
{
    if (sb_reserve(b, n) != 0) return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void sb_puts(sbuf *b, const char *s) { sb_putn(b, s, strlen(s)); }
static void sb_putc(sbuf *b, char c) { sb_putn(b, &c, 1); }

static void sb_vprintf(sbuf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) { b->oom = 1; return; }
    if (sb_reserve(b, (size_t)n) != 0) return;
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

static void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(b, fmt, ap);
    va_end(ap);
}

/* Hands over the string (never NULL on success); NULL when out of memory. */
static char *sb_take(sbuf *b)
{
    if (!b->oom && !b->s) sb_reserve(b, 0);
    if (b->oom) { free(b->s); b->s = NULL; return NULL; }
    char *s = b->s;
    if (s) s[b->len] = '\0';
    b->s = NULL;
    b->len = b->cap = 0;
    return s;
}

static char *str_concat(const char *a, const char *b)
{
    sbuf sb = {0};
    sb_puts(&sb, a);
    sb_puts(&sb, b);
    return sb_take(&sb);
}

/* ------------------------------------------------------------------------ */
/* List of owned strings: the JSON fragments. */

typedef struct strlist {
    char **items;
    size_t n, cap;
} strlist;

/* Takes ownership of s (frees it on failure); -1 when out of memory. */
static int sl_push(strlist *l, char *s)
{
    if (!s) return -1;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        char **items = realloc(l->items, cap * sizeof *items);
        if (!items) { free(s); return -1; }
        l->items = items;
        l->cap = cap;
    }
    l->items[l->n++] = s;
    return 0;
}

static int sl_contains(const strlist *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i], s) == 0) return 1;
    return 0;
}

static void sl_free(strlist *l)
{
    for (size_t i = 0; i < l->n; i++) free(l->items[i]);
    free(l->items);
    l->items = NULL;
    l->n = l->cap = 0;
}

/* ------------------------------------------------------------------------ */
/* JSON and CSV scalars. */

/* Length of the well-formed UTF-8 sequence at s (1 to 4), or 0 when the bytes
 * there are not one (stray continuation, overlong, surrogate, past U+10FFFF,
 * cut short). Driver strings are not always UTF-8; the JSON must stay valid. */
static size_t utf8_seq_len(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n;
    uint32_t cp, min;
    if (c < 0x80) return 1;
    if ((c & 0xE0) == 0xC0) { n = 2; cp = c & 0x1F; min = 0x80; }
    else if ((c & 0xF0) == 0xE0) { n = 3; cp = c & 0x0F; min = 0x800; }
    else if ((c & 0xF8) == 0xF0) { n = 4; cp = c & 0x07; min = 0x10000; }
    else return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;   /* also stops at the terminating NUL */
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

static void json_ascii(sbuf *b, unsigned char c)
{
    switch (c) {
    case '"': sb_puts(b, "\\\""); return;
    case '\\': sb_puts(b, "\\\\"); return;
    case '\n': sb_puts(b, "\\n"); return;
    case '\r': sb_puts(b, "\\r"); return;
    case '\t': sb_puts(b, "\\t"); return;
    case '\b': sb_puts(b, "\\b"); return;
    case '\f': sb_puts(b, "\\f"); return;
    }
    if (c < 0x20) sb_printf(b, "\\u%04x", c);
    else sb_putc(b, (char)c);
}

/* A JSON string; NULL becomes null. Valid UTF-8 passes through as is,
 * invalid bytes become U+FFFD. */
static void json_str(sbuf *b, const char *s)
{
    if (!s) { sb_puts(b, "null"); return; }
    const unsigned char *p = (const unsigned char *)s;
    sb_putc(b, '"');
    while (*p) {
        size_t n = utf8_seq_len(p);
        if (n == 0) { sb_puts(b, "\\ufffd"); p++; }
        else if (n == 1) json_ascii(b, *p++);
        else { sb_putn(b, (const char *)p, n); p += n; }
    }
    sb_putc(b, '"');
}

/* JSON has no NaN or Inf: those become null. */
static void json_num(sbuf *b, double v, int digits)
{
    if (isfinite(v)) sb_printf(b, "%.*g", digits, v);
    else sb_puts(b, "null");
}

/* RFC 4180: quote a field holding a comma, quote or line break; double quotes. */
static void csv_str(sbuf *b, const char *s)
{
    if (!s) return;
    if (!strpbrk(s, ",\"\r\n")) { sb_puts(b, s); return; }
    sb_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"') sb_putc(b, '"');
        sb_putc(b, *s);
    }
    sb_putc(b, '"');
}

/* CSV has no null either, but readers (Python float(), pandas) take these. */
static void csv_num(sbuf *b, double v, int digits)
{
    if (isnan(v)) sb_puts(b, "nan");
    else if (isinf(v)) sb_puts(b, v > 0 ? "inf" : "-inf");
    else sb_printf(b, "%.*g", digits, v);
}

/* ------------------------------------------------------------------------ */
/* Field lists: one per record, rendered as a CSV row or as JSON members. */

typedef enum field_kind { FK_NULL, FK_STR, FK_INT, FK_NUM, FK_BOOL } field_kind;

typedef struct field {
    const char *name;
    field_kind kind;
    const char *s;
    int64_t i;
    double d;
    int digits;              /* significant digits of a FK_NUM */
} field;

enum { MAX_FIELDS = 64, NUM_DIGITS = 9, EXACT_DIGITS = 17 };

typedef struct fieldset {
    field f[MAX_FIELDS];
    size_t n;
    char hash[17];           /* storage for strings built here */
    char trans[3];
} fieldset;

static field *fs_add(fieldset *fs, const char *name, field_kind kind)
{
    /* MAX_FIELDS is sized for the longest list below; overflowing it is a bug here. */
    field *f = &fs->f[fs->n < MAX_FIELDS ? fs->n++ : MAX_FIELDS - 1];
    memset(f, 0, sizeof *f);
    f->name = name;
    f->kind = kind;
    return f;
}

static void fs_null(fieldset *fs, const char *name) { fs_add(fs, name, FK_NULL); }
static void fs_str(fieldset *fs, const char *name, const char *s) { fs_add(fs, name, FK_STR)->s = s; }
static void fs_int(fieldset *fs, const char *name, int64_t i) { fs_add(fs, name, FK_INT)->i = i; }
static void fs_bool(fieldset *fs, const char *name, int v) { fs_add(fs, name, FK_BOOL)->i = v != 0; }

static void fs_num_digits(fieldset *fs, const char *name, double d, int digits)
{
    field *f = fs_add(fs, name, FK_NUM);
    f->d = d;
    f->digits = digits;
}

static void fs_num(fieldset *fs, const char *name, double d) { fs_num_digits(fs, name, d, NUM_DIGITS); }

/* A value that only means something when `known`; empty/null otherwise
 * (e.g. no error sizes for a case that never ran). */
static void fs_num_if(fieldset *fs, const char *name, int known, double d, int digits)
{
    if (known) fs_num_digits(fs, name, d, digits);
    else fs_null(fs, name);
}

static void fs_int_if(fieldset *fs, const char *name, int known, int64_t i)
{
    if (known) fs_int(fs, name, i);
    else fs_null(fs, name);
}

static void render_json_members(sbuf *b, const fieldset *fs)
{
    for (size_t i = 0; i < fs->n; i++) {
        const field *f = &fs->f[i];
        if (i) sb_putc(b, ',');
        json_str(b, f->name);
        sb_putc(b, ':');
        switch (f->kind) {
        case FK_NULL: sb_puts(b, "null"); break;
        case FK_STR: json_str(b, f->s); break;
        case FK_INT: sb_printf(b, "%" PRId64, f->i); break;
        case FK_NUM: json_num(b, f->d, f->digits); break;
        case FK_BOOL: sb_puts(b, f->i ? "true" : "false"); break;
        }
    }
}

static char *render_json_object(const fieldset *fs)
{
    sbuf b = {0};
    sb_putc(&b, '{');
    render_json_members(&b, fs);
    sb_putc(&b, '}');
    return sb_take(&b);
}

static char *render_csv_header(const fieldset *fs)
{
    sbuf b = {0};
    for (size_t i = 0; i < fs->n; i++) {
        if (i) sb_putc(&b, ',');
        csv_str(&b, fs->f[i].name);
    }
    sb_putc(&b, '\n');
    return sb_take(&b);
}

static char *render_csv_row(const fieldset *fs)
{
    sbuf b = {0};
    for (size_t i = 0; i < fs->n; i++) {
        const field *f = &fs->f[i];
        if (i) sb_putc(&b, ',');
        switch (f->kind) {
        case FK_NULL: break;
        case FK_STR: csv_str(&b, f->s); break;
        case FK_INT: sb_printf(&b, "%" PRId64, f->i); break;
        case FK_NUM: csv_num(&b, f->d, f->digits); break;
        case FK_BOOL: sb_putc(&b, f->i ? '1' : '0'); break;
        }
    }
    sb_putc(&b, '\n');
    return sb_take(&b);
}

/* ------------------------------------------------------------------------ */
/* What goes into each record. */

static const char *dtype_name(gh_dtype d)
{
    /* Local so the report does not depend on data.c; same names as gh_dtype_name. */
    switch (d) {
    case GH_F32: return "f32";
    case GH_F64: return "f64";
    case GH_I32: return "i32";
    }
    return "unknown";
}

static void trans_name(char out[3], int trans_a, int trans_b)
{
    out[0] = trans_a ? 't' : 'n';
    out[1] = trans_b ? 't' : 'n';
    out[2] = '\0';
}

/* Device info comes from a plugin, maybe built against an older minor: only
 * read members its size covers. */
#define DEV_HAS(info, member) ((info) && GH_HAS_MEMBER(info, gh_device_info, member))

#define DEV_STR(info, member) (DEV_HAS(info, member) ? (info)->member : NULL)
#define DEV_INT(fs, info, member) \
    fs_int_if(fs, #member, DEV_HAS(info, member), DEV_HAS(info, member) ? (int64_t)(info)->member : 0)
#define DEV_BOOL(fs, info, member) \
    (DEV_HAS(info, member) ? fs_bool(fs, #member, (info)->member) : fs_null(fs, #member))

static void device_fields(fieldset *fs, const gh_device_info *dev)
{
    fs_str(fs, "device_vendor", DEV_STR(dev, vendor));
    fs_str(fs, "device_driver_version", DEV_STR(dev, driver_version));
    fs_str(fs, "device_api", DEV_STR(dev, api));
    if (DEV_HAS(dev, is_software)) fs_bool(fs, "device_is_software", dev->is_software);
    else fs_null(fs, "device_is_software");
}

static void verify_fields(fieldset *fs, const gh_result *res)
{
    const gh_verify_result *v = &res->verify;
    int checked = v->checked != 0;
    int failed_at = checked && v->fail_i >= 0;
    /* An output exists only when the kernel ran to the end. */
    int ran = gh_result_status_ran(res->status);

    fs_str(fs, "verify_method", res->verify_method);
    fs_bool(fs, "verify_checked", checked);
    if (checked) fs_bool(fs, "verify_passed", v->passed);
    else fs_null(fs, "verify_passed");
    fs_num_if(fs, "max_abs_err", checked, v->max_abs_err, NUM_DIGITS);
    fs_num_if(fs, "max_err_over_bound", checked, v->max_err_over_bound, NUM_DIGITS);
    fs_num_if(fs, "rel_fro_err", checked, v->rel_fro_err, NUM_DIGITS);
    fs_int_if(fs, "fail_i", failed_at, v->fail_i);
    fs_int_if(fs, "fail_j", failed_at, v->fail_j);
    fs_num_if(fs, "fail_got", failed_at, v->fail_got, EXACT_DIGITS);
    fs_num_if(fs, "fail_expected", failed_at, v->fail_expected, EXACT_DIGITS);
    fs_int_if(fs, "guard_overwrites", ran, v->guard_overwrites);
    if (ran) fs_bool(fs, "deterministic", res->deterministic);
    else fs_null(fs, "deterministic");
    if (ran) fs_str(fs, "output_hash", fs->hash);
    else fs_null(fs, "output_hash");
}

static void timing_fields(fieldset *fs, const gh_result *res)
{
    int timed = res->repeats > 0;
    fs_int(fs, "repeats", res->repeats);
    fs_num_if(fs, "kernel_ms_median", timed, res->kernel_ms_median, NUM_DIGITS);
    fs_num_if(fs, "kernel_ms_min", timed, res->kernel_ms_min, NUM_DIGITS);
    fs_num_if(fs, "kernel_ms_max", timed, res->kernel_ms_max, NUM_DIGITS);
    if (timed) fs_str(fs, "clock", res->clock == GH_CLOCK_DEVICE ? "device" : "host");
    else fs_null(fs, "clock");
    fs_num_if(fs, "upload_ms", timed, res->upload_ms, NUM_DIGITS);
    fs_num_if(fs, "download_ms", timed, res->download_ms, NUM_DIGITS);
    fs_num_if(fs, "gflops", timed, res->gflops, NUM_DIGITS);
}

/* Every member of gh_result, in CSV column order. */
static void result_fields(fieldset *fs, const gh_result *res)
{
    fs->n = 0;
    snprintf(fs->hash, sizeof fs->hash, "%016" PRIx64, res->output_hash);
    trans_name(fs->trans, res->trans_a, res->trans_b);

    fs_int(fs, "case_index", res->case_index);
    fs_str(fs, "backend", res->backend);
    fs_str(fs, "plugin", res->plugin);
    fs_str(fs, "plugin_path", res->plugin_path);
    fs_int(fs, "device_index", res->device_index);
    fs_str(fs, "device_name", res->device_name);
    device_fields(fs, res->device);
    fs_str(fs, "kernel", res->kernel);
    fs_str(fs, "params", res->params);
    fs_str(fs, "dtype", dtype_name(res->dtype));
    fs_str(fs, "trans", fs->trans);
    fs_int(fs, "m", res->m);
    fs_int(fs, "n", res->n);
    fs_int(fs, "k", res->k);
    fs_num_digits(fs, "alpha", res->alpha, EXACT_DIGITS);
    fs_num_digits(fs, "beta", res->beta, EXACT_DIGITS);
    fs_str(fs, "status", gh_result_status_name(res->status));
    verify_fields(fs, res);
    timing_fields(fs, res);
    fs_str(fs, "detail", res->detail);
    fs_str(fs, "verify_message", res->verify.message);
}

static void device_info_fields(fieldset *fs, const char *backend, int index, const gh_device_info *d)
{
    fs->n = 0;
    fs_str(fs, "backend", backend);
    fs_int(fs, "device_index", index);
    fs_str(fs, "name", DEV_STR(d, name));
    fs_str(fs, "vendor", DEV_STR(d, vendor));
    fs_str(fs, "driver_version", DEV_STR(d, driver_version));
    fs_str(fs, "api", DEV_STR(d, api));
    fs_str(fs, "platform", DEV_STR(d, platform));
    DEV_INT(fs, d, global_mem_bytes);
    DEV_INT(fs, d, local_mem_bytes);
    DEV_INT(fs, d, compute_units);
    DEV_INT(fs, d, max_workgroup_size);
    DEV_BOOL(fs, d, is_software);
    DEV_BOOL(fs, d, has_fp64);
}

static void plugin_fields(fieldset *fs, const gh_report_plugin *p)
{
    fs->n = 0;
    fs_str(fs, "name", p->name);
    fs_str(fs, "path", p->path);
    fs_str(fs, "version", p->version);
    fs_int(fs, "abi_major", p->abi_major);
    fs_int(fs, "abi_minor", p->abi_minor);
    fs_bool(fs, "loaded", p->error == NULL);
    fs_str(fs, "error", p->error);
}

/* The agreement without its groups, which are nested and rendered apart. */
static void agreement_fields(fieldset *fs, const gh_agreement *a)
{
    fs->n = 0;
    trans_name(fs->trans, a->trans_a, a->trans_b);
    fs_int(fs, "case_index", a->case_index);
    fs_str(fs, "dtype", dtype_name(a->dtype));
    fs_str(fs, "trans", fs->trans);
    fs_int(fs, "m", a->m);
    fs_int(fs, "n", a->n);
    fs_int(fs, "k", a->k);
    fs_num(fs, "max_diff_in_bounds", a->max_diff_in_bounds);
}

static void split_member_fields(fieldset *fs, const gh_report_split_member *m)
{
    fs->n = 0;
    fs_str(fs, "backend", m->backend);
    fs_str(fs, "plugin", m->plugin);
    fs_int(fs, "device_index", m->device_index);
    fs_str(fs, "device_name", m->device_name);
    fs_str(fs, "kernel", m->kernel);
    fs_str(fs, "params", m->params);
    fs_bool(fs, "streams", m->streams);
    fs_str(fs, "layout", m->layout);
    fs_int(fs, "device_bytes", (int64_t)m->device_bytes);
    fs_int(fs, "chunks", m->chunks);
    fs_int(fs, "gemms", m->gemms);
    fs_num(fs, "compute_ms", m->compute_ms);
    fs_num(fs, "upload_ms", m->upload_ms);
    fs_num(fs, "download_ms", m->download_ms);
    fs_num(fs, "wait_ms", m->wait_ms);
    fs_int(fs, "bytes_up", (int64_t)m->bytes_up);
    fs_int(fs, "bytes_down", (int64_t)m->bytes_down);
    if (m->error && m->error[0]) fs_str(fs, "error", m->error);
    else fs_null(fs, "error");
}

static char *render_split_json(const gh_result *res, double wall_ms, const gh_report_split_member *members, size_t n)
{
    fieldset fs;
    fs.n = 0;
    fs_int(&fs, "case_index", res->case_index);
    fs_str(&fs, "backend", res->backend);
    fs_str(&fs, "status", gh_result_status_name(res->status));
    fs_num(&fs, "wall_ms", wall_ms);
    sbuf b = {0};
    sb_putc(&b, '{');
    render_json_members(&b, &fs);
    sb_puts(&b, ",\"members\":[");
    for (size_t i = 0; i < n; i++) {
        split_member_fields(&fs, &members[i]);
        if (i) sb_putc(&b, ',');
        sb_putc(&b, '{');
        render_json_members(&b, &fs);
        sb_putc(&b, '}');
    }
    sb_puts(&b, "]}");
    return sb_take(&b);
}

static char *render_agreement_json(const gh_agreement *a)
{
    fieldset fs;
    agreement_fields(&fs, a);
    sbuf b = {0};
    sb_putc(&b, '{');
    render_json_members(&b, &fs);
    sb_puts(&b, ",\"groups\":[");
    for (size_t g = 0; g < a->n_groups; g++) {
        const gh_agreement_group *grp = &a->groups[g];
        sb_printf(&b, "%s{\"hash\":\"%016" PRIx64 "\",\"members\":[", g ? "," : "", grp->hash);
        for (size_t m = 0; m < grp->n_members; m++) {
            if (m) sb_putc(&b, ',');
            json_str(&b, grp->members[m]);
        }
        sb_puts(&b, "]}");
    }
    sb_puts(&b, "]}");
    return sb_take(&b);
}

/* ------------------------------------------------------------------------ */
/* The report. */

struct gh_report {
    FILE *table;                 /* NULL: quiet */
    int table_header_done;
    FILE *csv;                   /* NULL: no files */
    char *csv_path, *json_path, *json_tmp_path;
    char *head_json;             /* the members before the lists: version and config */
    strlist plugins, devices, device_keys, results, agreement, splits, notes;
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

static int write_json_list(FILE *f, const char *name, const strlist *l, int last)
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
static void add_fragment(gh_report *r, strlist *list, char *json)
{
    if (sl_push(list, json) != 0) {
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
    free(r->csv_path);
    free(r->json_path);
    free(r->json_tmp_path);
    free(r->head_json);
    sl_free(&r->plugins);
    sl_free(&r->devices);
    sl_free(&r->device_keys);
    sl_free(&r->results);
    sl_free(&r->agreement);
    sl_free(&r->splits);
    sl_free(&r->notes);
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
    fieldset fs;
    result_fields(&fs, &zero);
    write_csv(r, render_csv_header(&fs));
    if (r->failed) {
        snprintf(err, err_size, "%s", r->error);
        return -1;
    }
    return rewrite_json(r, err, err_size);
}

static char *render_head_json(const char *config_text)
{
    sbuf b = {0};
    sb_puts(&b, "  \"gemmhost\": {\"version\": ");
    json_str(&b, GEMMHOST_VERSION);
    sb_puts(&b, "},\n  \"config\": ");
    json_str(&b, config_text);
    sb_puts(&b, ",\n");
    return sb_take(&b);
}

gh_report *gh_report_open(const char *prefix, const char *config_text, FILE *table,
                          char *err, size_t err_size)
{
    gh_report *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, err_size, "cannot open report: out of memory");
        return NULL;
    }
    r->table = table;
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
/* The terminal table. */

enum {
    W_BACKEND = 10, W_DEVICE = 18, W_KERNEL = 10, W_PARAMS = 10, W_DTYPE = 5, W_TRANS = 5,
    W_SHAPE = 17, W_STATUS = 11, W_ERR = 9, W_MS = 10, W_GFLOPS = 9
};

/* Fits s into a cell of size - 1 columns: control characters become '?', and
 * a value too long is cut with '~' as its last character so the cut shows. */
static void cell(char *out, size_t size, const char *s)
{
    size_t width = size - 1, n = 0;
    if (!s) s = "-";
    for (; s[n] && n < width; n++)
        out[n] = ((unsigned char)s[n] < 0x20 || s[n] == 0x7f) ? '?' : s[n];
    if (s[n]) out[width - 1] = '~';
    out[n] = '\0';
}

/* Drops the decoration of marketing names ("Intel(R) Core(TM) i7 CPU @ 3GHz"
 * becomes "Intel Core i7 CPU") so the part that tells devices apart fits. */
static void short_device_name(char *out, size_t size, int index, const char *name)
{
    static const char *const noise[] = {"(R)", "(r)", "(TM)", "(tm)"};
    char buf[256];
    size_t n = 0;
    if (!name || !*name) name = "?";
    if (index >= 0) n = (size_t)snprintf(buf, sizeof buf, "%d:", index);
    for (const char *p = name; *p && n + 1 < sizeof buf;) {
        if (strncmp(p, " @ ", 3) == 0) break;   /* clock speed suffix */
        size_t skip = 0;
        for (size_t i = 0; i < sizeof noise / sizeof noise[0] && !skip; i++)
            if (strncmp(p, noise[i], strlen(noise[i])) == 0) skip = strlen(noise[i]);
        if (skip) { p += skip; continue; }
        if (*p == ' ' && (n == 0 || buf[n - 1] == ' ' || buf[n - 1] == ':')) { p++; continue; }
        buf[n++] = *p++;
    }
    while (n > 0 && buf[n - 1] == ' ') n--;
    buf[n] = '\0';
    snprintf(out, size, "%s", buf);
}

static void table_header(gh_report *r)
{
    if (r->table_header_done) return;
    r->table_header_done = 1;
    fprintf(r->table, "%-*s %-*s %-*s %-*s %-*s %-*s %-*s %-*s %*s %*s %*s\n",
            W_BACKEND, "backend", W_DEVICE, "device", W_KERNEL, "kernel", W_PARAMS, "params",
            W_DTYPE, "dtype", W_TRANS, "trans", W_SHAPE, "MxNxK", W_STATUS, "status",
            W_ERR, "err/bound", W_MS, "median ms", W_GFLOPS, "GFLOP/s");
}

/* Prints text after `first`, with every following line indented by `indent`. */
static void print_indented(FILE *f, const char *first, const char *indent, const char *text)
{
    fputs(first, f);
    for (const char *p = text; *p; p++) {
        if (*p == '\r') continue;
        fputc(*p, f);
        if (*p == '\n' && p[1]) fputs(indent, f);
    }
    fputc('\n', f);
}

static void format_err_cell(char *out, size_t size, const gh_result *res)
{
    if (!res->verify.checked) snprintf(out, size, "-");
    else snprintf(out, size, "%.3g", res->verify.max_err_over_bound);
}

static void format_timing_cells(char *ms, char *gf, size_t size, const gh_result *res)
{
    if (res->repeats <= 0) {
        snprintf(ms, size, "-");
        snprintf(gf, size, "-");
        return;
    }
    snprintf(ms, size, "%.4f", res->kernel_ms_median);
    snprintf(gf, size, "%.1f", res->gflops);
}

static void table_row(gh_report *r, const gh_result *res)
{
    char backend[W_BACKEND + 1], device[W_DEVICE + 1], kernel[W_KERNEL + 1], params[W_PARAMS + 1];
    char shape[W_SHAPE + 1], status[W_STATUS + 1], err[W_ERR + 1], ms[W_MS + 1], gf[W_GFLOPS + 1];
    char trans[3], tmp[256], tmp_ms[64], tmp_gf[64];

    cell(backend, sizeof backend, res->backend);
    short_device_name(tmp, sizeof tmp, res->device_index, res->device_name);
    cell(device, sizeof device, tmp);
    cell(kernel, sizeof kernel, res->kernel);
    cell(params, sizeof params, res->params[0] ? res->params : "-");
    trans_name(trans, res->trans_a, res->trans_b);
    snprintf(tmp, sizeof tmp, "%" PRId64 "x%" PRId64 "x%" PRId64, res->m, res->n, res->k);
    cell(shape, sizeof shape, tmp);
    cell(status, sizeof status, gh_result_status_name(res->status));
    format_err_cell(tmp, sizeof tmp, res);
    cell(err, sizeof err, tmp);
    format_timing_cells(tmp_ms, tmp_gf, sizeof tmp_ms, res);
    cell(ms, sizeof ms, tmp_ms);
    cell(gf, sizeof gf, tmp_gf);

    fprintf(r->table, "%-*s %-*s %-*s %-*s %-*s %-*s %-*s %-*s %*s %*s %*s\n",
            W_BACKEND, backend, W_DEVICE, device, W_KERNEL, kernel, W_PARAMS, params,
            W_DTYPE, dtype_name(res->dtype), W_TRANS, trans, W_SHAPE, shape, W_STATUS, status,
            W_ERR, err, W_MS, ms, W_GFLOPS, gf);

    const char *why = res->detail[0] ? res->detail : res->verify.message;
    if (res->status != GH_RESULT_PASS && why[0]) print_indented(r->table, "    ", "    ", why);
    fflush(r->table);
}

/* One line per member under its split's row; a failure on a line of its own. */
static void table_split_members(gh_report *r, const gh_report_split_member *members, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const gh_report_split_member *m = &members[i];
        fprintf(r->table, "    %s/%d %s%s%s: %" PRId64 " chunks, %" PRId64 " GEMMs, compute %.3f ms, upload %.3f ms, "
                "download %.3f ms, wait %.3f ms; %s, %s\n",
                m->backend, m->device_index, m->kernel, m->params && *m->params ? " " : "", m->params ? m->params : "",
                m->chunks, m->gemms, m->compute_ms, m->upload_ms, m->download_ms, m->wait_ms,
                m->streams ? "streams" : "blocking calls", m->layout ? m->layout : "-");
        if (m->error && m->error[0]) print_indented(r->table, "      failed: ", "      ", m->error);
    }
    fflush(r->table);
}

static void table_agreement(gh_report *r, const gh_agreement *a)
{
    char trans[3];
    trans_name(trans, a->trans_a, a->trans_b);
    fprintf(r->table, "agreement, case %d (%s %s %" PRId64 "x%" PRId64 "x%" PRId64 "): ",
            a->case_index, dtype_name(a->dtype), trans, a->m, a->n, a->k);
    if (a->n_groups == 0) fprintf(r->table, "no outputs\n");
    else if (a->n_groups == 1) fprintf(r->table, "1 group, identical outputs\n");
    else
        fprintf(r->table, "%zu groups, max diff %.3g of the bound%s\n", a->n_groups,
                a->max_diff_in_bounds, a->max_diff_in_bounds > 1 || isnan(a->max_diff_in_bounds) ? " (BEYOND)" : "");
    for (size_t g = 0; g < a->n_groups; g++) {
        const gh_agreement_group *grp = &a->groups[g];
        fprintf(r->table, "  group %zu (hash %016" PRIx64 "):", g + 1, grp->hash);
        for (size_t m = 0; m < grp->n_members; m++)
            fprintf(r->table, "%s %s", m ? "," : "", grp->members[m]);
        fputc('\n', r->table);
    }
    fflush(r->table);
}

/* ------------------------------------------------------------------------ */
/* Public calls. Each takes a NULL report as "no report". */

void gh_report_plugin_info(gh_report *r, const gh_report_plugin *p)
{
    if (!r || !p) return;
    fieldset fs;
    plugin_fields(&fs, p);
    add_fragment(r, &r->plugins, render_json_object(&fs));
}

void gh_report_device(gh_report *r, const char *backend, int device_index, const gh_device_info *info)
{
    if (!r) return;
    sbuf key = {0};
    sb_printf(&key, "%d:%s", device_index, backend ? backend : "");
    char *k = sb_take(&key);
    if (k && sl_contains(&r->device_keys, k)) { free(k); return; }   /* once per backend/device */
    if (sl_push(&r->device_keys, k) != 0) {
        report_fail(r, "cannot update the report: out of memory");
        return;
    }
    fieldset fs;
    device_info_fields(&fs, backend, device_index, info);
    add_fragment(r, &r->devices, render_json_object(&fs));
}

void gh_report_result(gh_report *r, const gh_result *res)
{
    if (!r || !res) return;
    if (r->table) {
        table_header(r);
        table_row(r, res);
    }
    fieldset fs;
    result_fields(&fs, res);
    if (r->csv) write_csv(r, render_csv_row(&fs));
    if (r->json_path) add_fragment(r, &r->results, render_json_object(&fs));
}

void gh_report_split_members(gh_report *r, const gh_result *res, double wall_ms,
                             const gh_report_split_member *members, size_t n)
{
    if (!r || !res || (!members && n)) return;
    if (r->table) table_split_members(r, members, n);
    if (r->json_path) add_fragment(r, &r->splits, render_split_json(res, wall_ms, members, n));
}

void gh_report_agreement(gh_report *r, const gh_agreement *a)
{
    if (!r || !a) return;
    if (r->table) table_agreement(r, a);
    if (r->json_path) add_fragment(r, &r->agreement, render_agreement_json(a));
}

void gh_report_note(gh_report *r, const char *fmt, ...)
{
    if (!r || !fmt) return;
    sbuf text = {0};
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&text, fmt, ap);
    va_end(ap);
    char *s = sb_take(&text);
    if (!s) { report_fail(r, "cannot add a note: out of memory"); return; }
    if (r->table) {
        print_indented(r->table, "note: ", "      ", s);
        fflush(r->table);
    }
    if (r->json_path) {
        sbuf b = {0};
        json_str(&b, s);
        add_fragment(r, &r->notes, sb_take(&b));
    }
    free(s);
}

int gh_report_close(gh_report *r, char *err, size_t err_size)
{
    if (!r) return 0;
    if (r->csv && fclose(r->csv) != 0) report_fail(r, "cannot write %s: %s", r->csv_path, strerror(errno));
    r->csv = NULL;
    if (r->table) fflush(r->table);
    int rc = r->failed ? -1 : 0;
    if (rc) snprintf(err, err_size, "%s", r->error);
    report_free(r);
    return rc;
}
