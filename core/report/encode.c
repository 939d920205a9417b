/* JSON and CSV encoding and the field lists of each record; see encode.h. */
#include "encode.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Growable string. Out of memory is sticky and checked once, at take. */

static int sb_reserve(gh_sbuf *b, size_t extra)
{
    if (b->oom) return -1;
    if (b->len + extra + 1 <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1) cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) {
        b->oom = 1;
        return -1;
    }
    b->s = s;
    b->cap = cap;
    return 0;
}

void gh_sb_putn(gh_sbuf *b, const char *s, size_t n)
{
    if (sb_reserve(b, n) != 0) return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void gh_sb_puts(gh_sbuf *b, const char *s)
{
    gh_sb_putn(b, s, strlen(s));
}
void gh_sb_putc(gh_sbuf *b, char c)
{
    gh_sb_putn(b, &c, 1);
}

void gh_sb_vprintf(gh_sbuf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        b->oom = 1;
        return;
    }
    if (sb_reserve(b, (size_t)n) != 0) return;
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void gh_sb_printf(gh_sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gh_sb_vprintf(b, fmt, ap);
    va_end(ap);
}

/* Hands over the string (never NULL on success); NULL when out of memory. */
char *gh_sb_take(gh_sbuf *b)
{
    if (!b->oom && !b->s) sb_reserve(b, 0);
    if (b->oom) {
        free(b->s);
        b->s = NULL;
        return NULL;
    }
    char *s = b->s;
    if (s) s[b->len] = '\0';
    b->s = NULL;
    b->len = b->cap = 0;
    return s;
}

/* ------------------------------------------------------------------------ */
/* List of owned strings: the JSON fragments. */

/* Takes ownership of s (frees it on failure); -1 when out of memory. */
int gh_sl_push(gh_strlist *l, char *s)
{
    if (!s) return -1;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        char **items = realloc(l->items, cap * sizeof *items);
        if (!items) {
            free(s);
            return -1;
        }
        l->items = items;
        l->cap = cap;
    }
    l->items[l->n++] = s;
    return 0;
}

int gh_sl_contains(const gh_strlist *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i], s) == 0) return 1;
    return 0;
}

void gh_sl_free(gh_strlist *l)
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
size_t gh_utf8_seq_len(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n;
    uint32_t cp, min;
    if (c < 0x80) return 1;
    if ((c & 0xE0) == 0xC0) {
        n = 2;
        cp = c & 0x1F;
        min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3;
        cp = c & 0x0F;
        min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4;
        cp = c & 0x07;
        min = 0x10000;
    } else return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0; /* also stops at the terminating NUL */
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

static void json_ascii(gh_sbuf *b, unsigned char c)
{
    switch (c) {
    case '"': gh_sb_puts(b, "\\\""); return;
    case '\\': gh_sb_puts(b, "\\\\"); return;
    case '\n': gh_sb_puts(b, "\\n"); return;
    case '\r': gh_sb_puts(b, "\\r"); return;
    case '\t': gh_sb_puts(b, "\\t"); return;
    case '\b': gh_sb_puts(b, "\\b"); return;
    case '\f': gh_sb_puts(b, "\\f"); return;
    }
    if (c < 0x20) gh_sb_printf(b, "\\u%04x", c);
    else gh_sb_putc(b, (char)c);
}

/* A JSON string; NULL becomes null. Valid UTF-8 passes through as is,
 * invalid bytes become U+FFFD. */
void gh_json_str(gh_sbuf *b, const char *s)
{
    if (!s) {
        gh_sb_puts(b, "null");
        return;
    }
    const unsigned char *p = (const unsigned char *)s;
    gh_sb_putc(b, '"');
    while (*p) {
        size_t n = gh_utf8_seq_len(p);
        if (n == 0) {
            gh_sb_puts(b, "\\ufffd");
            p++;
        } else if (n == 1) json_ascii(b, *p++);
        else {
            gh_sb_putn(b, (const char *)p, n);
            p += n;
        }
    }
    gh_sb_putc(b, '"');
}

/* JSON has no NaN or Inf: those become null. */
void gh_json_num(gh_sbuf *b, double v, int digits)
{
    if (isfinite(v)) gh_sb_printf(b, "%.*g", digits, v);
    else gh_sb_puts(b, "null");
}

/* RFC 4180: quote a field holding a comma, quote or line break; double quotes. */
void gh_csv_str(gh_sbuf *b, const char *s)
{
    if (!s) return;
    if (!strpbrk(s, ",\"\r\n")) {
        gh_sb_puts(b, s);
        return;
    }
    gh_sb_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"') gh_sb_putc(b, '"');
        gh_sb_putc(b, *s);
    }
    gh_sb_putc(b, '"');
}

