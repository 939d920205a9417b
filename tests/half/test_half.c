/*
 * gemmhost/half.h against references written another way: decoding through
 * ldexp of the fields, rounding through nearbyint of a scaled value (both in
 * f64, where every step is exact). Every one of the 65,536 patterns of f16
 * and bf16 is decoded and round-tripped; every midpoint between neighbours
 * (and just off it) is rounded from f64 and from f32, including the doubles
 * that a rounding through f32 would get wrong; then spot checks (overflow,
 * subnormals, NaN, signed zero) and seeded random sweeps, TF32 included.
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gemmhost/half.h"

#define CHECK_MAIN
#include "../check.h"

/* One 16-bit format, as the reference sees it and as half.h converts it. */
typedef struct {
    const char *name;
    int mant_bits, emin, emax;
    double (*to_f64)(uint16_t);
    float (*to_f32)(uint16_t);
    uint16_t (*from_f64)(double);
    uint16_t (*from_f32)(float);
} format;

static const format f16 = {"f16", 10, -14, 15, gh_f16_to_f64, gh_f16_to_f32, gh_f64_to_f16, gh_f32_to_f16};
static const format bf16 = {"bf16", 7, -126, 127, gh_bf16_to_f64, gh_bf16_to_f32, gh_f64_to_bf16, gh_f32_to_bf16};
/* TF32 has no 16-bit storage; only its rounding parameters are used. */
static const format tf32 = {"tf32", 10, -126, 127, NULL, NULL, NULL, NULL};

static int exp_ones(const format *f)
{
    return (1 << (15 - f->mant_bits)) - 1;
}

static uint16_t inf_pattern(const format *f)
{
    return (uint16_t)(exp_ones(f) << f->mant_bits);
}

static int is_nan_pattern(const format *f, uint16_t h)
{
    return (h & 0x7FFF) > inf_pattern(f);
}

static int is_quiet_nan(const format *f, uint16_t h)
{
    return is_nan_pattern(f, h) && (h >> (f->mant_bits - 1) & 1);
}

static double max_finite(const format *f)
{
    return ldexp(2.0 - ldexp(1.0, -f->mant_bits), f->emax);
}

/* The value of a pattern from its fields: (1.m or 0.m) * 2^e, by ldexp. */
static double ref_decode(const format *f, uint16_t h)
{
    int e = h >> f->mant_bits & exp_ones(f);
    int m = h & ((1 << f->mant_bits) - 1);
    double mag;
    if (e == exp_ones(f)) mag = m ? NAN : INFINITY;
    else if (e == 0) mag = ldexp(m, f->emin - f->mant_bits);
    else mag = ldexp(m + (1 << f->mant_bits), e - (1 - f->emin) - f->mant_bits);
    return (h & 0x8000) ? -mag : mag;
}

/* x rounded to the format (as a double, infinity past the largest finite):
 * scale so that the format's last kept bit is the units place, round to an
 * integer (nearbyint: to nearest even, the default mode), scale back. Exact
 * in f64: the scaled value has at most 53 bits. */
static double ref_round(const format *f, double x)
{
    if (isnan(x) || isinf(x) || x == 0) return x;
    int k;
    frexp(x, &k); /* |x| in [2^(k-1), 2^k) */
    int e = k - 1 < f->emin ? f->emin : k - 1;
    double r = ldexp(nearbyint(ldexp(x, f->mant_bits - e)), e - f->mant_bits);
    return fabs(r) > max_finite(f) ? copysign(INFINITY, x) : r;
}

/* Equal including the sign of zero; any NaN equals any NaN. */
static int same_value(double a, double b)
{
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    return a == b && signbit(a) == signbit(b);
}

/* Failures of one property, counted over a loop; the first one described. */
typedef struct {
    long tried, bad;
    char first[256];
} tally;

static CHECK_PRINTF(3, 4) void tally_add(tally *t, int ok, const char *fmt, ...)
{
    t->tried++;
    if (ok) return;
    if (t->bad++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(t->first, sizeof t->first, fmt, ap);
        va_end(ap);
    }
}

static void tally_verdict(const tally *t, const char *what, const char *fmt_name)
{
    EXPECT(t->bad == 0 && t->tried > 0, "%s %s: %ld of %ld wrong, first: %s", fmt_name, what, t->bad, t->tried,
           t->tried ? t->first : "nothing tried");
}

