/*
 * gemmhost/half.h: the 16-bit float formats, converted once and exactly.
 * Header-only (static inline, C11, libc only), installed beside
 * plugin.h, for the host and for plugins alike.
 *
 *   f16   IEEE binary16: 1 sign, 5 exponent, 10 mantissa bits
 *   bf16  bfloat16:      1 sign, 8 exponent,  7 mantissa bits (the top half of an f32)
 *   tf32  what tensor cores multiply: an f32 rounded to 10 mantissa bits
 *
 *   gh_f16_to_f32/f64, gh_bf16_to_f32/f64   exact (every 16-bit value is an f32)
 *   gh_f32_to_f16/bf16, gh_f64_to_f16/bf16  round to nearest, ties to even, once
 *   gh_round_to_tf32                        an f32 rounded to TF32, kept as f32
 *
 * Narrowing rounds to nearest even with gradual underflow (subnormals), sends
 * what rounds past the largest finite value to infinity, keeps the sign of
 * zero, and keeps a NaN a NaN: quiet, with its sign and its payload's top bits.
 */
#ifndef GEMMHOST_HALF_H
#define GEMMHOST_HALF_H

#include <stdint.h>
#include <string.h>

#define GH_F16_NAN  0x7E00u /* quiet NaN: the poison of f16 buffers */
#define GH_BF16_NAN 0x7FC0u /* quiet NaN: the poison of bf16 buffers */

/* Unit roundoffs: half an ulp of 1, the relative error of one rounding. */
#define GH_U_F16            (0x1p-11)
#define GH_U_BF16           (0x1p-8)
#define GH_U_TF32           (0x1p-11)
#define GH_U_TF32_TRUNCATED (0x1p-10) /* dropped bits: up to a whole ulp */
#define GH_U_F32            (0x1p-24)
#define GH_U_F64            (0x1p-53)

static inline uint32_t gh_half_f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float gh_half_bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* ---- widening: exact ---- */

static inline float gh_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t mant = h & 0x3FFu;
    if (exp == 0x1F) return gh_half_bits_f32(sign | 0x7F800000u | mant << 13); /* inf, NaN with its payload */
    if (exp == 0) {
        /* Zero or subnormal: mant * 2^-24 is exact, and a normal f32. */
        float mag = (float)mant * 0x1p-24f;
        return sign ? -mag : mag;
    }
    /* Normal: rebias the exponent (15 -> 127), widen the mantissa (10 -> 23 bits). */
    return gh_half_bits_f32(sign | (exp + 112u) << 23 | mant << 13);
}

static inline double gh_f16_to_f64(uint16_t h)
{
    return (double)gh_f16_to_f32(h);
}

/* bf16 is the top half of an f32: widening appends 16 zero bits. */
static inline float gh_bf16_to_f32(uint16_t b)
{
    return gh_half_bits_f32((uint32_t)b << 16);
}

static inline double gh_bf16_to_f64(uint16_t b)
{
    return (double)gh_bf16_to_f32(b);
}

/* ---- narrowing: round to nearest even, once ---- */

/*
 * A double rounded straight to a 16-bit format with `mant_bits` mantissa bits
 * and normal exponents emin..emax (f16: 10, -14, 15; bf16: 7, -126, 127).
 * Rounding from the double's own 53 bits, never through an f32: rounding
 * twice can land a value just off a midpoint on the midpoint, then on the
 * wrong side of it.
 */
static inline uint16_t gh_half_round_f64(double d, int mant_bits, int emin, int emax)
{
    uint64_t x;
    memcpy(&x, &d, sizeof x);
    uint16_t sign = (uint16_t)(x >> 48 & 0x8000u);
    uint64_t frac = x & 0xFFFFFFFFFFFFFull;
    int e = (int)(x >> 52 & 0x7FF) - 1023;
    uint16_t inf = (uint16_t)((emax - emin + 2) << mant_bits); /* exponent field all ones */
    if (e == 1024) {
        if (frac == 0) return sign | inf;
        /* NaN: set the quiet bit (the top mantissa bit), so it stays a NaN
         * whatever of the payload survives the shift. */
        return sign | inf | (uint16_t)(1u << (mant_bits - 1)) | (uint16_t)(frac >> (52 - mant_bits));
    }
    if (e > emax) return sign | inf;
    /* Below half the smallest subnormal (2^(emin-mant_bits-1)) everything is
     * nearer zero (double subnormals included); exactly half is a tie that
     * goes to zero, the even one, and is handled below. */
    if (e < emin - mant_bits - 1) return sign;

    uint64_t sig = frac | 1ull << 52; /* the 53-bit significand, leading 1 included */
    /* Bits to drop: those the format lacks, plus one per step below emin
     * (subnormals keep fewer bits). At most 52 - mant_bits + mant_bits + 1 = 53. */
    int drop = 52 - mant_bits + (e < emin ? emin - e : 0);
    uint64_t kept = sig >> drop;
    uint64_t rest = sig & ((1ull << drop) - 1);
    uint64_t half = 1ull << (drop - 1);
    if (rest > half || (rest == half && (kept & 1))) kept++;
    /* For a normal value `kept` still holds the leading 1 at bit mant_bits:
     * adding it to the biased exponent minus one gives the field and the
     * mantissa at once. A carry out of the mantissa (rounding up to the next
     * power of two) then bumps the exponent, from the largest subnormal to the
     * smallest normal, or from the largest finite to infinity: both right. */
    uint64_t base = e < emin ? 0 : (uint64_t)(e - emin) << mant_bits;
    return sign | (uint16_t)(base + kept);
}

static inline uint16_t gh_f64_to_f16(double d)
{
    return gh_half_round_f64(d, 10, -14, 15);
}

static inline uint16_t gh_f64_to_bf16(double d)
{
    return gh_half_round_f64(d, 7, -126, 127);
}

/* f32 -> f64 is exact, so this rounds once, from the float's own value. */
static inline uint16_t gh_f32_to_f16(float f)
{
    return gh_f64_to_f16((double)f);
}

static inline uint16_t gh_f32_to_bf16(float f)
{
    uint32_t u = gh_half_f32_bits(f);
    /* A NaN must not go through the rounding below: a carry could turn it
     * into an infinity (0x7F800001) or a -0 (0x7FFFFFFF). */
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)(u >> 16 | 0x0040u);
    /* Round the low 16 bits away: add just under half (0x7FFF), plus one more
     * when the kept part is odd, so an exact half rounds to even. The carry
     * runs into the exponent as it should (up to infinity); f32 subnormals
     * are bf16 subnormals, so they need nothing special. */
    u += 0x7FFFu + (u >> 16 & 1u);
    return (uint16_t)(u >> 16);
}

/* The same add-and-mask on the low 13 bits: TF32 keeps f32's exponent, and
 * 10 of its 23 mantissa bits. */
static inline float gh_round_to_tf32(float f)
{
    uint32_t u = gh_half_f32_bits(f);
    if ((u & 0x7F800000u) == 0x7F800000u) return f; /* inf and NaN unchanged */
    u += 0xFFFu + (u >> 13 & 1u);
    return gh_half_bits_f32(u & ~0x1FFFu);
}

#endif /* GEMMHOST_HALF_H */
