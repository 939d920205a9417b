/* Reading a kernel's declared arithmetic; see kernel_arith.h. */
#include "kernel_arith.h"

#include <stdio.h>

static const char *precision_name(gh_precision p)
{
    switch (p) {
    case GH_PREC_AS_STORED: return "as stored";
    case GH_PREC_TF32: return "tf32";
    case GH_PREC_BF16: return "bf16";
    case GH_PREC_F16: return "f16";
    case GH_PREC_F32: return "f32";
    case GH_PREC_F64: return "f64";
    case GH_PREC_TF32_TRUNCATED: return "tf32 (truncated)";
    }
    return "unknown";
}

static gh_precision default_accumulation(gh_dtype d)
{
    return d == GH_F64 ? GH_PREC_F64 : d == GH_I32 ? GH_PREC_AS_STORED : GH_PREC_F32;
}

/* The kernel's entry for d, or NULL. */
static const gh_kernel_precision *declared(const gh_kernel_info *ki, uint32_t abi_minor, gh_dtype d)
{
    if (abi_minor < 2 || !GH_HAS_MEMBER(ki, gh_kernel_info, n_precisions) || !ki->precisions) return NULL;
    for (size_t i = 0; i < ki->n_precisions; i++) {
        const gh_kernel_precision *p = &ki->precisions[i];
        if (GH_HAS_MEMBER(p, gh_kernel_precision, accumulate) && p->dtype == d) return p;
    }
    return NULL;
}

int gh_kernel_arith(const gh_kernel_info *ki, uint32_t abi_minor, gh_dtype d, gh_arith *arith, char *text, size_t size)
{
    const gh_kernel_precision *p = declared(ki, abi_minor, d);
    gh_precision inputs = p ? p->inputs : GH_PREC_AS_STORED;
    gh_precision acc = p ? p->accumulate : default_accumulation(d);
    *arith = gh_arith_declared(d, inputs, acc);
    if (d == GH_I32 && acc == GH_PREC_AS_STORED) snprintf(text, size, "exact");
    else if (inputs == GH_PREC_AS_STORED) snprintf(text, size, "%s accumulate", precision_name(acc));
    else snprintf(text, size, "%s inputs, %s accumulate", precision_name(inputs), precision_name(acc));
    return inputs != GH_PREC_AS_STORED || acc != default_accumulation(d);
}
