/* A kernel's declaration read for the probe; see probe_declared.h. */
#include "probe_declared.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const gh_kernel_precision *precision_entry(const gh_kernel_info *ki, uint32_t abi_minor, gh_dtype d)
{
    if (abi_minor < 2 || !GH_HAS_MEMBER(ki, gh_kernel_info, n_precisions) || !ki->precisions) return NULL;
    for (size_t i = 0; i < ki->n_precisions; i++)
        if (GH_HAS_MEMBER(&ki->precisions[i], gh_kernel_precision, accumulate) && ki->precisions[i].dtype == d)
            return &ki->precisions[i];
    return NULL;
}

/* A combination of d alone replaces d's precision entry (plugin.h). */
static const gh_type_combo *combo_entry(const gh_kernel_info *ki, uint32_t abi_minor, gh_dtype d)
{
    if (abi_minor < 5 || !GH_HAS_MEMBER(ki, gh_kernel_info, n_combos) || !ki->combos) return NULL;
    for (size_t i = 0; i < ki->n_combos; i++) {
        const gh_type_combo *c = &ki->combos[i];
        if (GH_HAS_MEMBER(c, gh_type_combo, promote_every) && c->a == d && c->b == d && c->c == d) return c;
    }
    return NULL;
}

/* The running sum's bits and its words, with a combination's narrow sum. */
static void declared_sum(const gh_type_combo *c, const probe_format *f, probe_declared *d)
{
    d->acc_bits = probe_precision_bits(d->accumulate, f);
    if (c && c->accumulate_bits > 0) {
        d->acc_bits = (int)c->accumulate_bits;
        d->promote_every = (int)c->promote_every;
    }
    if (d->promote_every > 0)
        snprintf(d->acc_text, sizeof d->acc_text, "%s accumulation, %d bits promoted every %d",
                 probe_precision_name(d->accumulate), d->acc_bits, d->promote_every);
    else
        snprintf(d->acc_text, sizeof d->acc_text, "%s accumulation (%d bits)",
                 f->dtype == GH_I32 ? "exact" : probe_precision_name(d->accumulate), d->acc_bits);
}

void probe_declared_of(const gh_kernel_info *ki, uint32_t abi_minor, const probe_format *f, probe_declared *d)
{
    memset(d, 0, sizeof *d);
    const gh_dtype t = f->dtype;
    d->inputs = GH_PREC_AS_STORED;
    d->accumulate = t == GH_F64 ? GH_PREC_F64 : t == GH_I32 ? GH_PREC_AS_STORED : GH_PREC_F32;
    const gh_kernel_precision *p = precision_entry(ki, abi_minor, t);
    const gh_type_combo *c = combo_entry(ki, abi_minor, t);
    if (c) {
        d->inputs = c->inputs;
        d->accumulate = c->accumulate;
        d->from_kernel = 1;
    } else if (p) {
        d->inputs = p->inputs;
        d->accumulate = p->accumulate;
        d->from_kernel = 1;
    }
    const int in_bits = probe_precision_bits(d->inputs, f);
    d->input_bits = in_bits < f->mantissa ? in_bits : f->mantissa;
    d->input_truncates = d->inputs == GH_PREC_TF32_TRUNCATED;
    if (d->input_bits == f->mantissa) snprintf(d->inputs_text, sizeof d->inputs_text, "exact (%d bits)", f->mantissa);
    else
        snprintf(d->inputs_text, sizeof d->inputs_text, "%s inputs (%d bits, %s)", probe_precision_name(d->inputs),
                 d->input_bits, d->input_truncates ? "toward zero" : "to nearest");
    declared_sum(c, f, d);
}

void probe_declared_combo(const gh_type_combo *c, const probe_format *out, probe_declared *d)
{
    memset(d, 0, sizeof *d);
    d->inputs = c->inputs;
    d->accumulate = c->accumulate;
    d->from_kernel = 1;
    d->input_bits = -1; /* 8-bit inputs are exact in any multiplier: not probed */
    snprintf(d->inputs_text, sizeof d->inputs_text, "8-bit inputs as stored");
    declared_sum(c, out, d);
}

const char *probe_declared_range(const probe_declared *d, const probe_format *f)
{
    if (d->inputs == GH_PREC_F16 && f->emax > 15) return "f16-range";
    if (f->emax > 127 && d->inputs != GH_PREC_AS_STORED && d->inputs != GH_PREC_F64) return "f32-range";
    return "full";
}
