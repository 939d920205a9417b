/* Declared arithmetic as roundoffs; see arith.h. */
#include "arith.h"

#include <math.h>
#include <stdio.h>

#include "gemmhost/half.h"
#include "gemmhost/plugin_helpers.h"

static double tiny_of(double u)
{
    return u == GH_U_F32    ? 0x1p-149
           : u == GH_U_F64  ? 0x1p-1074
           : u == GH_U_F16  ? 0x1p-24
           : u == GH_U_BF16 ? 0x1p-133
                            : 0.0;
}

static double storage_roundoff(gh_dtype d)
{
    return d == GH_F32 ? GH_U_F32 : d == GH_F64 ? GH_U_F64 : d == GH_F16 ? GH_U_F16 : d == GH_BF16 ? GH_U_BF16 : 0.0;
}

static const gh_kernel_precision *declared(const conformance *c, const gh_kernel_info *ki, gh_dtype d)
{
    if (c->minor < 2 || !GH_HAS_MEMBER(ki, gh_kernel_info, n_precisions) || !ki->precisions) return NULL;
    for (size_t i = 0; i < ki->n_precisions; i++)
        if (ki->precisions[i].dtype == d) return &ki->precisions[i];
    return NULL;
}

conf_arith conf_kernel_arith(const conformance *c, const gh_kernel_info *ki, gh_dtype d)
{
    const gh_kernel_precision *p = declared(c, ki, d);
    gh_precision acc = p ? p->accumulate : d == GH_F64 ? GH_PREC_F64 : d == GH_I32 ? GH_PREC_AS_STORED : GH_PREC_F32;
    conf_arith a = {0};
    a.u_in = p ? gh_plugin_unit_roundoff(p->inputs) : 0.0;
    a.u_acc = gh_plugin_unit_roundoff(acc);
    a.u_out = storage_roundoff(d) > a.u_acc ? storage_roundoff(d) : 0.0;
    a.tiny_acc = tiny_of(a.u_acc);
    a.tiny_out = tiny_of(a.u_out);
    return a;
}

double conf_bound(const conf_arith *a, int64_t k, double want, double sum_abs)
{
    if (a->u_acc == 0.0) return 0.0;
    const double g_kernel = 2.0 * (double)(k + 2) * a->u_acc + 2.0 * a->u_in + a->u_in * a->u_in;
    const double g = g_kernel + 2.0 * (double)(k + 2) * GH_U_F64;
    const double eta = (double)(k + 2) * a->tiny_acc + a->tiny_out;
    return g * sum_abs + a->u_out * (fabs(want) + g_kernel * sum_abs) + eta;
}

const char *conf_precisions_problem(const conformance *c, const gh_kernel_info *ki, char *why, size_t size)
{
    if (c->minor < 2 || !GH_HAS_MEMBER(ki, gh_kernel_info, n_precisions)) return NULL;
    if (ki->n_precisions && !ki->precisions) return "n_precisions > 0 but precisions is NULL";
    for (size_t i = 0; i < ki->n_precisions; i++) {
        const gh_kernel_precision *p = &ki->precisions[i];
        const char *bad = NULL;
        if (!GH_HAS_MEMBER(p, gh_kernel_precision, accumulate)) bad = "its size does not cover accumulate";
        else if ((unsigned)p->dtype >= GH_DTYPE_COUNT || !(ki->dtypes & GH_DTYPE_BIT(p->dtype)))
            bad = "its dtype is not in the kernel's dtype mask";
        else if ((unsigned)p->inputs > GH_PREC_TF32_TRUNCATED || (unsigned)p->accumulate > GH_PREC_F64)
            bad = "an unknown precision";
        else if (p->accumulate == GH_PREC_AS_STORED && p->dtype != GH_I32)
            bad = "accumulate 'as stored' is for i32 only";
        else if (p->accumulate == GH_PREC_TF32) bad = "accumulate in tf32: no kernel keeps its sums in tf32";
        for (size_t j = 0; j < i && !bad; j++)
            if (ki->precisions[j].dtype == p->dtype) bad = "a second entry for the same dtype";
        if (bad) {
            snprintf(why, size, "precisions[%zu]: %s", i, bad);
            return why;
        }
    }
    return NULL;
}
