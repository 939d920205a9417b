/* Element formats for the probe; see probe_format.h. */
#include "probe_format.h"

#include <float.h>
#include <stddef.h>

/* e4m3 (OCP: no inf, max 448) and e5m2 have cases only as A and B of a
 * combination into a wider C (probe_combo.c, probe_fp8.c); i8 into i32 uses
 * i32's (probe_integer.c). */
static const probe_format formats[] = {
    {GH_E4M3, 1, 3, -6, 8, 448.0},        {GH_E5M2, 1, 2, -14, 15, 57344.0},
    {GH_F32, 1, 23, -126, 127, FLT_MAX},  {GH_F64, 1, 52, -1022, 1023, DBL_MAX},
    {GH_F16, 1, 10, -14, 15, 65504.0},    {GH_BF16, 1, 7, -126, 127, 3.3895313892515355e38},
    {GH_I32, 0, 31, 0, 31, 2147483647.0},
};

const probe_format *probe_format_of(gh_dtype d)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i].dtype == d) return &formats[i];
    return NULL;
}

int probe_precision_bits(gh_precision p, const probe_format *f)
{
    switch (p) {
    case GH_PREC_AS_STORED: return f->mantissa;
    case GH_PREC_TF32:
    case GH_PREC_TF32_TRUNCATED:
    case GH_PREC_F16: return 10;
    case GH_PREC_BF16: return 7;
    case GH_PREC_F32: return 23;
    case GH_PREC_F64: return 52;
    }
    return f->mantissa;
}

const char *probe_precision_name(gh_precision p)
{
    switch (p) {
    case GH_PREC_AS_STORED: return "as stored";
    case GH_PREC_TF32: return "tf32";
    case GH_PREC_TF32_TRUNCATED: return "tf32 (truncated)";
    case GH_PREC_BF16: return "bf16";
    case GH_PREC_F16: return "f16";
    case GH_PREC_F32: return "f32";
    case GH_PREC_F64: return "f64";
    }
    return "unknown";
}
