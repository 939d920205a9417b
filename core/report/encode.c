/* Encoding: a growable string, JSON, CSV and XML text, and a field set
 * rendered as a JSON object or a CSV row; see encode.h. The field lists of
 * each record are in record_fields.c. */
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

/* Valid UTF-8 sequences pass through as they are, an invalid byte becomes
 * `invalid`, and each ASCII byte goes through `ascii` (JSON or XML). */
static void escape_utf8(gh_sbuf *b, const char *s, const char *invalid, void (*ascii)(gh_sbuf *, unsigned char))
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t n = gh_utf8_seq_len(p);
        if (n == 0) {
            gh_sb_puts(b, invalid);
            p++;
        } else if (n == 1) ascii(b, *p++);
        else {
            gh_sb_putn(b, (const char *)p, n);
            p += n;
        }
    }
}

/* A JSON string; NULL becomes null. Valid UTF-8 passes through as is,
 * invalid bytes become U+FFFD. */
void gh_json_str(gh_sbuf *b, const char *s)
{
    if (!s) {
        gh_sb_puts(b, "null");
        return;
    }
    gh_sb_putc(b, '"');
    escape_utf8(b, s, "\\ufffd", json_ascii);
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
/* XML and labels. */

static void xml_ascii(gh_sbuf *b, unsigned char c)
{
    switch (c) {
    case '&': gh_sb_puts(b, "&amp;"); return;
    case '<': gh_sb_puts(b, "&lt;"); return;
    case '>': gh_sb_puts(b, "&gt;"); return;
    case '"': gh_sb_puts(b, "&quot;"); return;
    case '\'': gh_sb_puts(b, "&apos;"); return;
    case '\n': gh_sb_puts(b, "&#10;"); return;
    case '\t': gh_sb_puts(b, "&#9;"); return;
    case '\r': return;
    }
    if (c < 0x20 || c == 0x7f) gh_sb_puts(b, "\xef\xbf\xbd");
    else gh_sb_putc(b, (char)c);
}

void gh_xml_str(gh_sbuf *b, const char *s)
{
    if (s) escape_utf8(b, s, "\xef\xbf\xbd", xml_ascii);
}