/* Every pattern widens exactly, to f64 and to f32. */
static void test_decode(const format *f)
{
    tally t = {0};
    for (uint32_t i = 0; i <= 0xFFFF; i++) {
        uint16_t h = (uint16_t)i;
        double want = ref_decode(f, h), got64 = f->to_f64(h), got32 = f->to_f32(h);
        tally_add(&t, same_value(got64, want) && same_value(got32, want), "0x%04x: f64 %a, f32 %a, want %a", h, got64,
                  (double)got32, want);
    }
    tally_verdict(&t, "decode of all 65536 patterns", f->name);
}

/* Widening then narrowing gives the pattern back; a NaN comes back a quiet
 * NaN of the same sign. */
static void test_round_trip(const format *f)
{
    tally values = {0}, nans = {0};
    for (uint32_t i = 0; i <= 0xFFFF; i++) {
        uint16_t h = (uint16_t)i;
        uint16_t via64 = f->from_f64(f->to_f64(h)), via32 = f->from_f32(f->to_f32(h));
        if (!is_nan_pattern(f, h)) {
            tally_add(&values, via64 == h && via32 == h, "0x%04x: via f64 0x%04x, via f32 0x%04x", h, via64, via32);
        } else {
            int ok = is_quiet_nan(f, via64) && is_quiet_nan(f, via32) && (via64 & 0x8000) == (h & 0x8000) &&
                     (via32 & 0x8000) == (h & 0x8000);
            tally_add(&nans, ok, "0x%04x: via f64 0x%04x, via f32 0x%04x (want a quiet NaN, same sign)", h, via64,
                      via32);
        }
    }
    tally_verdict(&values, "round trip through f64 and f32 of every non-NaN pattern", f->name);
    tally_verdict(&nans, "round trip of every NaN pattern stays a quiet NaN", f->name);
}

/* Calls fn(f, sign, lo, hi, v_lo, v_hi) for every pair of neighbouring
 * magnitudes lo, lo+1 from zero to the largest finite; the last pair's upper
 * neighbour is infinity, standing for 2^(emax+1), where rounding overflows. */
typedef void (*pair_fn)(const format *f, void *ctx, uint16_t lo, uint16_t hi, double v_lo, double v_hi);

static void for_each_pair(const format *f, pair_fn fn, void *ctx)
{
    for (uint16_t sign = 0;; sign = 0x8000) {
        for (uint16_t m = 0; m < inf_pattern(f); m++) {
            uint16_t lo = sign | m, hi = (uint16_t)(sign | (m + 1));
            double v_hi = m + 1 == inf_pattern(f) ? ldexp(1.0, f->emax + 1) : ref_decode(f, (uint16_t)(m + 1));
            fn(f, ctx, lo, hi, ref_decode(f, lo), sign ? -v_hi : v_hi);
        }
        if (sign) break;
    }
}

typedef struct {
    tally ties64, above64, below64, ties32, above32, below32;
} midpoint_tallies;

/* The midpoint goes to the even neighbour; a hair above it up, a hair below
 * it down: from f64 and from f32 (the midpoints are exact in both). */
static void check_midpoint(const format *f, void *ctx, uint16_t lo, uint16_t hi, double v_lo, double v_hi)
{
    midpoint_tallies *m = ctx;
    double mid = (v_lo + v_hi) / 2;
    uint16_t even = (lo & 1) ? hi : lo;
    uint16_t got = f->from_f64(mid);
    tally_add(&m->ties64, got == even, "%a (between 0x%04x and 0x%04x) gave 0x%04x", mid, lo, hi, got);
    double up = nextafter(mid, v_hi), down = nextafter(mid, v_lo);
    uint16_t got_up = f->from_f64(up), got_down = f->from_f64(down);
    tally_add(&m->above64, got_up == hi, "%a gave 0x%04x, want 0x%04x", up, got_up, hi);
    tally_add(&m->below64, got_down == lo, "%a gave 0x%04x, want 0x%04x", down, got_down, lo);

    float midf = (float)mid;
    got = f->from_f32(midf);
    tally_add(&m->ties32, (double)midf == mid && got == even, "%a (f32 %a) gave 0x%04x, want 0x%04x", mid, (double)midf,
              got, even);
    float upf = nextafterf(midf, (float)v_hi), downf = nextafterf(midf, (float)v_lo);
    got_up = f->from_f32(upf);
    got_down = f->from_f32(downf);
    tally_add(&m->above32, got_up == hi, "%a gave 0x%04x, want 0x%04x", (double)upf, got_up, hi);
    tally_add(&m->below32, got_down == lo, "%a gave 0x%04x, want 0x%04x", (double)downf, got_down, lo);
}

