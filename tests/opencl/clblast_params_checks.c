/* plugins/opencl/clblast_params.c (compiled into this test); see
 * clblast_params_checks.h. */
#include <stdio.h>
#include <string.h>
#include "../check.h"
#include "clblast_params.h"
#include "clblast_params_checks.h"

static void defaults(int64_t *p)
{
    for (int i = 0; i < OCL_CLB_PARAMS; i++) p[i] = ocl_clblast_tuned_params[i].default_value;
}

/* A combination that breaks exactly one rule: refused, naming it. */
static void refused(const char *what, const int64_t *p, const char *rule)
{
    char why[256] = "";
    const int fits = ocl_clblast_tuned_fits(p, why, sizeof why);
    CHECK(!fits && strstr(why, rule), "clblast-tuned %s: refused naming \"%s\" (got %s: %s)", what, rule,
          fits ? "fits" : "refused", why);
}

/* The 20736 combinations of the allowed values: 7945 fit (the tuner has
 * something to find), and those that do have work-groups of at most 256
 * work-items and, in f32, tiles within 32 KiB (OpenCL's least
 * CL_DEVICE_LOCAL_MEM_SIZE; f64 may need 64 KiB, refused where over). */
static void whole_space(void)
{
    int index[OCL_CLB_PARAMS] = {0};
    int64_t p[OCL_CLB_PARAMS];
    long total = 0, fit = 0, too_big = 0;
    for (;;) {
        for (int i = 0; i < OCL_CLB_PARAMS; i++) p[i] = ocl_clblast_tuned_params[i].allowed[index[i]];
        char why[256];
        total++;
        if (ocl_clblast_tuned_fits(p, why, sizeof why)) {
            fit++;
            if (ocl_clblast_tuned_threads(p) > 256 || ocl_clblast_tuned_local_bytes(p, GH_F32) > 32 * 1024) too_big++;
        }
        int i = 0;
        while (i < OCL_CLB_PARAMS && ++index[i] == (int)ocl_clblast_tuned_params[i].n_allowed) index[i++] = 0;
        if (i == OCL_CLB_PARAMS) break;
    }
    CHECK(total == 20736, "clblast-tuned: 20736 combinations (got %ld)", total);
    CHECK(fit == 7945, "clblast-tuned: 7944 overrides and the default fit (%ld of %ld)", fit, total);
    CHECK(too_big == 0, "clblast-tuned: every fitting one within 256 work-items and 32 KiB in f32 (%ld over)", too_big);
}

void clblast_params_checks(void)
{
    int64_t p[OCL_CLB_PARAMS];
    char why[256] = "";
    for (int i = 0; i < OCL_CLB_PARAMS; i++) {
        const gh_param_info *info = &ocl_clblast_tuned_params[i];
        int has = 0;
        for (size_t v = 0; v < info->n_allowed; v++) has |= info->allowed[v] == info->default_value;
        CHECK(has, "clblast-tuned: %s's default is one of its values", info->name);
    }
    defaults(p);
    CHECK(ocl_clblast_tuned_fits(p, why, sizeof why), "clblast-tuned: the defaults fit with override=0 (%s)", why);
    p[OCL_CLB_OVERRIDE] = 1;
    CHECK(ocl_clblast_tuned_fits(p, why, sizeof why), "clblast-tuned: the defaults fit with override=1 (%s)", why);

    defaults(p);
    p[OCL_CLB_MWG] = 64;
    refused("MWG=64 with override=0", p, "MWG=64 is not applied with override=0");

    defaults(p); /* MWG 32, MDIMC 8, MDIMA 8, VWM 4; NWG 32, NDIMC 16, NDIMB 16, VWN 2; KWG 32 */
    p[OCL_CLB_OVERRIDE] = 1;
    p[OCL_CLB_MDIMC] = 16;
    refused("MWG 32, MDIMC 16, VWM 4", p, "MWG must be a multiple of MDIMC * VWM (32 is not a multiple of 64)");
    defaults(p);
    p[OCL_CLB_OVERRIDE] = 1;
    p[OCL_CLB_VWN] = 4;
    refused("NWG 32, NDIMC 16, VWN 4", p, "NWG must be a multiple of NDIMC * VWN (32 is not a multiple of 64)");
    defaults(p);
    p[OCL_CLB_OVERRIDE] = 1;
    p[OCL_CLB_MDIMA] = 16;
    refused("MWG 32, MDIMA 16, VWM 4", p, "MWG must be a multiple of MDIMA * VWM (32 is not a multiple of 64)");
    defaults(p);
    p[OCL_CLB_OVERRIDE] = 1;
    p[OCL_CLB_NDIMC] = 8;
    p[OCL_CLB_VWN] = 4;
    refused("NWG 32, NDIMB 16, VWN 4", p, "NWG must be a multiple of NDIMB * VWN (32 is not a multiple of 64)");
    const int64_t k_rules[][OCL_CLB_PARAMS] = {
        /* override KWG MDIMA MDIMC MWG NDIMB NDIMC NWG SA SB VWM VWN */
        {1, 16, 8, 16, 64, 16, 16, 32, 1, 1, 4, 2},
        {1, 16, 16, 16, 64, 8, 16, 32, 1, 1, 4, 2},
    };
    refused("KWG 16, MDIMC 16, NDIMC 16, MDIMA 8", k_rules[0],
            "KWG must be a multiple of MDIMC * NDIMC / MDIMA (16 is not a multiple of 32)");
    refused("KWG 16, MDIMC 16, NDIMC 16, NDIMB 8", k_rules[1],
            "KWG must be a multiple of MDIMC * NDIMC / NDIMB (16 is not a multiple of 32)");
    whole_space();

    /* The override: Xgemm's 16 names in CLBlast's (sorted) order, ours and
     * the fixed ones, and the note naming them all within the result's 240. */
    defaults(p);
    p[OCL_CLB_OVERRIDE] = 1;
    p[OCL_CLB_MWG] = p[OCL_CLB_NWG] = 128;
    const char *names[OCL_CLB_XGEMM_PARAMS];
    size_t values[OCL_CLB_XGEMM_PARAMS];
    ocl_clblast_xgemm_values(p, names, values);
    int sorted = 1;
    for (int i = 1; i < OCL_CLB_XGEMM_PARAMS; i++) sorted &= strcmp(names[i - 1], names[i]) < 0;
    CHECK(sorted, "clblast-tuned: Xgemm's 16 names in CLBlast's order");
    CHECK(values[0] == 0 && values[1] == 1 && values[3] == 2 && values[6] == 128 && values[9] == 128,
          "clblast-tuned: GEMMK 0, KREG 1, KWI 2, MWG and NWG given");
    char note[240];
    ocl_clblast_tuned_note(p, note, sizeof note);
    CHECK(strstr(note, " KWI=2 ") && strstr(note, " MWG=128 ") && strstr(note, "the indirect GEMM at every size"),
          "clblast-tuned: the note names what was applied, whole (%s)", note);
    p[OCL_CLB_OVERRIDE] = 0;
    p[OCL_CLB_MWG] = p[OCL_CLB_NWG] = 32;
    ocl_clblast_tuned_note(p, note, sizeof note);
    CHECK(strncmp(note, "CLBlast's defaults for this device", 34) == 0, "clblast-tuned: override=0's note (%s)", note);
}
