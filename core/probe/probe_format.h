/* What the probe needs to know of each element type: its mantissa and
 * exponent range, so that every crafted value is exact in storage, and the
 * bits each declared precision (plugin.h, gh_precision) keeps. */
#ifndef GEMMHOST_PROBE_FORMAT_H
#define GEMMHOST_PROBE_FORMAT_H

#include "gemmhost/plugin.h"

typedef struct probe_format {
    gh_dtype dtype;
    int is_float;
    int mantissa; /* explicit mantissa bits: f32 23, f64 52, f16 10, bf16 7 */
    int emin;     /* exponent of the smallest normal number */
    int emax;     /* exponent of the largest finite number */
    double max;   /* the largest finite value */
} probe_format;

/* The format of d, or NULL when the probe has no cases for d yet. */
const probe_format *probe_format_of(gh_dtype d);

/* Explicit mantissa bits a precision keeps (TF32 10, BF16 7, F16 10, F32
 * 23, F64 52); AS_STORED: the format's own. */
int probe_precision_bits(gh_precision p, const probe_format *f);
/* "tf32", "f32", "as stored" ... */
const char *probe_precision_name(gh_precision p);

#endif