/* CSV has no null either, but readers (Python float(), pandas) take these. */
void gh_csv_num(gh_sbuf *b, double v, int digits)
{
    if (isnan(v)) gh_sb_puts(b, "nan");
    else if (isinf(v)) gh_sb_puts(b, v > 0 ? "inf" : "-inf");
    else gh_sb_printf(b, "%.*g", digits, v);
}

/* ------------------------------------------------------------------------ */
/* Field lists: one per record, rendered as a CSV row or as JSON members. */

static gh_field *fs_add(gh_fieldset *fs, const char *name, gh_field_kind kind)
{
    /* GH_MAX_FIELDS is sized for the longest list below; overflowing it is a bug here. */
    gh_field *f = &fs->f[fs->n < GH_MAX_FIELDS ? fs->n++ : GH_MAX_FIELDS - 1];
    memset(f, 0, sizeof *f);
    f->name = name;
    f->kind = kind;
    return f;
}

void gh_fs_null(gh_fieldset *fs, const char *name)
{
    fs_add(fs, name, GH_FIELD_NULL);
}
void gh_fs_str(gh_fieldset *fs, const char *name, const char *s)
{
    fs_add(fs, name, GH_FIELD_STR)->s = s;
}
void gh_fs_int(gh_fieldset *fs, const char *name, int64_t i)
{
    fs_add(fs, name, GH_FIELD_INT)->i = i;
}
void gh_fs_bool(gh_fieldset *fs, const char *name, int v)
{
    fs_add(fs, name, GH_FIELD_BOOL)->i = v != 0;
}

void gh_fs_num_digits(gh_fieldset *fs, const char *name, double d, int digits)
{
    gh_field *f = fs_add(fs, name, GH_FIELD_NUM);
    f->d = d;
    f->digits = digits;
}

void gh_fs_num(gh_fieldset *fs, const char *name, double d)
{
    gh_fs_num_digits(fs, name, d, GH_NUM_DIGITS);
}

/* A value that only means something when `known`; empty/null otherwise
 * (e.g. no error sizes for a case that never ran). */
void gh_fs_num_if(gh_fieldset *fs, const char *name, int known, double d, int digits)
{
    if (known) gh_fs_num_digits(fs, name, d, digits);
    else gh_fs_null(fs, name);
}

void gh_fs_int_if(gh_fieldset *fs, const char *name, int known, int64_t i)
{
    if (known) gh_fs_int(fs, name, i);
    else gh_fs_null(fs, name);
}

void gh_render_json_members(gh_sbuf *b, const gh_fieldset *fs)
{
    for (size_t i = 0; i < fs->n; i++) {
        const gh_field *f = &fs->f[i];
        if (i) gh_sb_putc(b, ',');
        gh_json_str(b, f->name);
        gh_sb_putc(b, ':');
        switch (f->kind) {
        case GH_FIELD_NULL: gh_sb_puts(b, "null"); break;
        case GH_FIELD_STR: gh_json_str(b, f->s); break;
        case GH_FIELD_INT: gh_sb_printf(b, "%" PRId64, f->i); break;
        case GH_FIELD_NUM: gh_json_num(b, f->d, f->digits); break;
        case GH_FIELD_BOOL: gh_sb_puts(b, f->i ? "true" : "false"); break;
        }
    }
}

char *gh_render_json_object(const gh_fieldset *fs)
{
    gh_sbuf b = {0};
    gh_sb_putc(&b, '{');
    gh_render_json_members(&b, fs);
    gh_sb_putc(&b, '}');
    return gh_sb_take(&b);
}

char *gh_render_csv_header(const gh_fieldset *fs)
{
    gh_sbuf b = {0};
    for (size_t i = 0; i < fs->n; i++) {
        if (i) gh_sb_putc(&b, ',');
        gh_csv_str(&b, fs->f[i].name);
    }
    gh_sb_putc(&b, '\n');
    return gh_sb_take(&b);
}

char *gh_render_csv_row(const gh_fieldset *fs)
{
    gh_sbuf b = {0};
    for (size_t i = 0; i < fs->n; i++) {
        const gh_field *f = &fs->f[i];
        if (i) gh_sb_putc(&b, ',');
        switch (f->kind) {
        case GH_FIELD_NULL: break;
        case GH_FIELD_STR: gh_csv_str(&b, f->s); break;
        case GH_FIELD_INT: gh_sb_printf(&b, "%" PRId64, f->i); break;
        case GH_FIELD_NUM: gh_csv_num(&b, f->d, f->digits); break;
        case GH_FIELD_BOOL: gh_sb_putc(&b, f->i ? '1' : '0'); break;
        }
    }
    gh_sb_putc(&b, '\n');
    return gh_sb_take(&b);
}