static void test_midpoints(const format *f)
{
    midpoint_tallies m = {0};
    for_each_pair(f, check_midpoint, &m);
    tally_verdict(&m.ties64, "f64 midpoints of all neighbours round to the even one", f->name);
    tally_verdict(&m.above64, "f64 just above each midpoint rounds up", f->name);
    tally_verdict(&m.below64, "f64 just below each midpoint rounds down", f->name);
    tally_verdict(&m.ties32, "f32 midpoints of all neighbours round to the even one", f->name);
    tally_verdict(&m.above32, "f32 just above each midpoint rounds up", f->name);
    tally_verdict(&m.below32, "f32 just below each midpoint rounds down", f->name);
}

/* A double a little off a midpoint, towards the odd neighbour, but so little
 * that as an f32 it IS the midpoint: rounded through f32 it would go to the
 * even neighbour; rounded once it must go to the odd one. */
static void check_double_rounding(const format *f, void *ctx, uint16_t lo, uint16_t hi, double v_lo, double v_hi)
{
    tally *t = ctx;
    double mid = (v_lo + v_hi) / 2;
    uint16_t odd = (lo & 1) ? lo : hi;
    double toward = odd == lo ? v_lo : v_hi;
    float amid = fabsf((float)mid);
    /* An eighth of the f32 ulp above |mid|: under half the ulp below it too
     * (which is half as large at a power of two). */
    double nudge = ((double)nextafterf(amid, INFINITY) - amid) / 8;
    double d = toward > mid ? mid + nudge : mid - nudge;
    uint16_t got = f->from_f64(d);
    tally_add(t, (double)(float)d == mid && got == odd, "%a (f32 %a, midpoint %a) gave 0x%04x, want 0x%04x", d,
              (double)(float)d, mid, got, odd);
}

static void test_double_rounding(const format *f)
{
    tally t = {0};
    for_each_pair(f, check_double_rounding, &t);
    tally_verdict(&t, "f64 values that round to a midpoint in f32 round once, to the nearer", f->name);
}

typedef struct {
    double in;
    uint16_t want;
} case16;

/* Each case from f64, and from f32 where the value is an f32. */
static void test_cases(const format *f, const char *what, const case16 *cases, int n)
{
    tally t = {0};
    for (int i = 0; i < n; i++) {
        uint16_t got = f->from_f64(cases[i].in);
        tally_add(&t, got == cases[i].want, "%a from f64 gave 0x%04x, want 0x%04x", cases[i].in, got, cases[i].want);
        float as_f32 = (float)cases[i].in;
        if ((double)as_f32 != cases[i].in) continue;
        got = f->from_f32(as_f32);
        tally_add(&t, got == cases[i].want, "%a from f32 gave 0x%04x, want 0x%04x", cases[i].in, got, cases[i].want);
    }
    tally_verdict(&t, what, f->name);
}

