/* Seeded test matrices: values every dtype holds exactly, drawn from the
 * host's own counter-based generator (gh_random_u64, core/data), so a
 * (seed, stream) pair names the same matrix in every suite. */
#ifndef GH_TEST_SUPPORT_SEEDED_H
#define GH_TEST_SUPPORT_SEEDED_H

#include <stddef.h>
#include <stdint.h>
#include "gemmhost/plugin.h"

/* Value `index` of (seed, stream): floats uniform in [-1, 1) rounded to f32
 * for f32 (f64 keeps all 53 bits); i32 in -8..-1, 1..8, never zero, so even a
 * 1 x 1 x 1 product says something and no K of a test overflows.
 * (ABI 1.5) i8 as i32; e4m3 and e5m2 +-m 2^e with m in 1..7 and e in
 * -2..0, exact in both (at most three significant bits), so every product
 * is exact in f32 and sums of a test's K stay far from f16's range. */
double gh_test_seeded_value(gh_dtype dtype, uint64_t seed, uint64_t stream, uint64_t index);
/* `count` such values in a new array (free()), or NULL out of memory. */
double *gh_test_seeded_values(gh_dtype dtype, int64_t count, uint64_t seed, uint64_t stream);
/* `count` values of (seed, stream) stored as dtype at base (gh_test_put). */
void gh_test_fill_seeded(gh_dtype dtype, void *base, size_t count, uint64_t seed, uint64_t stream);
/* `count` f32 values in [-1, 1): speed tests' inputs, never zeros (zeros run
 * faster and hide nothing). */
void gh_test_seeded_f32(float *out, int64_t count, uint64_t seed, uint64_t stream);

/* Elements of every dtype in a device-layout host image: the size, and
 * element i read or written as a double (exact for the values above; f16
 * and bf16 rounded to nearest even; e4m3 and e5m2 as gemmhost/fp8.h rounds
 * them; i8 saturated is never needed: the draws are in range). */
size_t gh_test_elem_size(gh_dtype dtype);
void gh_test_put(gh_dtype dtype, void *base, size_t i, double v);
double gh_test_get(gh_dtype dtype, const void *base, size_t i);

#endif
