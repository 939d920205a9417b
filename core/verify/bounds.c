/* The error bound's arithmetic: gamma_k and the unit roundoffs of the
 * precisions a result may be computed and stored in (see the bound in
 * verify_internal.h and shared/design/verification.md). */
#include <math.h>

#include "gemmhost/fp8.h"
#include "gemmhost/half.h"
#include "gemmhost/plugin_helpers.h"
#include "verify.h"

double gh_gamma_u(double u, int64_t k)
{
    double ku = (double)k * u;
    if (ku < 0.5) return ku / (1.0 - ku);
    /* gamma_k = ku / (1 - ku) bounds (1 - u)^-k - 1 and has no value from
     * ku = 1 on (a 13-bit FP8 tensor-core sum over K = 8192): beyond ku = 1/2
     * use that quantity itself, finite for every k, which bounds every
     * |prod (1 + d_i)^(+-1) - 1| with |d_i| <= u (Higham, Lemma 3.1). */
    return expm1(-(double)k * log1p(-u));
}

double gh_gamma(gh_dtype d, int64_t k)
{
    return gh_gamma_u(d == GH_F32 ? GH_U_F32 : d == GH_F64 ? GH_U_F64 : 0.0, k);
}

/* ---- the arithmetic a result was computed in ---------------------------- */

/* The rounding of a stored element. */
static double storage_roundoff(gh_dtype d)
{
    switch (d) {
    case GH_F32: return GH_U_F32;
    case GH_F64: return GH_U_F64;
    case GH_F16: return GH_U_F16;
    case GH_BF16: return GH_U_BF16;
    case GH_E4M3: return GH_U_E4M3;
    case GH_E5M2: return GH_U_E5M2;
    case GH_I32:
    case GH_I8: return 0.0;
    }
    return 0.0;
}

gh_arith gh_arith_declared(gh_dtype d, gh_precision inputs, gh_precision accumulate)
{
    return (gh_arith){.u_in = gh_plugin_unit_roundoff(inputs),
                      .u_acc = gh_plugin_unit_roundoff(accumulate),
                      .u_out = storage_roundoff(d)};
}

gh_arith gh_arith_default(gh_dtype d)
{
    gh_precision acc = d == GH_F64 ? GH_PREC_F64 : d == GH_I32 ? GH_PREC_AS_STORED : GH_PREC_F32;
    return gh_arith_declared(d, GH_PREC_AS_STORED, acc);
}

gh_arith gh_arith_narrowed(gh_arith a, uint32_t bits, uint32_t promote_every)
{
    if (bits == 0) return a;
    /* a full unit in the last place, not half: FP8 tensor-core sums are
     * reported to truncate (round toward zero) when they align addends */
    a.u_narrow = ldexp(1.0, -(int)bits);
    a.span = promote_every;
    return a;
}

/* The looser of two narrow sums: the wider roundoff, the longer span (0,
 * the whole K, is the longest). */
static int64_t looser_span(gh_arith a, gh_arith b)
{
    if (a.u_narrow == 0) return b.span;
    if (b.u_narrow == 0) return a.span;
    return a.span == 0 || b.span == 0 ? 0 : a.span > b.span ? a.span : b.span;
}

gh_arith gh_arith_looser(gh_arith a, gh_arith b)
{
    return (gh_arith){fmax(a.u_in, b.u_in),
                      fmax(a.u_acc, b.u_acc),
                      fmax(a.u_out, b.u_out),
                      fmax(a.u_narrow, b.u_narrow),
                      looser_span(a, b),
                      fmax(a.u_split, b.u_split),
                      a.pieces > b.pieces ? a.pieces : b.pieces};
}

gh_arith gh_arith_split(gh_arith a, uint32_t pieces, gh_precision p)
{
    if (pieces < 2) return a;
    a.u_split = fmax(a.u_split, gh_plugin_unit_roundoff(p));
    if ((int64_t)pieces > a.pieces) a.pieces = pieces;
    return a;
}

/* ---- the reference ----------------------------------------------------- */
