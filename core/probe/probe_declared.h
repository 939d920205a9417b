/* What a kernel declares for a dtype, in the probe's terms: the bits its
 * inputs and its running sum keep, and how. From gh_kernel_info.precisions
 * (minor 2) and, where the kernel lists a combination of the dtype alone,
 * its combo (minor 5: accumulate_bits, promote_every). */
#ifndef GEMMHOST_PROBE_DECLARED_H
#define GEMMHOST_PROBE_DECLARED_H

#include <stdint.h>
#include "gemmhost/plugin.h"
#include "probe_format.h"

typedef struct probe_declared {
    gh_precision inputs, accumulate;
    int input_bits;      /* explicit mantissa bits the multiplier sees */
    int input_truncates; /* 1: TF32 by dropping bits (GH_PREC_TF32_TRUNCATED) */
    int acc_bits;        /* explicit mantissa bits of the running sum */
    int promote_every;   /* 0: none declared */
    int from_kernel;     /* 0: nothing declared, the dtype's default arithmetic */
    char inputs_text[96], acc_text[128];
} probe_declared;

void probe_declared_of(const gh_kernel_info *ki, uint32_t abi_minor, const probe_format *f, probe_declared *d);
/* The exponent range the declared inputs have: "f16-range" for F16 inputs
 * of a wider type, "f32-range" for f64 read as TF32, BF16 or F32, else
 * "full" (the storage type's own). */
const char *probe_declared_range(const probe_declared *d, const probe_format *f);
/* The same for a combination (8-bit A and B into C of format `out`). */
void probe_declared_combo(const gh_type_combo *c, const probe_format *out, probe_declared *d);

#endif
