#include "seeded.h"

#include <math.h>
#include <stdlib.h>
#include "data.h"
#include "gemmhost/fp8.h"
#include "gemmhost/half.h"

double gh_test_seeded_value(gh_dtype dtype, uint64_t seed, uint64_t stream, uint64_t index)
{
    uint64_t r = gh_random_u64(seed, stream, index);
    if (dtype == GH_E4M3 || dtype == GH_E5M2) {
        double m = (double)(r % 7 + 1), sign = (r >> 3) & 1 ? -1.0 : 1.0;
        return sign * ldexp(m, -(int)((r >> 4) % 3));
    }
    if (dtype == GH_I32 || dtype == GH_I8) {
        int64_t v = (int64_t)(r % 16) - 8;
        return (double)(v >= 0 ? v + 1 : v);
    }
    double u = (double)(r >> 11) * 0x1.0p-53 * 2.0 - 1.0; /* [-1, 1) */
    return dtype == GH_F32 ? (double)(float)u : u;
}

double *gh_test_seeded_values(gh_dtype dtype, int64_t count, uint64_t seed, uint64_t stream)
{
    double *x = malloc((size_t)(count > 0 ? count : 1) * sizeof *x);
    if (x)
        for (int64_t i = 0; i < count; ++i) x[i] = gh_test_seeded_value(dtype, seed, stream, (uint64_t)i);
    return x;
}

void gh_test_fill_seeded(gh_dtype dtype, void *base, size_t count, uint64_t seed, uint64_t stream)
{
    for (size_t i = 0; i < count; ++i) gh_test_put(dtype, base, i, gh_test_seeded_value(dtype, seed, stream, i));
}

void gh_test_seeded_f32(float *out, int64_t count, uint64_t seed, uint64_t stream)
{
    for (int64_t i = 0; i < count; ++i) {
        float v = (float)gh_test_seeded_value(GH_F32, seed, stream, (uint64_t)i);
        out[i] = v != 0.0f ? v : 0.5f;
    }
}

size_t gh_test_elem_size(gh_dtype dtype)
{
    return gh_dtype_size(dtype);
}

/* f16 and bf16 round to nearest even: the value stored is then exact, what
 * a reference multiplies; NaN becomes the type's quiet NaN. */
void gh_test_put(gh_dtype dtype, void *base, size_t i, double v)
{
    switch (dtype) {
    case GH_F32: ((float *)base)[i] = (float)v; break;
    case GH_F64: ((double *)base)[i] = v; break;
    case GH_F16: ((uint16_t *)base)[i] = gh_f64_to_f16(v); break;
    case GH_BF16: ((uint16_t *)base)[i] = gh_f64_to_bf16(v); break;
    case GH_E4M3: ((uint8_t *)base)[i] = gh_f64_to_e4m3(v); break;
    case GH_E5M2: ((uint8_t *)base)[i] = gh_f64_to_e5m2(v); break;
    case GH_I8: ((int8_t *)base)[i] = (int8_t)v; break;
    default: ((int32_t *)base)[i] = (int32_t)v; break;
    }
}

double gh_test_get(gh_dtype dtype, const void *base, size_t i)
{
    switch (dtype) {
    case GH_F32: return ((const float *)base)[i];
    case GH_F64: return ((const double *)base)[i];
    case GH_F16: return gh_f16_to_f64(((const uint16_t *)base)[i]);
    case GH_BF16: return gh_bf16_to_f64(((const uint16_t *)base)[i]);
    case GH_E4M3: return gh_e4m3_to_f64(((const uint8_t *)base)[i]);
    case GH_E5M2: return gh_e5m2_to_f64(((const uint8_t *)base)[i]);
    case GH_I8: return ((const int8_t *)base)[i];
    default: return ((const int32_t *)base)[i];
    }
}
