/* Output fingerprints (core/verify/fingerprint.c, core/report/fingerprint_json.c):
 * the positions (corners, edges, seed-chosen, the same every time), the
 * values and bounds taken from an output, the difference in units of the
 * bound, and the results file's member written and read back. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#define CHECK_MAIN
#include "test_util.h"
#include "fingerprint.h"
#include "fingerprint_json.h"

static int holds(const int32_t *i, const int32_t *j, int n, int32_t r, int32_t c)
{
    for (int p = 0; p < n; p++)
        if (i[p] == r && j[p] == c) return 1;
    return 0;
}

static void test_positions(void)
{
    static int32_t i[GH_FINGERPRINT_MAX], j[GH_FINGERPRINT_MAX], i2[GH_FINGERPRINT_MAX], j2[GH_FINGERPRINT_MAX];
    const int64_t m = 1000, n = 700;
    int count = gh_fingerprint_positions(5, 3, m, n, i, j);
    CHECK(count == GH_FINGERPRINT_MAX, "1000x700: %d positions", count);
    CHECK(holds(i, j, count, 0, 0) && holds(i, j, count, 0, 699) && holds(i, j, count, 999, 0) &&
              holds(i, j, count, 999, 699),
          "the four corners are among them");
    int top = 0, bottom = 0, left = 0, right = 0, ordered = 1, inside = 1;
    for (int p = 0; p < count; p++) {
        top += i[p] == 0;
        bottom += i[p] == m - 1;
        left += j[p] == 0;
        right += j[p] == n - 1;
        inside &= i[p] >= 0 && i[p] < m && j[p] >= 0 && j[p] < n;
        if (p) ordered &= i[p - 1] < i[p] || (i[p - 1] == i[p] && j[p - 1] < j[p]);
    }
    CHECK(top >= 8 && bottom >= 8 && left >= 8 && right >= 8, "each edge holds positions (%d %d %d %d)", top, bottom,
          left, right);
    CHECK(ordered && inside, "row-major order, no position twice, all inside");
    int again = gh_fingerprint_positions(5, 3, m, n, i2, j2);
    CHECK(again == count && !memcmp(i, i2, sizeof i) && !memcmp(j, j2, sizeof j), "the same positions every time");
    gh_fingerprint_positions(5, 4, m, n, i2, j2);
    CHECK(memcmp(i, i2, sizeof i) || memcmp(j, j2, sizeof j), "another case, other positions");
    count = gh_fingerprint_positions(5, 0, 10, 20, i, j);
    CHECK(count == 200 && i[199] == 9 && j[199] == 19, "10x20: every element (%d)", count);
    count = gh_fingerprint_positions(5, 0, 1, 4000, i, j);
    CHECK(count == GH_FINGERPRINT_MAX && holds(i, j, count, 0, 0) && holds(i, j, count, 0, 3999), "one row: %d", count);
    CHECK(gh_fingerprint_positions(5, 0, 0, 4, i, j) == 0, "an empty output has none");
}

static void test_take_and_diff(void)
{
    test_case tc;
    if (test_case_make(&tc, GH_F32, 0, 1, 40, 37, 29, -2.0, 0.5, 3, 4, 11) != 0) {
        CHECK(0, "allocating the case");
        return;
    }
    test_case_compute(&tc, 0);
    gh_verify_options opt = {.method = GH_VERIFY_FULL, .full_max_flops = 1e12, .seed = 11};
    gh_reference *ref = gh_reference_build(&tc.in, &opt);
    static gh_fingerprint x, y;
    gh_fingerprint_take(&x, ref, gh_arith_default(GH_F32), &tc.c, 11, 0);
    int values_ok = x.n == GH_FINGERPRINT_MAX, bounds_ok = 1;
    for (int p = 0; p < x.n; p++) {
        values_ok &= x.value[p] == gh_matrix_get(&tc.c, x.i[p], x.j[p]);
        bounds_ok &= x.bound[p] > 0 && x.bound[p] < 1e-4;
    }
    CHECK(values_ok, "the values are the output's at the positions");
    CHECK(bounds_ok, "every f32 bound is positive and small");
    test_case_compute(&tc, 1); /* K summed backwards: other roundings, within the bound */
    gh_fingerprint_take(&y, ref, gh_arith_default(GH_F32), &tc.c, 11, 0);
    int at = -2;
    double d = gh_fingerprint_diff(&x, &y, &at);
    CHECK(d < 1.0 && at >= 0, "another summation order: %.3g of the bound", d);
    CHECK(gh_fingerprint_diff(&x, &x, NULL) == 0.0, "a fingerprint against itself: 0");
    y.value[17] = x.value[17] + 3.0 * x.bound[17];
    d = gh_fingerprint_diff(&x, &y, &at);
    CHECK(d > 2.9 && at == 17, "a value moved by 3 bounds: %.3g at %d", d, at);
    y.value[17] = NAN;
    CHECK(isinf(gh_fingerprint_diff(&x, &y, NULL)), "a NaN against a number: inf");
    CHECK(gh_fingerprint_diff_at(NAN, 0, NAN, 0) == 0.0, "NaN against NaN: the same");
    CHECK(isinf(gh_fingerprint_diff_at(3, 0, 4, 0)) && gh_fingerprint_diff_at(3, 0, 3, 0) == 0.0,
          "i32 (bound 0): equal or inf");

    /* The results file's member: written, read back the same. */
    char *json = gh_fingerprint_json_append(strdup("{\"case_index\": 0, \"dtype\": \"f32\"}"), &y, GH_F32);
    json_error_t jerr;
    json_t *doc = json ? json_loads(json, 0, &jerr) : NULL;
    static gh_fingerprint back;
    char err[256] = "";
    CHECK(doc && gh_fingerprint_from_json(doc, &back, err, sizeof err) == 0, "written and read back %s", err);
    int same = back.n == y.n;
    for (int p = 0; same && p < y.n; p++)
        same = back.i[p] == y.i[p] && back.j[p] == y.j[p] &&
               (back.value[p] == y.value[p] || (isnan(back.value[p]) && isnan(y.value[p]))) &&
               fabs(back.bound[p] - y.bound[p]) <= 1e-3 * y.bound[p];
    CHECK(same, "the same positions, values (NaN too) and bounds (4 digits)");
    json_decref(doc);
    free(json);
    doc = json_loads("{\"fingerprint\": {\"at\": [0, 0, 1], \"value\": [1.5], \"bound\": [0.1]}}", 0, &jerr);
    CHECK(gh_fingerprint_from_json(doc, &back, err, sizeof err) != 0 && back.n == 0 && strstr(err, "unequal"),
          "a malformed fingerprint refused: %s", err);
    json_decref(doc);
    doc = json_loads("{\"case_index\": 0}", 0, &jerr);
    CHECK(gh_fingerprint_from_json(doc, &back, err, sizeof err) == 0 && back.n == 0, "an older file: no fingerprint");
    json_decref(doc);
    gh_reference_free(ref);
    test_case_free(&tc);
}

int main(void)
{
    test_positions();
    test_take_and_diff();
    return tests_finish("fingerprint");
}
