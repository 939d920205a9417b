/*
 * gemmhost/fp8.h: the two OCP 8-bit float formats, converted exactly once.
 * Header-only (static inline, C11, libc only), installed beside plugin.h,
 * for the host and for plugins alike (and small enough to copy into a
 * kernel language: the decoders are a handful of integer operations).
 *
 *   e4m3  1 sign, 4 exponent (bias 7),  3 mantissa bits; no infinity, the
 *         one NaN per sign is S.1111.111; largest finite 448; smallest
 *         subnormal 2^-9
 *   e5m2  1 sign, 5 exponent (bias 15), 2 mantissa bits; IEEE-like: infinity
 *         S.11111.00, NaN S.11111.xx (xx != 0); largest finite 57344;
 *         smallest subnormal 2^-16
 *
 *   gh_e4m3_to_f64, gh_e5m2_to_f64   exact (every 8-bit value is an f32)
 *   gh_f64_to_e4m3, gh_f64_to_e5m2   round to nearest, ties to even, once;
 *                                    beyond the largest finite value: e4m3
 *                                    gives NaN (it has no infinity), e5m2
 *                                    infinity (as the OCP conversions
 *                                    without saturation do)
 */
#ifndef GEMMHOST_FP8_H
#define GEMMHOST_FP8_H

#include <math.h>
#include <stdint.h>

#define GH_E4M3_NAN 0x7Fu /* the poison of e4m3 buffers */
#define GH_E5M2_NAN 0x7Eu /* a quiet NaN: the poison of e5m2 buffers */
#define GH_E4M3_MAX 448.0
#define GH_E5M2_MAX 57344.0
#define GH_U_E4M3   (0x1p-4) /* unit roundoffs: half an ulp of 1 */
#define GH_U_E5M2   (0x1p-3)

/* One decoder for both: `mbits` mantissa bits, exponent bias `bias`,
 * `ieee` when the all-ones exponent holds infinity and NaN (e5m2). */
static inline double gh_fp8_decode(uint8_t v, int mbits, int bias, int ieee)
{
    const int ebits = 7 - mbits;
    const unsigned exp = (v >> mbits) & ((1u << ebits) - 1u);
    const unsigned mant = v & ((1u << mbits) - 1u);
    const double sign = (v & 0x80u) ? -1.0 : 1.0;
    const unsigned exp_max = (1u << ebits) - 1u;
    if (ieee && exp == exp_max) return mant ? NAN : sign * INFINITY;
    if (!ieee && exp == exp_max && mant == (1u << mbits) - 1u) return NAN;
    if (exp == 0) return sign * ldexp((double)mant, 1 - bias - mbits);
    return sign * ldexp((double)((1u << mbits) | mant), (int)exp - bias - mbits);
}

static inline double gh_e4m3_to_f64(uint8_t v)
{
    return gh_fp8_decode(v, 3, 7, 0);
}
static inline double gh_e5m2_to_f64(uint8_t v)
{
    return gh_fp8_decode(v, 2, 15, 1);
}

/* Round |x| to nearest even on the grid of a format with `mbits` mantissa
 * bits and smallest normal exponent `emin`; returns the encoded magnitude
 * (exponent and mantissa fields), which may spill past the largest finite
 * value: the caller decides what overflow becomes. */
static inline unsigned gh_fp8_round_magnitude(double ax, int mbits, int bias)
{
    const int emin = 1 - bias;
    int e;
    frexp(ax, &e);
    e -= 1; /* ax = 1.f * 2^e */
    if (e < emin) e = emin;
    /* ax / ulp, where ulp = 2^(e - mbits); exact in double */
    double scaled = ldexp(ax, mbits - e);
    double q = nearbyint(scaled); /* the default rounding mode: to nearest even */
    unsigned units = (unsigned)q; /* (1 << mbits) .. (2 << mbits) for a normal, less for a subnormal */
    if (units == 0) return 0;
    if (units < (1u << mbits)) return units; /* subnormal: exponent field 0 */
    if (units == (2u << mbits)) {            /* rounded up to the next binade */
        units >>= 1;
        e += 1;
    }
    return (unsigned)(e + bias) << mbits | (units & ((1u << mbits) - 1u));
}

static inline uint8_t gh_f64_to_e4m3(double x)
{
    if (isnan(x)) return GH_E4M3_NAN;
    const uint8_t sign = signbit(x) ? 0x80u : 0u;
    const double ax = fabs(x);
    if (ax > GH_E4M3_MAX) {
        /* 464 (halfway to the next step, 480) and above round past 448 */
        if (ax >= 464.0) return (uint8_t)(sign | 0x7Fu);
        return (uint8_t)(sign | 0x7Eu);
    }
    return (uint8_t)(sign | gh_fp8_round_magnitude(ax, 3, 7));
}

static inline uint8_t gh_f64_to_e5m2(double x)
{
    if (isnan(x)) return GH_E5M2_NAN;
    const uint8_t sign = signbit(x) ? 0x80u : 0u;
    const double ax = fabs(x);
    if (ax >= 61440.0) return (uint8_t)(sign | 0x7Cu); /* halfway past 57344: infinity */
    return (uint8_t)(sign | gh_fp8_round_magnitude(ax, 2, 15));
}

#endif /* GEMMHOST_FP8_H */
