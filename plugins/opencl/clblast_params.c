/* clblast-tuned's parameters; see clblast_params.h. */
#include <stdio.h>
#include <gemmhost/plugin_helpers.h>
#include "clblast_params.h"

/* Xgemm's K loop unroll: CLBlast's tuner keeps 2 for GEMMK 0. */
#define KWI 2

static const int64_t off_on[] = {0, 1};
static const int64_t k_tiles[] = {16, 32};
static const int64_t dims[] = {8, 16};
static const int64_t tiles[] = {32, 64, 128};
static const int64_t widths[] = {1, 2, 4};

/* The defaults are CLBlast 1.5.3's own for a device its database does not
 * know, in f32 (src/database/kernels/xgemm/xgemm_32.hpp, "default"); the
 * values a part of its own tuner's for GEMMK 0 (src/tuning/kernels/xgemm.hpp):
 * 20736 combinations, many refused by the constraints. */
const gh_param_info ocl_clblast_tuned_params[OCL_CLB_PARAMS] = {
    [OCL_CLB_OVERRIDE] = GH_PLUGIN_PARAM("override",
                                         "1: apply the Xgemm parameters below through CLBlastOverrideParameters, and "
                                         "the indirect GEMM at every size; 0: CLBlast's own parameters for the device "
                                         "(the others then at their defaults, unused)",
                                         0, off_on),
    [OCL_CLB_KWG] = GH_PLUGIN_PARAM("KWG", "Xgemm's step along K: the depth of the tiles in local memory", 32, k_tiles),
    [OCL_CLB_MDIMA] = GH_PLUGIN_PARAM("MDIMA", "Xgemm's work-items along M that load a tile of A", 8, dims),
    [OCL_CLB_MDIMC] = GH_PLUGIN_PARAM("MDIMC", "Xgemm's work-items along M of a work-group", 8, dims),
    [OCL_CLB_MWG] = GH_PLUGIN_PARAM("MWG", "Xgemm's rows of C a work-group computes", 32, tiles),
    [OCL_CLB_NDIMB] = GH_PLUGIN_PARAM("NDIMB", "Xgemm's work-items along N that load a tile of B", 16, dims),
    [OCL_CLB_NDIMC] = GH_PLUGIN_PARAM("NDIMC", "Xgemm's work-items along N of a work-group", 16, dims),
    [OCL_CLB_NWG] = GH_PLUGIN_PARAM("NWG", "Xgemm's columns of C a work-group computes", 32, tiles),
    [OCL_CLB_SA] = GH_PLUGIN_PARAM("SA", "1: Xgemm stages tiles of A in local memory", 1, off_on),
    [OCL_CLB_SB] = GH_PLUGIN_PARAM("SB", "1: Xgemm stages tiles of B in local memory", 1, off_on),
    [OCL_CLB_VWM] = GH_PLUGIN_PARAM("VWM", "Xgemm's vector width along M", 4, widths),
    [OCL_CLB_VWN] = GH_PLUGIN_PARAM("VWN", "Xgemm's vector width along N", 2, widths),
};

int ocl_clblast_tuned_fits(const int64_t *p, char *why, size_t why_size)
{
    if (!p[OCL_CLB_OVERRIDE]) {
        for (int i = OCL_CLB_KWG; i < OCL_CLB_PARAMS; i++)
            if (p[i] != ocl_clblast_tuned_params[i].default_value) {
                snprintf(why, why_size,
                         "%s=%lld is not applied with override=0 (CLBlast's own parameters for the device): set "
                         "override=1, or leave %s at its default (%lld)",
                         ocl_clblast_tuned_params[i].name, (long long)p[i], ocl_clblast_tuned_params[i].name,
                         (long long)ocl_clblast_tuned_params[i].default_value);
                return 0;
            }
        return 1;
    }
    const long long kwg = p[OCL_CLB_KWG], kwi = KWI, mwg = p[OCL_CLB_MWG], nwg = p[OCL_CLB_NWG];
    const long long mdimc = p[OCL_CLB_MDIMC], ndimc = p[OCL_CLB_NDIMC], mdima = p[OCL_CLB_MDIMA];
    const long long ndimb = p[OCL_CLB_NDIMB], vwm = p[OCL_CLB_VWM], vwn = p[OCL_CLB_VWN];
    const char *rule = NULL;
    long long what = 0, of = 1;
    if (kwg % kwi) rule = "KWG must be a multiple of KWI", what = kwg, of = kwi;
    else if (mwg % (mdimc * vwm)) rule = "MWG must be a multiple of MDIMC * VWM", what = mwg, of = mdimc * vwm;
    else if (nwg % (ndimc * vwn)) rule = "NWG must be a multiple of NDIMC * VWN", what = nwg, of = ndimc * vwn;
    else if (mwg % (mdima * vwm)) rule = "MWG must be a multiple of MDIMA * VWM", what = mwg, of = mdima * vwm;
    else if (nwg % (ndimb * vwn)) rule = "NWG must be a multiple of NDIMB * VWN", what = nwg, of = ndimb * vwn;
    else if (kwg % (mdimc * ndimc / mdima))
        rule = "KWG must be a multiple of MDIMC * NDIMC / MDIMA", what = kwg, of = mdimc * ndimc / mdima;
    else if (kwg % (mdimc * ndimc / ndimb))
        rule = "KWG must be a multiple of MDIMC * NDIMC / NDIMB", what = kwg, of = mdimc * ndimc / ndimb;
    if (!rule) return 1;
    snprintf(why, why_size, "CLBlast's Xgemm constraint: %s (%lld is not a multiple of %lld)", rule, what, of);
    return 0;
}