static void test_f16_cases(void)
{
    const case16 overflow[] = {
        {65504.0, 0x7BFF},  {65519.99, 0x7BFF},  {nextafter(65520.0, 0), 0x7BFF},
        {65520.0, 0x7C00},  {-65520.0, 0xFC00},  {-65519.99, 0xFBFF},
        {1e10, 0x7C00},     {DBL_MAX, 0x7C00},   {FLT_MAX, 0x7C00},
        {INFINITY, 0x7C00}, {-INFINITY, 0xFC00},
    };
    test_cases(&f16, "past the largest finite: 65504 up to just under 65520, infinity from 65520", overflow,
               (int)(sizeof overflow / sizeof *overflow));
    const case16 underflow[] = {
        {0x1p-24, 0x0001},
        {0x1p-25, 0x0000}, /* half the smallest subnormal: a tie, to the even zero */
        {nextafter(0x1p-25, 1), 0x0001},
        {-0x1p-25, 0x8000},
        {0x3p-25, 0x0002}, /* between 1 and 2 ulps: to the even 2 */
        {0x5p-25, 0x0002},
        {0x3FFp-24, 0x03FF},         /* the largest subnormal */
        {0x1p-14 - 0x1p-25, 0x0400}, /* between it and the smallest normal: to the even normal */
        {nextafter(0x1p-14 - 0x1p-25, 0), 0x03FF},
        {0x1p-14, 0x0400},
        {1e-300, 0x0000},
        {-1e-300, 0x8000},
        {0x1p-1074, 0x0000},
        {0.0, 0x0000},
        {-0.0, 0x8000},
        {0x1p-149, 0x0000}, /* the smallest f32 subnormal */
    };
    test_cases(&f16, "subnormals, underflow and signed zero", underflow, (int)(sizeof underflow / sizeof *underflow));
    const case16 ordinary[] = {
        {1.0, 0x3C00},
        {-2.0, 0xC000},
        {1 + 0x1p-11, 0x3C00},
        {1 + 0x3p-11, 0x3C02},
        {1 + 0x1p-11 + 0x1p-40, 0x3C01},
        {0.1, 0x2E66},
        {1.0 / 3, 0x3555},
        {-1.0 / 3, 0xB555},
        {1000.5, 0x63D1},
        {2049.0, 0x6800},
        {2051.0, 0x6802},
    };
    test_cases(&f16, "ordinary values and ties", ordinary, (int)(sizeof ordinary / sizeof *ordinary));
}

static void test_bf16_cases(void)
{
    const double bf16_max = 0x1.FEp127, past = 0x1.FFp127; /* past: halfway to 2^128 */
    const case16 overflow[] = {
        {bf16_max, 0x7F7F},  {nextafter(past, 0), 0x7F7F},
        {past, 0x7F80},      {-past, 0xFF80},
        {FLT_MAX, 0x7F80},   {DBL_MAX, 0x7F80},
        {0x1p128, 0x7F80},   {INFINITY, 0x7F80},
        {-INFINITY, 0xFF80},
    };
    test_cases(&bf16, "past the largest finite, from f64 and f32", overflow, (int)(sizeof overflow / sizeof *overflow));
    const case16 underflow[] = {
        {0x1p-133, 0x0001},
        {0x1p-134, 0x0000},
        {nextafter(0x1p-134, 1), 0x0001},
        {-0x1p-134, 0x8000},
        {0x3p-134, 0x0002},
        {0x1p-126, 0x0080},
        {0x1p-126 - 0x1p-134, 0x0080},
        {0x7Fp-133, 0x007F},
        {0x1p-149, 0x0000},
        {1e-300, 0x0000},
        {-1e-300, 0x8000},
        {0.0, 0x0000},
        {-0.0, 0x8000},
    };
    test_cases(&bf16, "subnormals, underflow and signed zero", underflow, (int)(sizeof underflow / sizeof *underflow));
    const case16 ordinary[] = {
        {1.0, 0x3F80}, {-2.0, 0xC000}, {1 + 0x1p-8, 0x3F80}, {1 + 0x3p-8, 0x3F82}, {1 + 0x1p-8 + 0x1p-40, 0x3F81},
        {0.1, 0x3DCD}, {3.0, 0x4040},  {1.0 / 3, 0x3EAB},
    };
    test_cases(&bf16, "ordinary values and ties", ordinary, (int)(sizeof ordinary / sizeof *ordinary));
}

/* NaNs of every kind, from f64 and f32 bits: a quiet NaN of the same sign,
 * never an infinity (a payload only in the low bits) nor a zero (a carry). */
static void test_nans(const format *f)
{
    const uint64_t nan64[] = {0x7FF8000000000000ull, 0x7FF0000000000001ull, 0xFFF0000000000001ull,
                              0x7FFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull, 0x7FF7FFFFFFFFFFFFull};
    const uint32_t nan32[] = {0x7FC00000u, 0x7F800001u, 0xFF800001u, 0x7FFFFFFFu,
                              0xFFFFFFFFu, 0x7FBFFFFFu, 0x7F808000u};
    tally t = {0};
    for (size_t i = 0; i < sizeof nan64 / sizeof *nan64; i++) {
        double d;
        memcpy(&d, &nan64[i], sizeof d);
        uint16_t got = f->from_f64(d);
        tally_add(&t, is_quiet_nan(f, got) && (got >> 15) == (nan64[i] >> 63), "f64 0x%016llx gave 0x%04x",
                  (unsigned long long)nan64[i], got);
    }
    for (size_t i = 0; i < sizeof nan32 / sizeof *nan32; i++) {
        float x;
        memcpy(&x, &nan32[i], sizeof x);
        uint16_t got = f->from_f32(x);
        tally_add(&t, is_quiet_nan(f, got) && (got >> 15) == (nan32[i] >> 31), "f32 0x%08x gave 0x%04x", nan32[i], got);
    }
    tally_verdict(&t, "NaN in, quiet NaN of the same sign out", f->name);
}

