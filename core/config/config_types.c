/* The [run] keys of an 8-bit GEMM's other types and its scales: b_dtype,
 * c_dtype, scale_a, scale_b, scale_c, and the checks of them against dtype
 * (docs/configuration.md, "8-bit types"). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <strings.h>

#include "config_check.h"
#include "data.h"

int gh_dtype_is_8bit(gh_dtype d)
{
    return d == GH_E4M3 || d == GH_E5M2 || d == GH_I8;
}

static int is_fp8(gh_dtype d)
{
    return d == GH_E4M3 || d == GH_E5M2;
}

int gh_case_types_allowed(gh_dtype a, gh_dtype b, gh_dtype c)
{
    if (is_fp8(a)) return is_fp8(b) && (c == GH_F32 || c == GH_F16 || c == GH_BF16);
    if (a == GH_I8) return b == GH_I8 && c == GH_I32;
    return a == b && b == c;
}

gh_case_types gh_run_case_types(const gh_run_config *run, gh_dtype a)
{
    if (!gh_dtype_is_8bit(a)) return (gh_case_types){a, a, a, 1.0, 1.0, 1.0, 0};
    gh_case_types t = {a, run->b_dtype_set ? run->b_dtype : a, a == GH_I8 ? GH_I32 : GH_F32, 1.0, 1.0, 1.0, 1};
    if (run->c_dtype_set) t.c = run->c_dtype;
    if (run->scale_a > 0) t.scale_a = run->scale_a; /* 0: a config built without the keys */
    if (run->scale_b > 0) t.scale_b = run->scale_b;
    if (run->scale_c > 0) t.scale_c = run->scale_c;
    return t;
}

/* A per-matrix type key: the word `keep` leaves *set at 0 (the default
 * applies); anything else must be one of names[], stored as types[]. */
static int set_matrix_dtype(loader *ld, const section *s, const entry *e, const char *keep, const char *what,
                            const char *const *names, const gh_dtype *types, int n, int *set, gh_dtype *out)
{
    const char *v;
    int idx = 0;
    if (cfg_get_single(ld, s, e, &v) != 0) return -1;
    *set = strcasecmp(v, keep) != 0;
    if (!*set) return 0;
    if (cfg_get_choice(ld, s, e, v, what, names, n, &idx) != 0) return -1;
    *out = types[idx];
    return 0;
}

/* b_dtype = same | e4m3 | e5m2 | i8 */
int cfg_set_b_dtype(loader *ld, const section *s, const entry *e, gh_run_config *run)
{
    static const char *const names[] = {"e4m3", "e5m2", "i8"};
    static const gh_dtype types[] = {GH_E4M3, GH_E5M2, GH_I8};
    return set_matrix_dtype(ld, s, e, "same", "B's 8-bit type (or same)", names, types, 3, &run->b_dtype_set,
                            &run->b_dtype);
}

/* c_dtype = auto | f32 | f16 | bf16 | i32 */
int cfg_set_c_dtype(loader *ld, const section *s, const entry *e, gh_run_config *run)
{
    static const char *const names[] = {"f32", "f16", "bf16", "i32"};
    static const gh_dtype types[] = {GH_F32, GH_F16, GH_BF16, GH_I32};
    return set_matrix_dtype(ld, s, e, "auto", "C's type for 8-bit inputs (or auto)", names, types, 4, &run->c_dtype_set,
                            &run->c_dtype);
}

/* scale_a, scale_b, scale_c: finite and > 0. */
int cfg_set_scale(loader *ld, const section *s, const entry *e, double *out)
{
    const char *v;
    double d = 0;
    if (cfg_get_single(ld, s, e, &v) != 0) return -1;
    if (cfg_parse_double(v, &d) != 0 || !(d > 0) || !isfinite(d) || !isfinite((float)d) || (float)d == 0.0f)
        return ini_fail_key(ld, s, e,
                            "\"%s\" is not a scale: give a number above 0 that f32 holds (a power of two keeps "
                            "every product exact)",
                            ini_show(ld, v));
    *out = d;
    return 0;
}

/* The entry to blame: the key, else dtype (an 8-bit dtype is never a
 * default, so one of them is in the file). */
static const entry *blame(const section *s, const char *key)
{
    const entry *e = ini_find_entry(s, key);
    return e ? e : ini_find_entry(s, "dtype");
}

/* Each 8-bit dtype of the run with b_dtype, c_dtype and the scales: a pair
 * the host cannot run, or scales with i8, is an error at the key that makes
 * it; the keys without an 8-bit dtype to apply to are errors too. */
int cfg_check_types(loader *ld, const section *s, gh_run_config *run)
{
    static const char *const keys[] = {"b_dtype", "c_dtype", "scale_a", "scale_b", "scale_c"};
    int any_8bit = 0;
    for (size_t d = 0; d < run->n_dtypes; d++) any_8bit |= gh_dtype_is_8bit(run->dtypes[d]);
    for (size_t k = 0; !any_8bit && k < sizeof keys / sizeof keys[0]; k++) {
        const entry *e = ini_find_entry(s, keys[k]);
        if (e)
            return ini_fail_key(ld, s, e, "applies to the 8-bit dtypes (e4m3, e5m2, i8) only, and dtype has none%s",
                                run->dtype_auto ? " (auto never picks them: list them)" : "");
    }
    for (size_t d = 0; d < run->n_dtypes; d++) {
        gh_case_types t = gh_run_case_types(run, run->dtypes[d]);
        if (!t.explicit_types) continue;
        if (t.a == GH_I8 && t.b != GH_I8)
            return ini_fail_key(ld, s, blame(s, "b_dtype"),
                                "%s does not fit dtype i8 (i8 multiplies i8 only); give b_dtype = same or i8, or "
                                "leave i8 out of dtype",
                                gh_dtype_name(t.b));
        if (t.a != GH_I8 && t.b == GH_I8)
            return ini_fail_key(ld, s, blame(s, "b_dtype"),
                                "i8 does not fit dtype %s (FP8 multiplies e4m3 or e5m2); give b_dtype = same, e4m3 "
                                "or e5m2",
                                gh_dtype_name(t.a));
        if (!gh_case_types_allowed(t.a, t.b, t.c))
            return ini_fail_key(ld, s, blame(s, "c_dtype"),
                                "%s does not fit dtype %s (C of e4m3 and e5m2: f32, f16 or bf16; of i8: i32); give "
                                "c_dtype = auto, or run the two in separate configs",
                                gh_dtype_name(t.c), gh_dtype_name(t.a));
        if (t.a == GH_I8 && (t.scale_a != 1.0 || t.scale_b != 1.0 || t.scale_c != 1.0)) {
            const entry *e = blame(s, t.scale_a != 1.0 ? "scale_a" : t.scale_b != 1.0 ? "scale_b" : "scale_c");
            return ini_fail_key(ld, s, e,
                                "\"%s\": i8 takes scales of 1 only (its C is i32, exact); give 1 or leave i8 out "
                                "of dtype",
                                ini_show(ld, e->value));
        }
    }
    return 0;
}
