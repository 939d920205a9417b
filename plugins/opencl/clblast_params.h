/* The clblast-tuned kernel's parameters: CLBlast 1.5.3's Xgemm parameters
 * (its names, in upper case), applied at run time by
 * CLBlastOverrideParameters, and `override`, which says whether to apply
 * them at all. Their allowed values are a small part of CLBlast's own
 * tuner's space (src/tuning/kernels/xgemm.hpp, GEMMK 0: the 1D register
 * tiling), which combinations fit together (that tuner's constraints), and
 * the note a result carries. Plain C, no OpenCL: the tests compile it alone. */
#ifndef GH_OPENCL_CLBLAST_PARAMS_H
#define GH_OPENCL_CLBLAST_PARAMS_H

#include <stddef.h>
#include <gemmhost/plugin.h>

/* override first, then the Xgemm parameters searched, in CLBlast's
 * (alphabetical) order. Xgemm's others (an override must give all 16) keep
 * one value each and are not gemmhost parameters: GEMMK 0 and KREG 1 (the 1D
 * register tiling), KWI 2, STRM 0 and STRN 0 (CLBlast's generic defaults).
 * Twelve keep the host's "name=value ..." labels (128 bytes) whole even as
 * "name=auto". */
enum {
    OCL_CLB_OVERRIDE,
    OCL_CLB_KWG,
    OCL_CLB_MDIMA,
    OCL_CLB_MDIMC,
    OCL_CLB_MWG,
    OCL_CLB_NDIMB,
    OCL_CLB_NDIMC,
    OCL_CLB_NWG,
    OCL_CLB_SA,
    OCL_CLB_SB,
    OCL_CLB_VWM,
    OCL_CLB_VWN,
    OCL_CLB_PARAMS
};

/* Xgemm's parameters, all of them, as CLBlastOverrideParameters takes them. */
#define OCL_CLB_XGEMM_PARAMS 16

extern const gh_param_info ocl_clblast_tuned_params[OCL_CLB_PARAMS];

/* 1 when the values fit together: with override 0 every Xgemm parameter at
 * its default (they are not used: CLBlast's own for the device run), with
 * override 1 CLBlast's Xgemm constraints (KWG a multiple of KWI, MWG of
 * MDIMC * VWM and of MDIMA * VWM, NWG of NDIMC * VWN and of NDIMB * VWN, KWG
 * of MDIMC * NDIMC / MDIMA and of MDIMC * NDIMC / NDIMB). Else 0 with why. */
int ocl_clblast_tuned_fits(const int64_t *p, char *why, size_t why_size);

/* Work-items of a work-group of Xgemm: MDIMC * NDIMC. */
int64_t ocl_clblast_tuned_threads(const int64_t *p);

/* Local memory Xgemm declares: (SA * KWG * MWG + SB * KWG * NWG) elements. */
uint64_t ocl_clblast_tuned_local_bytes(const int64_t *p, gh_dtype dtype);

/* Xgemm's 16 names and values from p (override 1), in CLBlast's order. */
void ocl_clblast_xgemm_values(const int64_t *p, const char *names[OCL_CLB_XGEMM_PARAMS],
                              size_t values[OCL_CLB_XGEMM_PARAMS]);

/* The note of a result: "CLBlast Xgemm GEMMK=0 KREG=1 ... VWN=2 applied
 * (tuned or given), the indirect GEMM at every size", or, with override 0,
 * that CLBlast's defaults for the device ran. */
void ocl_clblast_tuned_note(const int64_t *p, char *text, size_t size);

#endif