/* ------------------------------------------------------------------------ */
/* What goes into each record. */

/* ------------------------------------------------------------------------ */
/* XML and labels. */

void gh_xml_str(gh_sbuf *b, const char *s)
{
    if (!s) return;
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t n = gh_utf8_seq_len(p);
        if (n == 0) {
            gh_sb_puts(b, "\xef\xbf\xbd");
            p++;
            continue;
        }
        if (n > 1) {
            gh_sb_putn(b, (const char *)p, n);
            p += n;
            continue;
        }
        switch (*p) {
        case '&': gh_sb_puts(b, "&amp;"); break;
        case '<': gh_sb_puts(b, "&lt;"); break;
        case '>': gh_sb_puts(b, "&gt;"); break;
        case '"': gh_sb_puts(b, "&quot;"); break;
        case '\'': gh_sb_puts(b, "&apos;"); break;
        case '\n': gh_sb_puts(b, "&#10;"); break;
        case '\t': gh_sb_puts(b, "&#9;"); break;
        case '\r': break;
        default:
            if (*p < 0x20 || *p == 0x7f) gh_sb_puts(b, "\xef\xbf\xbd");
            else gh_sb_putc(b, (char)*p);
        }
        p++;
    }
}

void gh_device_label(char *out, size_t size, int index, const char *name)
{
    static const char *const noise[] = {"(R)", "(r)", "(TM)", "(tm)"};
    gh_sbuf b = {0};
    if (!name || !*name) name = "?";
    if (index >= 0) gh_sb_printf(&b, "%d:", index);
    size_t start = b.len;
    for (const char *p = name; *p;) {
        if (strncmp(p, " @ ", 3) == 0) break; /* clock speed suffix */
        size_t skip = 0;
        for (size_t i = 0; i < sizeof noise / sizeof noise[0] && !skip; i++)
            if (strncmp(p, noise[i], strlen(noise[i])) == 0) skip = strlen(noise[i]);
        if (skip) {
            p += skip;
            continue;
        }
        if (*p == ' ' && (b.len == start || b.s[b.len - 1] == ' ')) {
            p++;
            continue;
        }
        gh_sb_putc(&b, *p++);
    }
    while (b.len > start && b.s[b.len - 1] == ' ') b.len--;
    char *s = gh_sb_take(&b);
    snprintf(out, size, "%s", s ? s : name);
    free(s);
}

