/* Text encodings the report writes: a growable string, JSON and CSV scalars,
 * and the field lists that describe each record once for both formats (so
 * the CSV columns and the JSON keys cannot drift apart). */
#ifndef GEMMHOST_ENCODE_H
#define GEMMHOST_ENCODE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include "report.h"
#include "result.h"

/* Growable string. Out of memory is sticky and checked once, at take. */
typedef struct gh_sbuf {
    char *s;
    size_t len, cap;
    int oom;
} gh_sbuf;

void gh_sb_putn(gh_sbuf *b, const char *s, size_t n);
void gh_sb_puts(gh_sbuf *b, const char *s);
void gh_sb_putc(gh_sbuf *b, char c);
void gh_sb_vprintf(gh_sbuf *b, const char *fmt, va_list ap);
void gh_sb_printf(gh_sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Hands over the string (never NULL on success); NULL when out of memory. */
char *gh_sb_take(gh_sbuf *b);

/* List of owned strings (e.g. rendered JSON fragments). */
typedef struct gh_strlist {
    char **items;
    size_t n, cap;
} gh_strlist;

/* Takes ownership of s (frees it on failure); -1 when out of memory or s is NULL. */
int gh_sl_push(gh_strlist *l, char *s);
int gh_sl_contains(const gh_strlist *l, const char *s);
void gh_sl_free(gh_strlist *l);

/* Length of the well-formed UTF-8 sequence at s (1 to 4), or 0 when the bytes
 * there are not one. */
size_t gh_utf8_seq_len(const unsigned char *s);
/* A JSON string; NULL becomes null. Invalid UTF-8 becomes U+FFFD. */
void gh_json_str(gh_sbuf *b, const char *s);
/* A JSON number with `digits` significant digits; NaN and Inf become null. */
void gh_json_num(gh_sbuf *b, double v, int digits);
/* An RFC 4180 field, quoted when needed; NULL is empty. */
void gh_csv_str(gh_sbuf *b, const char *s);
/* A CSV number; NaN and Inf as nan, inf, -inf. */
void gh_csv_num(gh_sbuf *b, double v, int digits);

/* Field lists: one per record, rendered as a CSV row or as JSON members. */
typedef enum gh_field_kind { GH_FIELD_NULL, GH_FIELD_STR, GH_FIELD_INT, GH_FIELD_NUM, GH_FIELD_BOOL } gh_field_kind;

typedef struct gh_field {
    const char *name;
    gh_field_kind kind;
    const char *s;
    int64_t i;
    double d;
    int digits; /* significant digits of a GH_FIELD_NUM */
} gh_field;

enum { GH_MAX_FIELDS = 128, GH_NUM_DIGITS = 9, GH_EXACT_DIGITS = 17 };

typedef struct gh_fieldset {
    gh_field f[GH_MAX_FIELDS];
    size_t n;
    char hash[17]; /* storage for strings built here */
    char trans[3];
} gh_fieldset;

void gh_fs_null(gh_fieldset *fs, const char *name);
void gh_fs_str(gh_fieldset *fs, const char *name, const char *s);
void gh_fs_int(gh_fieldset *fs, const char *name, int64_t i);
void gh_fs_bool(gh_fieldset *fs, const char *name, int v);
void gh_fs_num_digits(gh_fieldset *fs, const char *name, double d, int digits);
void gh_fs_num(gh_fieldset *fs, const char *name, double d);
/* A value that only means something when `known`; empty/null otherwise. */
void gh_fs_num_if(gh_fieldset *fs, const char *name, int known, double d, int digits);
void gh_fs_int_if(gh_fieldset *fs, const char *name, int known, int64_t i);

void gh_render_json_members(gh_sbuf *b, const gh_fieldset *fs);
char *gh_render_json_object(const gh_fieldset *fs);
char *gh_render_csv_header(const gh_fieldset *fs);
char *gh_render_csv_row(const gh_fieldset *fs);

/* XML character data or attribute value: markup characters as entities,
 * line breaks as &#10; (kept in attributes), other control characters and
 * invalid UTF-8 (not allowed in XML 1.0) as U+FFFD. NULL is empty. */
void gh_xml_str(gh_sbuf *b, const char *s);

/* A device as people read it: "0:Intel Core i7-8700 CPU" for index 0 of
 * "Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz" (decoration and clock dropped,
 * nothing that tells models apart); index < 0 gives the name alone. */
void gh_device_label(char *out, size_t size, int index, const char *name);

/* "nn", "nt", "tn", "tt" */
void gh_trans_name(char out[3], int trans_a, int trans_b);

/* The records: each resets fs and fills it. */
void gh_fields_result(gh_fieldset *fs, const gh_result *res); /* every member, in CSV column order */
void gh_fields_device(gh_fieldset *fs, const char *backend, int index, const gh_device_info *d);
/* Appends every member of a device's info that its size covers (no reset). */
void gh_fields_device_info(gh_fieldset *fs, const gh_device_info *d);
void gh_fields_plugin(gh_fieldset *fs, const gh_report_plugin *p);
/* Nested records, rendered whole as JSON objects (NULL when out of memory). */
char *gh_render_split_json(const gh_result *res, double wall_ms, const gh_report_split_member *members, size_t n);
char *gh_render_agreement_json(const gh_agreement *a);

#endif