int64_t ocl_clblast_tuned_threads(const int64_t *p)
{
    return p[OCL_CLB_MDIMC] * p[OCL_CLB_NDIMC];
}

uint64_t ocl_clblast_tuned_local_bytes(const int64_t *p, gh_dtype dtype)
{
    const uint64_t elements = (uint64_t)(p[OCL_CLB_SA] * p[OCL_CLB_KWG] * p[OCL_CLB_MWG]) +
                              (uint64_t)(p[OCL_CLB_SB] * p[OCL_CLB_KWG] * p[OCL_CLB_NWG]);
    return elements * gh_plugin_dtype_size(dtype);
}

void ocl_clblast_xgemm_values(const int64_t *p, const char *names[OCL_CLB_XGEMM_PARAMS],
                              size_t values[OCL_CLB_XGEMM_PARAMS])
{
    /* CLBlast's order: GEMMK KREG KWG KWI MDIMA MDIMC MWG NDIMB NDIMC NWG SA
     * SB STRM STRN VWM VWN, the fixed ones (value -1 here) between ours. */
    static const struct {
        const char *name;
        int param;
        size_t fixed;
    } order[OCL_CLB_XGEMM_PARAMS] = {
        {"GEMMK", -1, 0},
        {"KREG", -1, 1},
        {"KWG", OCL_CLB_KWG, 0},
        {"KWI", -1, KWI},
        {"MDIMA", OCL_CLB_MDIMA, 0},
        {"MDIMC", OCL_CLB_MDIMC, 0},
        {"MWG", OCL_CLB_MWG, 0},
        {"NDIMB", OCL_CLB_NDIMB, 0},
        {"NDIMC", OCL_CLB_NDIMC, 0},
        {"NWG", OCL_CLB_NWG, 0},
        {"SA", OCL_CLB_SA, 0},
        {"SB", OCL_CLB_SB, 0},
        {"STRM", -1, 0},
        {"STRN", -1, 0},
        {"VWM", OCL_CLB_VWM, 0},
        {"VWN", OCL_CLB_VWN, 0},
    };
    for (int i = 0; i < OCL_CLB_XGEMM_PARAMS; i++) {
        names[i] = order[i].name;
        values[i] = order[i].param < 0 ? order[i].fixed : (size_t)p[order[i].param];
    }
}

void ocl_clblast_tuned_note(const int64_t *p, char *text, size_t size)
{
    if (!p[OCL_CLB_OVERRIDE]) {
        snprintf(text, size,
                 "CLBlast's defaults for this device (override=0: no tuned entry or none given), its own choice of "
                 "the direct or indirect GEMM");
        return;
    }
    const char *names[OCL_CLB_XGEMM_PARAMS];
    size_t values[OCL_CLB_XGEMM_PARAMS];
    ocl_clblast_xgemm_values(p, names, values);
    size_t used = (size_t)snprintf(text, size, "CLBlast Xgemm");
    for (int i = 0; i < OCL_CLB_XGEMM_PARAMS && used < size; i++)
        used += (size_t)snprintf(text + used, size - used, " %s=%zu", names[i], values[i]);
    if (used < size) snprintf(text + used, size - used, " applied (tuned or given), the indirect GEMM at every size");
}
