/* The output fingerprint's member of a result record (fingerprint_json.h). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encode.h"
#include "fingerprint_json.h"

static void put_value(gh_sbuf *b, double v, int digits)
{
    if (isnan(v)) gh_sb_puts(b, "\"nan\"");
    else if (isinf(v)) gh_sb_puts(b, v > 0 ? "\"inf\"" : "\"-inf\"");
    else gh_sb_printf(b, "%.*g", digits, v);
}

char *gh_fingerprint_json_append(char *json, const gh_fingerprint *fp, gh_dtype dtype)
{
    if (!json || fp->n <= 0) return json;
    size_t len = strlen(json);
    if (len == 0 || json[len - 1] != '}') return json;
    const int digits = dtype == GH_F64 || dtype == GH_I32 ? 17 : 9;
    gh_sbuf b = {0};
    gh_sb_putn(&b, json, len - 1);
    free(json);
    gh_sb_puts(&b, len > 2 ? ", \"fingerprint\": {\"at\": [" : "\"fingerprint\": {\"at\": [");
    for (int p = 0; p < fp->n; p++) gh_sb_printf(&b, "%s%d,%d", p ? "," : "", (int)fp->i[p], (int)fp->j[p]);
    gh_sb_puts(&b, "], \"value\": [");
    for (int p = 0; p < fp->n; p++) {
        if (p) gh_sb_putc(&b, ',');
        put_value(&b, fp->value[p], digits);
    }
    gh_sb_puts(&b, "], \"bound\": [");
    for (int p = 0; p < fp->n; p++) {
        if (p) gh_sb_putc(&b, ',');
        put_value(&b, fp->bound[p], 4);
    }
    gh_sb_puts(&b, "]}}");
    return gh_sb_take(&b);
}

static int read_number(const json_t *v, double *out)
{
    if (json_is_number(v)) {
        *out = json_number_value(v);
        return 0;
    }
    const char *s = json_string_value(v);
    if (!s) return -1;
    if (!strcmp(s, "nan")) *out = NAN;
    else if (!strcmp(s, "inf")) *out = INFINITY;
    else if (!strcmp(s, "-inf")) *out = -INFINITY;
    else return -1;
    return 0;
}

static int fail(gh_fingerprint *fp, char *err, size_t err_size, const char *what)
{
    fp->n = 0;
    snprintf(err, err_size, "its fingerprint %s", what);
    return -1;
}

int gh_fingerprint_from_json(const json_t *record, gh_fingerprint *fp, char *err, size_t err_size)
{
    fp->n = 0;
    const json_t *o = json_object_get(record, "fingerprint");
    if (!o || json_is_null(o)) return 0;
    const json_t *at = json_object_get(o, "at"), *value = json_object_get(o, "value"),
                 *bound = json_object_get(o, "bound");
    if (!json_is_object(o) || !json_is_array(at) || !json_is_array(value) || !json_is_array(bound))
        return fail(fp, err, err_size, "is not an object with the arrays at, value and bound");
    size_t n = json_array_size(value);
    if (n > GH_FINGERPRINT_MAX) return fail(fp, err, err_size, "holds more positions than gemmhost writes (256)");
    if (json_array_size(at) != 2 * n || json_array_size(bound) != n)
        return fail(fp, err, err_size, "has arrays of unequal lengths (at needs two numbers per value)");
    for (size_t p = 0; p < n; p++) {
        const json_t *i = json_array_get(at, 2 * p), *j = json_array_get(at, 2 * p + 1);
        if (!json_is_integer(i) || !json_is_integer(j) || json_integer_value(i) < 0 || json_integer_value(j) < 0 ||
            json_integer_value(i) > INT32_MAX || json_integer_value(j) > INT32_MAX)
            return fail(fp, err, err_size, "has a position that is not two integers in [0, 2^31)");
        fp->i[p] = (int32_t)json_integer_value(i);
        fp->j[p] = (int32_t)json_integer_value(j);
        if (read_number(json_array_get(value, p), &fp->value[p]) != 0 ||
            read_number(json_array_get(bound, p), &fp->bound[p]) != 0)
            return fail(fp, err, err_size,
                        "has a value or bound that is not a number (nor \"nan\", \"inf\", \"-inf\")");
    }
    /* 9 digits give an f32 (and every f16 and bf16 value) back once
     * rounded to f32: the value the output held, not its decimal. */
    const char *dtype = json_string_value(json_object_get(record, "c_dtype")); /* the output's type */
    if (!dtype) dtype = json_string_value(json_object_get(record, "dtype"));   /* a file before ABI 1.5 */
    int narrow = dtype && strcmp(dtype, "f64") != 0 && strcmp(dtype, "i32") != 0;
    for (size_t p = 0; narrow && p < n; p++) /* beyond FLT_MAX the cast is undefined: a foreign file's value */
        if (fabs(fp->value[p]) <= FLT_MAX) fp->value[p] = (double)(float)fp->value[p];
    fp->n = (int)n;
    return 0;
}
