/* The probe's catalogue of crafted cases; see probe_case.h for what each
 * holds and docs/probe.md for why each isolates one property. Every value
 * is a small sum of powers of two inside the format's normal range, so it
 * is stored exactly and survives any input rounding the case does not aim
 * at. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "probe_case.h"

probe_case *probe_case_input_bits(const probe_format *f)
{
    const int p = f->mantissa;
    probe_case *c = probe_case_new("input_bits", f->dtype, p + 1, p + 1, 1,
                                   "K = 1: C[t][0] = A[t] * 1 and C[0][t] = 1 * B[t] with A[t] = B[t] = 1 + 2^-t: "
                                   "the largest t that comes back is the bits the multiplier sees");
    for (int t = 0; t <= p; t++) {
        const double v = t == 0 ? 1.0 : 1.0 + ldexp(1.0, -t);
        PROBE_A(c, t, 0) = v;
        PROBE_B(c, 0, t) = v;
    }
    return c;
}

probe_case *probe_case_input_mode(const probe_format *f, int t)
{
    probe_case *c = probe_case_new("input_rounding", f->dtype, 4, 1, 1,
                                   "K = 1, B = 1: A = 1 + 3/4 unit, -(1 + 3/4 unit), 1 + 1/2 unit (a tie below an "
                                   "even value) and 1 + 1/4 unit of a t-bit input: where each lands is the rounding");
    const double unit = ldexp(1.0, -t);
    PROBE_A(c, 0, 0) = 1.0 + 0.75 * unit;
    PROBE_A(c, 1, 0) = -(1.0 + 0.75 * unit);
    PROBE_A(c, 2, 0) = 1.0 + 0.5 * unit;
    PROBE_A(c, 3, 0) = 1.0 + 0.25 * unit;
    PROBE_B(c, 0, 0) = 1.0;
    return c;
}

probe_case *probe_case_input_range(const probe_format *f)
{
    const int rows = f->emax > 127 ? 4 : 2;
    probe_case *c = probe_case_new("input_range", f->dtype, rows, 1, 1,
                                   "K = 1, B = 1: A = 2^17 and 2^-26 (past f16's largest and below its smallest "
                                   "subnormal) and for f64 2^200 and 2^-200 (past f32's): C is A exactly when the "
                                   "multiplier has the storage type's exponent range");
    const int e[4] = {17, -26, 200, -200};
    for (int r = 0; r < rows; r++) PROBE_A(c, r, 0) = ldexp(1.0, e[r]);
    PROBE_B(c, 0, 0) = 1.0;
    return c;
}

/* How far below big the accumulator cases look: enough for an f64 sum of
 * f32 inputs (53 bits) and for an f32 sum of 16-bit inputs. */
static int acc_want(const probe_format *f)
{
    return 2 * f->mantissa + 8 > 30 ? 2 * f->mantissa + 8 : 30;
}

/* 1 where the format allows it; f16 takes its largest power of two to see
 * an f32 sum's 23 bits above its smallest normal. */
static int acc_big_exponent(const probe_format *f)
{
    int e = f->emin + acc_want(f) > 0 ? f->emin + acc_want(f) : 0;
    return e > f->emax ? f->emax : e;
}

double probe_acc_big(const probe_format *f)
{
    return ldexp(1.0, acc_big_exponent(f));
}

int probe_acc_max_j(const probe_format *f)
{
    const int room = acc_big_exponent(f) - f->emin; /* big 2^-j stays normal */
    return room < acc_want(f) ? room : acc_want(f);
}

probe_case *probe_case_acc_bits(const probe_format *f)
{
    const int J = probe_acc_max_j(f);
    const double big = probe_acc_big(f);
    probe_case *c = probe_case_new("acc_bits", f->dtype, 2 * J, 1, 3,
                                   "K = 3, rows 2j-2 and 2j-1: (big, +-big 2^-j, -big) . (1, 1, 1): every input is a "
                                   "power of two (exact in any input format) and -big cancels big exactly, so big 2^-j "
                                   "comes back only where the running sum kept j bits below big; both signs, so that "
                                   "a sum that starts from -big (the other order) is read the same");
    for (int j = 1; j <= J; j++)
        for (int sign = 0; sign < 2; sign++) {
            const int64_t r = 2 * (j - 1) + sign;
            PROBE_A(c, r, 0) = big;
            PROBE_A(c, r, 1) = sign ? -ldexp(big, -j) : ldexp(big, -j);
            PROBE_A(c, r, 2) = -big;
        }
    for (int p = 0; p < 3; p++) PROBE_B(c, p, 0) = 1.0;
    return c;
}