static void test_constants(void)
{
    EXPECT(is_quiet_nan(&f16, GH_F16_NAN) && !(GH_F16_NAN & 0x8000), "GH_F16_NAN 0x%04x is not a positive quiet NaN",
           GH_F16_NAN);
    EXPECT(is_quiet_nan(&bf16, GH_BF16_NAN) && !(GH_BF16_NAN & 0x8000),
           "GH_BF16_NAN 0x%04x is not a positive quiet NaN", GH_BF16_NAN);
    EXPECT(isnan(gh_f16_to_f64(GH_F16_NAN)) && isnan(gh_bf16_to_f32(GH_BF16_NAN)), "the NaN constants decode to %a, %a",
           gh_f16_to_f64(GH_F16_NAN), (double)gh_bf16_to_f32(GH_BF16_NAN));
    /* A unit roundoff is half the gap between 1 and the next value. */
    double u_f16 = (gh_f16_to_f64(0x3C01) - 1) / 2, u_bf16 = (gh_bf16_to_f64(0x3F81) - 1) / 2;
    double u_tf32 = ((double)gh_round_to_tf32(1 + 0x1.8p-11f) - 1) / 2; /* 3/4 of an ulp rounds up to one */
    EXPECT(GH_U_F16 == u_f16, "GH_U_F16 %a, want %a", GH_U_F16, u_f16);
    EXPECT(GH_U_BF16 == u_bf16, "GH_U_BF16 %a, want %a", GH_U_BF16, u_bf16);
    EXPECT(GH_U_TF32 == u_tf32, "GH_U_TF32 %a, want %a", GH_U_TF32, u_tf32);
    EXPECT(GH_U_F32 == FLT_EPSILON / 2, "GH_U_F32 %a, want %a", GH_U_F32, FLT_EPSILON / 2.0);
    EXPECT(GH_U_F64 == DBL_EPSILON / 2, "GH_U_F64 %a, want %a", GH_U_F64, DBL_EPSILON / 2);
}

static uint32_t f32_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static float bits_f32(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

static void test_tf32_cases(void)
{
    const float tf32_max = 0x1.FFCp127f;
    const struct {
        float in, want;
    } cases[] = {
        {1.0f, 1.0f},
        {1 + 0x1p-11f, 1.0f}, /* a tie: to even */
        {1 + 0x3p-11f, 1 + 0x1p-9f},
        {1 + 0x1p-11f + 0x1p-23f, 1 + 0x1p-10f},
        {-(1 + 0x1p-11f + 0x1p-23f), -(1 + 0x1p-10f)},
        {0x1.FFFFFEp0f, 2.0f},
        {tf32_max, tf32_max},
        {nextafterf(0x1.FFEp127f, 0), tf32_max},
        {0x1.FFEp127f, INFINITY}, /* halfway from the largest TF32 to 2^128: to even */
        {FLT_MAX, INFINITY},
        {-FLT_MAX, -INFINITY},
        {INFINITY, INFINITY},
        {-INFINITY, -INFINITY},
        {0x1p-149f, 0.0f},
        {0x1p-136f, 0x1p-136f}, /* the smallest TF32 subnormal */
        {0x3p-137f, 0x1p-135f},
        {0.0f, 0.0f},
        {-0.0f, -0.0f},
    };
    tally t = {0};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        float got = gh_round_to_tf32(cases[i].in);
        tally_add(&t, f32_bits(got) == f32_bits(cases[i].want), "%a gave %a, want %a", (double)cases[i].in, (double)got,
                  (double)cases[i].want);
    }
    const uint32_t nans[] = {0x7FC00000u, 0x7F800001u, 0xFFFFFFFFu, 0x7FBFFFFFu, 0x7F801000u};
    for (size_t i = 0; i < sizeof nans / sizeof *nans; i++) {
        uint32_t got = f32_bits(gh_round_to_tf32(bits_f32(nans[i])));
        tally_add(&t, got == nans[i], "NaN 0x%08x came back 0x%08x", nans[i], got);
    }
    tally_verdict(&t, "spot checks: ties, carries, overflow, subnormals, NaN unchanged", "tf32");
}