void gh_trans_name(char out[3], int trans_a, int trans_b)
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
    gh_fs_int_if(fs, #member, DEV_HAS(info, member), DEV_HAS(info, member) ? (int64_t)(info)->member : 0)
#define DEV_BOOL(fs, info, member) \
    (DEV_HAS(info, member) ? gh_fs_bool(fs, #member, (info)->member) : gh_fs_null(fs, #member))

static void device_fields(gh_fieldset *fs, const gh_device_info *dev)
{
    gh_fs_str(fs, "device_vendor", DEV_STR(dev, vendor));
    gh_fs_str(fs, "device_driver_version", DEV_STR(dev, driver_version));
    gh_fs_str(fs, "device_api", DEV_STR(dev, api));
    if (DEV_HAS(dev, is_software)) gh_fs_bool(fs, "device_is_software", dev->is_software);
    else gh_fs_null(fs, "device_is_software");
}

static void verify_fields(gh_fieldset *fs, const gh_result *res)
{
    const gh_verify_result *v = &res->verify;
    int checked = v->checked != 0;
    int failed_at = checked && v->fail_i >= 0;
    /* An output exists only when the kernel ran to the end. */
    int ran = gh_result_status_ran(res->status);

    gh_fs_str(fs, "verify_method", res->verify_method);
    gh_fs_bool(fs, "verify_checked", checked);
    if (checked) gh_fs_bool(fs, "verify_passed", v->passed);
    else gh_fs_null(fs, "verify_passed");
    gh_fs_num_if(fs, "max_abs_err", checked, v->max_abs_err, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "max_err_over_bound", checked, v->max_err_over_bound, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "rel_fro_err", checked, v->rel_fro_err, GH_NUM_DIGITS);
    gh_fs_int_if(fs, "fail_i", failed_at, v->fail_i);
    gh_fs_int_if(fs, "fail_j", failed_at, v->fail_j);
    gh_fs_num_if(fs, "fail_got", failed_at, v->fail_got, GH_EXACT_DIGITS);
    gh_fs_num_if(fs, "fail_expected", failed_at, v->fail_expected, GH_EXACT_DIGITS);
    gh_fs_int_if(fs, "guard_overwrites", ran, v->guard_overwrites);
    if (ran) gh_fs_bool(fs, "deterministic", res->deterministic);
    else gh_fs_null(fs, "deterministic");
    if (ran) gh_fs_str(fs, "output_hash", fs->hash);
    else gh_fs_null(fs, "output_hash");
}

static void timing_fields(gh_fieldset *fs, const gh_result *res)
{
    int timed = res->repeats > 0;
    gh_fs_int(fs, "repeats", res->repeats);
    gh_fs_num_if(fs, "kernel_ms_median", timed, res->kernel_ms_median, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "kernel_ms_min", timed, res->kernel_ms_min, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "kernel_ms_max", timed, res->kernel_ms_max, GH_NUM_DIGITS);
    if (timed) gh_fs_str(fs, "clock", res->clock == GH_CLOCK_DEVICE ? "device" : "host");
    else gh_fs_null(fs, "clock");
    gh_fs_num_if(fs, "upload_ms", timed, res->upload_ms, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "download_ms", timed, res->download_ms, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "gflops", timed, res->gflops, GH_NUM_DIGITS);
}

/* Every member of gh_result, in CSV column order. */
void gh_fields_result(gh_fieldset *fs, const gh_result *res)
{
    fs->n = 0;
    snprintf(fs->hash, sizeof fs->hash, "%016" PRIx64, res->output_hash);
    gh_trans_name(fs->trans, res->trans_a, res->trans_b);

    gh_fs_int(fs, "case_index", res->case_index);
    gh_fs_str(fs, "backend", res->backend);
    gh_fs_str(fs, "plugin", res->plugin);
    gh_fs_str(fs, "plugin_path", res->plugin_path);
    gh_fs_int(fs, "device_index", res->device_index);
    gh_fs_str(fs, "device_name", res->device_name);
    device_fields(fs, res->device);
    gh_fs_str(fs, "kernel", res->kernel);
    gh_fs_str(fs, "params", res->params);
    gh_fs_str(fs, "params_used", res->params_used);
    gh_fs_str(fs, "params_note", res->params_note);
    gh_fs_str(fs, "dtype", gh_dtype_name(res->dtype));
    gh_fs_str(fs, "arithmetic", res->arithmetic);
    gh_fs_str(fs, "trans", fs->trans);
    gh_fs_int(fs, "m", res->m);
    gh_fs_int(fs, "n", res->n);
    gh_fs_int(fs, "k", res->k);
    gh_fs_num_digits(fs, "alpha", res->alpha, GH_EXACT_DIGITS);
    gh_fs_num_digits(fs, "beta", res->beta, GH_EXACT_DIGITS);
    gh_fs_str(fs, "status", gh_result_status_name(res->status));
    verify_fields(fs, res);
    timing_fields(fs, res);
    gh_fs_str(fs, "detail", res->detail);
    gh_fs_str(fs, "verify_message", res->verify.message);
}

void gh_fields_device(gh_fieldset *fs, const char *backend, int index, const gh_device_info *d)
{
    fs->n = 0;
    gh_fs_str(fs, "backend", backend);
    gh_fs_int(fs, "device_index", index);
    gh_fields_device_info(fs, d);
}

void gh_fields_device_info(gh_fieldset *fs, const gh_device_info *d)
{
    gh_fs_str(fs, "name", DEV_STR(d, name));
    gh_fs_str(fs, "vendor", DEV_STR(d, vendor));
    gh_fs_str(fs, "driver_version", DEV_STR(d, driver_version));
    gh_fs_str(fs, "api", DEV_STR(d, api));
    gh_fs_str(fs, "platform", DEV_STR(d, platform));
    DEV_INT(fs, d, global_mem_bytes);
    DEV_INT(fs, d, local_mem_bytes);
    DEV_INT(fs, d, compute_units);
    DEV_INT(fs, d, max_workgroup_size);
    DEV_BOOL(fs, d, is_software);
    DEV_BOOL(fs, d, has_fp64);
    const char *pci = DEV_STR(d, pci_address);
    gh_fs_str(fs, "pci_address", pci ? pci : "");
}

void gh_fields_plugin(gh_fieldset *fs, const gh_report_plugin *p)
{
    fs->n = 0;
    gh_fs_str(fs, "name", p->name);
    gh_fs_str(fs, "path", p->path);
    gh_fs_str(fs, "version", p->version);
    gh_fs_int(fs, "abi_major", p->abi_major);
    gh_fs_int(fs, "abi_minor", p->abi_minor);
    gh_fs_bool(fs, "loaded", p->error == NULL);
    gh_fs_str(fs, "error", p->error);
}

/* The agreement without its groups, which are nested and rendered apart. */
static void agreement_fields(gh_fieldset *fs, const gh_agreement *a)
{
    fs->n = 0;
    gh_trans_name(fs->trans, a->trans_a, a->trans_b);
    gh_fs_int(fs, "case_index", a->case_index);
    gh_fs_str(fs, "dtype", gh_dtype_name(a->dtype));
    gh_fs_str(fs, "trans", fs->trans);
    gh_fs_int(fs, "m", a->m);
    gh_fs_int(fs, "n", a->n);
    gh_fs_int(fs, "k", a->k);
    gh_fs_num(fs, "max_diff_in_bounds", a->max_diff_in_bounds);
}

static void split_member_fields(gh_fieldset *fs, const gh_report_split_member *m)
{
    fs->n = 0;
    gh_fs_str(fs, "backend", m->backend);
    gh_fs_str(fs, "plugin", m->plugin);
    gh_fs_int(fs, "device_index", m->device_index);
    gh_fs_str(fs, "device_name", m->device_name);
    gh_fs_str(fs, "kernel", m->kernel);
    gh_fs_str(fs, "params", m->params);
    gh_fs_bool(fs, "streams", m->streams);
    gh_fs_str(fs, "layout", m->layout);
    gh_fs_int(fs, "device_bytes", (int64_t)m->device_bytes);
    gh_fs_int(fs, "chunks", m->chunks);
    gh_fs_int(fs, "gemms", m->gemms);
    gh_fs_num(fs, "compute_ms", m->compute_ms);
    gh_fs_num(fs, "upload_ms", m->upload_ms);
    gh_fs_num(fs, "download_ms", m->download_ms);
    gh_fs_num(fs, "wait_ms", m->wait_ms);
    gh_fs_int(fs, "bytes_up", (int64_t)m->bytes_up);
    gh_fs_int(fs, "bytes_down", (int64_t)m->bytes_down);
    gh_fs_num(fs, "upload_gbps", m->upload_gbps);
    if (m->numa_node >= 0) gh_fs_int(fs, "numa_node", m->numa_node);
    else gh_fs_null(fs, "numa_node");
    gh_fs_str(fs, "numa", m->numa ? m->numa : "");
    gh_fs_str(fs, "b_path", m->b_path ? m->b_path : "");
    if (m->error && m->error[0]) gh_fs_str(fs, "error", m->error);
    else gh_fs_null(fs, "error");
}

char *gh_render_split_json(const gh_result *res, double wall_ms, const gh_report_split_member *members, size_t n)
{
    gh_fieldset fs;
    fs.n = 0;
    gh_fs_int(&fs, "case_index", res->case_index);
    gh_fs_str(&fs, "backend", res->backend);
    gh_fs_str(&fs, "status", gh_result_status_name(res->status));
    gh_fs_num(&fs, "wall_ms", wall_ms);
    gh_sbuf b = {0};
    gh_sb_putc(&b, '{');
    gh_render_json_members(&b, &fs);
    gh_sb_puts(&b, ",\"members\":[");
    for (size_t i = 0; i < n; i++) {
        split_member_fields(&fs, &members[i]);
        if (i) gh_sb_putc(&b, ',');
        gh_sb_putc(&b, '{');
        gh_render_json_members(&b, &fs);
        gh_sb_putc(&b, '}');
    }
    gh_sb_puts(&b, "]}");
    return gh_sb_take(&b);
}

char *gh_render_agreement_json(const gh_agreement *a)
{
    gh_fieldset fs;
    agreement_fields(&fs, a);
    gh_sbuf b = {0};
    gh_sb_putc(&b, '{');
    gh_render_json_members(&b, &fs);
    gh_sb_puts(&b, ",\"groups\":[");
    for (size_t g = 0; g < a->n_groups; g++) {
        const gh_agreement_group *grp = &a->groups[g];
        gh_sb_printf(&b, "%s{\"hash\":\"%016" PRIx64 "\",\"members\":[", g ? "," : "", grp->hash);
        for (size_t m = 0; m < grp->n_members; m++) {
            if (m) gh_sb_putc(&b, ',');
            gh_json_str(&b, grp->members[m]);
        }
        gh_sb_puts(&b, "]}");
    }
    gh_sb_puts(&b, "]}");
    return gh_sb_take(&b);
}