probe_case *probe_case_acc_mode(const probe_format *f, int m)
{
    const double big = probe_acc_big(f), frac = 0.625 * ldexp(big, -m);
    probe_case *c = probe_case_new("acc_rounding", f->dtype, 2, 1, 3,
                                   "K = 3: (big, 5/8 unit of the m-bit sum, -big) and (-big, 5/8 unit, big): to "
                                   "nearest one row gives 1 unit and the other 1/2 (5/8 below big, where units are "
                                   "halves), toward zero 0 and 1 unit, in either order over K");
    const double row[2][3] = {{big, frac, -big}, {-big, frac, big}};
    for (int i = 0; i < 2; i++)
        for (int p = 0; p < 3; p++) PROBE_A(c, i, p) = row[i][p];
    for (int p = 0; p < 3; p++) PROBE_B(c, p, 0) = 1.0;
    return c;
}

probe_case *probe_case_promotion(const probe_format *f, int m, int length, double *s)
{
    const double big = probe_acc_big(f);
    *s = ldexp(big, -(m + 2));
    probe_case *c = probe_case_new("acc_promotion", f->dtype, length, 1, length,
                                   "K = L, row r: big, then r copies of s = big 2^-(m+2) (lost next to big in the "
                                   "m-bit sum), then zeros: a narrow sum added into a full one every P steps keeps "
                                   "the copies after the first P, so the count kept steps up at r = P");
    for (int r = 0; r < length; r++) {
        PROBE_A(c, r, 0) = big;
        for (int p = 1; p <= r; p++) PROBE_A(c, r, p) = *s;
    }
    for (int p = 0; p < length; p++) PROBE_B(c, p, 0) = 1.0;
    return c;
}

probe_case *probe_case_fused(const probe_format *f, int t)
{
    probe_case *c = probe_case_new("products", f->dtype, 2, 2, 2,
                                   "K = 2: C[0][0] = -1 + (1 + 2^-t)(1 - 2^-t) and C[1][1] the same with -1 last; the "
                                   "product 1 - 2^-2t needs 2t bits: rounded first it is 1 and C is 0, fused into the "
                                   "sum C is -2^-2t");
    const double hi = 1.0 + ldexp(1.0, -t), lo = 1.0 - ldexp(1.0, -t);
    (void)f;
    PROBE_A(c, 0, 0) = -1.0;
    PROBE_A(c, 0, 1) = hi;
    PROBE_A(c, 1, 0) = hi;
    PROBE_A(c, 1, 1) = -1.0;
    PROBE_B(c, 0, 0) = 1.0;
    PROBE_B(c, 1, 0) = lo;
    PROBE_B(c, 0, 1) = lo;
    PROBE_B(c, 1, 1) = 1.0;
    return c;
}

probe_case *probe_case_subnormal_inputs(const probe_format *f, double *sub)
{
    *sub = ldexp(1.0, f->emin - 4);
    probe_case *c = probe_case_new("subnormal_inputs", f->dtype, 2, 2, 1,
                                   "K = 1: C[0][0] = sub * 2^6 and C[1][1] = 2^6 * sub with sub = 2^(emin-4) a "
                                   "subnormal input: the products are normal, so 0 means the input was flushed");
    PROBE_A(c, 0, 0) = *sub;
    PROBE_A(c, 1, 0) = 64.0;
    PROBE_B(c, 0, 0) = 64.0;
    PROBE_B(c, 0, 1) = *sub;
    return c;
}

probe_case *probe_case_subnormal_results(const probe_format *f, double *expected)
{
    const int e = f->emin - 4, ea = e / 2;
    *expected = ldexp(1.0, e);
    probe_case *c = probe_case_new("subnormal_results", f->dtype, 1, 1, 1,
                                   "K = 1: 2^a * 2^b, both normal, whose product 2^(emin-4) is subnormal in C: 0 "
                                   "means the result was flushed");
    PROBE_A(c, 0, 0) = ldexp(1.0, ea);
    PROBE_B(c, 0, 0) = ldexp(1.0, e - ea);
    return c;
}