/* splitmix64: a fixed seed, the same numbers everywhere. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A random double with an exponent around the format's range (past both
 * ends) and all 52 mantissa bits random; cut to 23 bits for an f32. */
static double random_in_range(const format *f, uint64_t *state, int f32)
{
    uint64_t r = next_random(state);
    int lo = f->emin - f->mant_bits - 3, hi = f->emax + 2;
    int e = lo + (int)((r >> 53) % (uint64_t)(hi - lo + 1));
    double m = 1 + ldexp((double)(r & 0xFFFFFFFFFFFFFull), -52);
    if (f32) m = 1 + ldexp((double)(r & 0x7FFFFF), -23);
    double x = ldexp(m, e);
    if (f32 && e < -126) x = (double)(float)x; /* an f32 subnormal keeps fewer bits */
    return (r >> 52 & 1) ? -x : x;
}

static void test_random(const format *f)
{
    uint64_t state = 0x9A1F16ull;
    tally from64 = {0}, from32 = {0}, bits32 = {0};
    for (int i = 0; i < 1 << 17; i++) {
        double d = random_in_range(f, &state, 0);
        double want = ref_round(f, d), got = ref_decode(f, f->from_f64(d));
        tally_add(&from64, same_value(got, want), "%a gave %a, want %a", d, got, want);

        float x = (float)random_in_range(f, &state, 1);
        want = ref_round(f, x);
        got = ref_decode(f, f->from_f32(x));
        tally_add(&from32, same_value(got, want), "%a gave %a, want %a", (double)x, got, want);

        /* Any f32 bits: from f32 and from its exact f64 alike. */
        x = bits_f32((uint32_t)next_random(&state));
        want = ref_round(f, x);
        uint16_t via32 = f->from_f32(x), via64 = f->from_f64(x);
        tally_add(&bits32, same_value(ref_decode(f, via32), want) && same_value(ref_decode(f, via64), want),
                  "f32 0x%08x gave 0x%04x from f32, 0x%04x from f64, want %a", f32_bits(x), via32, via64, want);
    }
    tally_verdict(&from64, "random f64 around the range against the reference rounding", f->name);
    tally_verdict(&from32, "random f32 around the range against the reference rounding", f->name);
    tally_verdict(&bits32, "random f32 bit patterns, from f32 and from f64", f->name);
}

static void test_tf32_random(void)
{
    uint64_t state = 0x7F32ull;
    tally any = {0}, ties = {0};
    for (int i = 0; i < 1 << 17; i++) {
        uint64_t r = next_random(&state);
        /* Any bits; then the same with the dropped 13 bits an exact tie. */
        for (int tie = 0; tie <= 1; tie++) {
            uint32_t u = tie ? ((uint32_t)r & ~0x1FFFu) | 0x1000u : (uint32_t)r;
            float x = bits_f32(u), got = gh_round_to_tf32(x);
            if (isnan(x)) {
                tally_add(tie ? &ties : &any, f32_bits(got) == u, "NaN 0x%08x came back 0x%08x", u, f32_bits(got));
                continue;
            }
            double want = ref_round(&tf32, x);
            tally_add(tie ? &ties : &any, same_value(got, want), "0x%08x (%a) gave %a, want %a", u, (double)x,
                      (double)got, want);
        }
    }
    tally_verdict(&any, "random f32 bit patterns against the reference rounding", "tf32");
    tally_verdict(&ties, "random exact ties against the reference rounding", "tf32");
}

int main(void)
{
    check_quiet = 1; /* failures and the summary only */
    const format *formats[] = {&f16, &bf16};
    for (int i = 0; i < 2; i++) {
        test_decode(formats[i]);
        test_round_trip(formats[i]);
        test_midpoints(formats[i]);
        test_double_rounding(formats[i]);
        test_nans(formats[i]);
        test_random(formats[i]);
    }
    test_f16_cases();
    test_bf16_cases();
    test_constants();
    test_tf32_cases();
    test_tf32_random();
    return check_summary("half");
}
