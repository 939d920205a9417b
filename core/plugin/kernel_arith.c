/* Reading a kernel's declared arithmetic; see kernel_arith.h. */
#include "kernel_arith.h"

#include <stdio.h>

const char *gh_precision_name(gh_precision p)
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
    else if (inputs == GH_PREC_AS_STORED) snprintf(text, size, "%s accumulate", gh_precision_name(acc));
    else snprintf(text, size, "%s inputs, %s accumulate", gh_precision_name(inputs), gh_precision_name(acc));
    return inputs != GH_PREC_AS_STORED || acc != default_accumulation(d);
}

/* ---- ABI 1.5: type combinations ---- */

const gh_type_combo *gh_kernel_combo(const gh_kernel_info *ki, uint32_t abi_minor, gh_dtype a, gh_dtype b, gh_dtype c)
{
    if (!ki || abi_minor < 5 || !GH_HAS_MEMBER(ki, gh_kernel_info, n_combos) || !ki->combos) return NULL;
    for (size_t i = 0; i < ki->n_combos; i++) {
        const gh_type_combo *cb = &ki->combos[i];
        if (GH_HAS_MEMBER(cb, gh_type_combo, accumulate) && cb->a == a && cb->b == b && cb->c == c) return cb;
    }
    return NULL;
}

int gh_kernel_offers(const gh_kernel_info *ki, uint32_t abi_minor, const gh_case_types *t)
{
    const int uniform = t->a == t->b && t->b == t->c && t->scale_a == 1.0 && t->scale_b == 1.0 && t->scale_c == 1.0;
    if (uniform && (ki->dtypes & GH_DTYPE_BIT(t->a))) return 1;
    return gh_kernel_combo(ki, abi_minor, t->a, t->b, t->c) != NULL;
}

/* The narrow sum's members, read by size (0 where the entry is shorter). */
static uint32_t combo_bits(const gh_type_combo *cb)
{
    return GH_HAS_MEMBER(cb, gh_type_combo, accumulate_bits) ? cb->accumulate_bits : 0;
}
static uint32_t combo_promote(const gh_type_combo *cb)
{
    return combo_bits(cb) && GH_HAS_MEMBER(cb, gh_type_combo, promote_every) ? cb->promote_every : 0;
}

void gh_combo_arith_text(const gh_type_combo *cb, char *text, size_t size)
{
    const uint32_t bits = combo_bits(cb), every = combo_promote(cb);
    char inputs[48] = "";
    if (cb->inputs != GH_PREC_AS_STORED) snprintf(inputs, sizeof inputs, "%s inputs, ", gh_precision_name(cb->inputs));
    if (cb->c == GH_I32 && cb->accumulate == GH_PREC_AS_STORED) snprintf(text, size, "%sexact", inputs);
    else if (!bits) snprintf(text, size, "%s%s accumulate", inputs, gh_precision_name(cb->accumulate));
    else if (!every)
        snprintf(text, size, "%s%u-bit accumulate, never promoted to %s", inputs, bits,
                 gh_precision_name(cb->accumulate));
    else
        snprintf(text, size, "%s%u-bit accumulate, into %s every %u", inputs, bits, gh_precision_name(cb->accumulate),
                 every);
}

int gh_kernel_arith_of(const gh_kernel_info *ki, uint32_t abi_minor, const gh_case_types *t, gh_arith *arith,
                       char *text, size_t size)
{
    const gh_type_combo *cb = gh_kernel_combo(ki, abi_minor, t->a, t->b, t->c);
    if (!cb) return gh_kernel_arith(ki, abi_minor, t->c, arith, text, size);
    *arith = gh_arith_narrowed(gh_arith_declared(t->c, cb->inputs, cb->accumulate), combo_bits(cb), combo_promote(cb));
    gh_combo_arith_text(cb, text, size);
    return cb->inputs != GH_PREC_AS_STORED || cb->accumulate != default_accumulation(t->c) || combo_bits(cb) != 0;
}