probe_case *probe_case_special_in(const probe_format *f, int in_b, double value)
{
    char name[48];
    snprintf(name, sizeof name, "%s_in_%s", isnan(value) ? "nan" : value > 0 ? "inf" : "minus_inf", in_b ? "b" : "a");
    probe_case *c = probe_case_new(name, f->dtype, 3, 3, 3,
                                   "3 x 3 x 3 of ones, one special value at (1, 1) of A (B): IEEE puts it in all of "
                                   "C's row 1 (column 1) and leaves every other element 3");
    for (int i = 0; i < 9; i++) c->a[i] = c->b[i] = 1.0;
    if (in_b) PROBE_B(c, 1, 1) = value;
    else PROBE_A(c, 1, 1) = value;
    return c;
}

probe_case *probe_case_inf_arith(const probe_format *f)
{
    probe_case *c = probe_case_new("inf_arith", f->dtype, 2, 2, 2,
                                   "K = 2: C[0][0] = inf*0 + 0*1 (NaN), C[0][1] = inf*1 + 0*1 (inf), C[1][1] = inf*1 "
                                   "+ (-inf)*1 (NaN)");
    PROBE_A(c, 0, 0) = INFINITY;
    PROBE_A(c, 0, 1) = 0.0;
    PROBE_A(c, 1, 0) = INFINITY;
    PROBE_A(c, 1, 1) = -INFINITY;
    PROBE_B(c, 0, 0) = 0.0;
    PROBE_B(c, 0, 1) = 1.0;
    PROBE_B(c, 1, 0) = 1.0;
    PROBE_B(c, 1, 1) = 1.0;
    return c;
}

probe_case *probe_case_overflow(const probe_format *f)
{
    probe_case *c = probe_case_new("overflow", f->dtype, 2, 1, 2,
                                   "K = 2: (max, max) . (1, 1) and its negation: each product is finite, the sum is "
                                   "past the largest finite value (IEEE: +-inf)");
    PROBE_A(c, 0, 0) = PROBE_A(c, 0, 1) = f->max;
    PROBE_A(c, 1, 0) = PROBE_A(c, 1, 1) = -f->max;
    PROBE_B(c, 0, 0) = PROBE_B(c, 1, 0) = 1.0;
    return c;
}

void probe_order_pair(int row, int *first, int *second)
{
    static const int pairs[PROBE_ORDER_ROWS][2] = {{0, 1},  {1, 0},  {0, 15}, {14, 15},
                                                   {5, 10}, {10, 5}, {7, 8},  {3, 12}};
    *first = pairs[row][0];
    *second = pairs[row][1];
}

probe_case *probe_case_order(const probe_format *f, int m, double *u)
{
    /* big absorbs up to 14 u in an m-bit sum: half its unit is 32 u */
    const int gap = m + 6;
    int e_u = f->emax - gap < 0 ? f->emax - gap : 0;
    if (e_u < f->emin) return NULL;
    *u = ldexp(1.0, e_u);
    const double big = ldexp(*u, gap);
    probe_case *c = probe_case_new("order", f->dtype, PROBE_ORDER_ROWS, 1, PROBE_ORDER_K,
                                   "K = 16, row r: big at one position, -big at another, u elsewhere (B = 1): u added "
                                   "while big is in the sum (or to a partial sum big later joins) is lost, so the "
                                   "count of u kept in each row traces the order over K");
    for (int r = 0; r < PROBE_ORDER_ROWS; r++) {
        int i, j;
        probe_order_pair(r, &i, &j);
        for (int p = 0; p < PROBE_ORDER_K; p++) PROBE_A(c, r, p) = p == i ? big : p == j ? -big : *u;
    }
    for (int p = 0; p < PROBE_ORDER_K; p++) PROBE_B(c, p, 0) = 1.0;
    return c;
}

/* The largest power of two both the 8-bit input and C hold: big = 2^2e. */
static int exponent_8bit(const probe_format *in, const probe_format *out)
{
    int e = in->emax - 1;
    while (2 * e > out->emax - 1) e--;
    return e;
}

probe_case *probe_case_acc_bits_8bit(const probe_format *in, const probe_format *out, int *e, int *max_i, int *max_j)
{
    *e = exponent_8bit(in, out);
    *max_i = *e - in->emin; /* 2^(e-i) stays normal */
    *max_j = -in->emin;     /* 2^-j too */
    const int rows = 2 * (*max_i + 1), cols = *max_j + 1;
    probe_case *c = probe_case_new("acc_bits_8bit", in->dtype, rows, cols, 3,
                                   "K = 3, rows 2i and 2i+1: (2^e, +-2^(e-i), -2^e), column j: (2^e, 2^-j, 2^e): "
                                   "C[.][j] is +-2^(2e) 2^-(e+i+j) exactly when the running sum kept e+i+j bits "
                                   "below big = 2^2e; every input a normal 8-bit power of two");
    c->c_dtype = out->dtype;
    c->b_dtype = in->dtype;
    for (int i = 0; i <= *max_i; i++)
        for (int sign = 0; sign < 2; sign++) {
            PROBE_A(c, 2 * i + sign, 0) = ldexp(1.0, *e);
            PROBE_A(c, 2 * i + sign, 1) = (sign ? -1 : 1) * ldexp(1.0, *e - i);
            PROBE_A(c, 2 * i + sign, 2) = -ldexp(1.0, *e);
        }
    for (int j = 0; j <= *max_j; j++) {
        PROBE_B(c, 0, j) = ldexp(1.0, *e);
        PROBE_B(c, 1, j) = ldexp(1.0, -j);
        PROBE_B(c, 2, j) = ldexp(1.0, *e);
    }
    return c;
}

probe_case *probe_case_promotion_8bit(const probe_format *in, const probe_format *out, int m, int length, double *big,
                                      double *s)
{
    const int e = exponent_8bit(in, out), gap = m + 2; /* s = big 2^-(m+2) = 2^(e-ga) * 2^(e-gb) */
    int ga = gap / 2, gb = gap - ga;
    if (e - ga < in->emin || e - gb < in->emin) return NULL;
    *big = ldexp(1.0, 2 * e);
    *s = ldexp(*big, -gap);
    probe_case *c = probe_case_new("acc_promotion_8bit", in->dtype, length, 1, length,
                                   "K = L, row r: (2^e, r copies of 2^(e-a), zeros) . (2^e, 2^(e-b), ...): big = 2^2e "
                                   "then r products s = big 2^-(m+2), lost next to big in the m-bit sum; a promotion "
                                   "every P steps keeps those after the first P");
    c->c_dtype = out->dtype;
    for (int r = 0; r < length; r++) {
        PROBE_A(c, r, 0) = ldexp(1.0, e);
        for (int p = 1; p <= r; p++) PROBE_A(c, r, p) = ldexp(1.0, e - ga);
    }
    PROBE_B(c, 0, 0) = ldexp(1.0, e);
    for (int p = 1; p < length; p++) PROBE_B(c, p, 0) = ldexp(1.0, e - gb);
    return c;
}

probe_case *probe_case_int(void)
{
    probe_case *c = probe_case_new("int_overflow", GH_I32, 5, 2, 3,
                                   "i32, K = 3: C[0][0] = 2^30 + 2^30, C[1][0] = -2^30 - 2^30 - 1, C[2][1] = 2^16 * "
                                   "2^16, C[3][0] = 2^24 + 1 (lost by an f32 path), C[4][0] = 2^30 + 2^30 - 2^30 "
                                   "(overflows on the way only)");
    const double t30 = ldexp(1.0, 30), t16 = 65536.0;
    const double rows[5][3] = {{t30, t30, 0}, {-t30, -t30, -1}, {t16, 0, 0}, {16777217.0, 0, 0}, {t30, t30, -t30}};
    for (int i = 0; i < 5; i++)
        for (int p = 0; p < 3; p++) PROBE_A(c, i, p) = rows[i][p];
    for (int p = 0; p < 3; p++) PROBE_B(c, p, 0) = 1.0;
    PROBE_B(c, 0, 1) = t16;
    return c;
}

probe_case *probe_case_int8(void)
{
    probe_case *c = probe_case_new("int8_sums", GH_I8, 2, 2, PROBE_I8_K,
                                   "i8 into i32, K = 2^17 + 2^10: C[0][0] = K products (-128)(-128) = 2^31 + 2^24, "
                                   "past i32's range; C[1][1] = 1024 of them and 1 * 1 = 2^24 + 1, lost by an f32 "
                                   "path (A row 0 and B column 0 all -128; A row 1 and B column 1 -128 for k < 1024, "
                                   "1 at k = 1024, 0 after)");
    c->b_dtype = GH_I8;
    c->c_dtype = GH_I32;
    for (int64_t p = 0; p < PROBE_I8_K; p++) {
        const double second = p < 1024 ? -128.0 : p == 1024 ? 1.0 : 0.0;
        PROBE_A(c, 0, p) = -128.0;
        PROBE_B(c, p, 0) = -128.0;
        PROBE_A(c, 1, p) = second;
        PROBE_B(c, p, 1) = second;
    }
    return c;
}
