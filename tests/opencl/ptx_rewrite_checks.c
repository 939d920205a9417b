#include <stdlib.h>
#include <string.h>
#include "../check.h"
#include "ptx_rewrite.h"
#include "warptile.h"
#include "ptx_rewrite_checks.h"

static void expect_rewrite(const char *ptx, const char *want, const char *what)
{
    const char *why = "";
    char *got = ocl_ptx_to_sm90a(ptx, &why);
    if (got && strcmp(got, want) == 0) CHECK(1, "%s", what);
    else CHECK(0, "%s: got '%s' (%s), expected '%s'", what, got ? got : "(null)", why, want);
    free(got);
}

static void expect_cap(const char *ptx, unsigned cap, const char *want, const char *what)
{
    const char *why = "";
    char *got = ocl_ptx_cap_registers(ptx, cap, &why);
    if (got && strcmp(got, want) == 0) CHECK(1, "%s", what);
    else CHECK(0, "%s: got '%s' (%s), expected '%s'", what, got ? got : "(null)", why, want);
    free(got);
}

static void expect_cap_refused(const char *ptx, const char *reason, const char *what)
{
    const char *why = NULL;
    char *got = ocl_ptx_cap_registers(ptx, 128, &why);
    CHECK(!got && why && strstr(why, reason), "%s (%s)", what, why ? why : "(no reason)");
    free(got);
}

/* warptile's register caps: the default's 256 work-items get 128 in f32's
 * cp.async programs, and nothing else gets one. */
static void register_cap_checks(void)
{
    const int64_t def[OCL_WT_PARAMS] = {128, 128, 16, 64, 32, 8, 8};
    const int64_t small[OCL_WT_PARAMS] = {64, 128, 16, 64, 32, 8, 8};
    const int64_t large[OCL_WT_PARAMS] = {128, 128, 16, 32, 16, 4, 4};
    unsigned got = ocl_warptile_register_cap(def, GH_F32, 1, 65536);
    CHECK(got == 128, "register cap: f32 cp.async at the default, 65536 registers: 128 (got %u)", got);
    got = ocl_warptile_register_cap(def, GH_F32, 4, 65536);
    CHECK(got == 128, "register cap: every transpose pair's program alike (got %u)", got);
    got = ocl_warptile_register_cap(def, GH_F32, 0, 65536);
    CHECK(got == 0, "register cap: none for the register-staged program (got %u)", got);
    got = ocl_warptile_register_cap(def, GH_F64, 1, 65536);
    CHECK(got == 0, "register cap: none in f64, which would spill (got %u)", got);
    got = ocl_warptile_register_cap(small, GH_F32, 1, 65536);
    CHECK(got == 0, "register cap: none for 128 work-items, two fit uncapped (got %u)", got);
    got = ocl_warptile_register_cap(large, GH_F32, 1, 65536);
    CHECK(got == 0, "register cap: none for 1024 work-items, 32 would spill (got %u)", got);
    const int64_t shallow[OCL_WT_PARAMS] = {64, 128, 8, 64, 16, 8, 4};
    got = ocl_warptile_register_cap(shallow, GH_F32, 1, 65536);
    CHECK(got == 0, "register cap: none at bk 8, where the late barrier ran slower (got %u)", got);
    const int64_t warp_over_block[OCL_WT_PARAMS] = {64, 64, 16, 128, 32, 8, 8};
    got = ocl_warptile_register_cap(warp_over_block, GH_F32, 1, 65536);
    CHECK(got == 0, "register cap: none for a warp tile over the block (no work-items; refused later) (got %u)", got);
    got = ocl_warptile_register_cap(def, GH_F32, 1, 0);
    CHECK(got == 0, "register cap: none where the device does not say its registers (got %u)", got);
}

void ptx_rewrite_checks(void)
{
    /* As NVIDIA's OpenCL compiler writes it: sm_90 with a texmode. */
    expect_rewrite(
        "//\n.version 8.8\n.target sm_90, texmode_independent\n"
        "\t// begin inline asm\n\t//SM90A wgmma.fence.sync.aligned;\n\t// end inline asm\n",
        "//\n.version 8.8\n.target sm_90a, texmode_independent\n"
        "\t// begin inline asm\n\twgmma.fence.sync.aligned;\n\t// end inline asm\n",
        "ptx rewrite: NVIDIA's sm_90 becomes sm_90a, the mark goes, other comments stay");
    /* clang's (tools/ocl_ptxas.sh), and a mark at the very end. */
    expect_rewrite(".target sm_80, texmode_independent\n//SM90A a;\n//SM90A b; //SM90A ",
                   ".target sm_90a, texmode_independent\na;\nb; ",
                   "ptx rewrite: any sm_NN becomes sm_90a, every mark goes");
    expect_rewrite(".target sm_90a\n", ".target sm_90a\n", "ptx rewrite: sm_90a stays sm_90a");
    expect_rewrite(".target sm_90\n//SM90Awgmma\n", ".target sm_90a\n//SM90Awgmma\n",
                   "ptx rewrite: only the mark with its space is one");

    const char *why = NULL;
    char *none = ocl_ptx_to_sm90a(".version 8.0\n//SM90A wgmma;\n", &why);
    CHECK(!none && why && strstr(why, ".target"), "ptx rewrite: no .target directive is refused, saying so (%s)",
          why ? why : "(no reason)");
    free(none);

    /* As NVIDIA's OpenCL compiler writes a kernel: directives after the
     * parameters, then the body. */
    expect_cap(".visible .entry gemm_warptile(\n\t.param .u32 m\n)\n.reqntid 256, 1, 1\n{\n\tret;\n}\n", 128,
               ".visible .entry gemm_warptile(\n\t.param .u32 m\n)\n.reqntid 256, 1, 1\n.maxnreg 128\n{\n\tret;\n}\n",
               "register cap: .maxnreg before the body, after the other directives");
    expect_cap("// .entry in a comment\n.entry a()\n{\n}\n.entry b()\n{\n}\n", 200,
               "// .entry in a comment\n.entry a()\n.maxnreg 200\n{\n}\n.entry b()\n.maxnreg 200\n{\n}\n",
               "register cap: every kernel of the program, and only real .entry directives");
    expect_cap_refused(".version 8.0\n.target sm_90\n", "no .entry", "register cap: PTX without a kernel is refused");
    expect_cap_refused(".entry a(\n.param .u32 m)\n", "no body", "register cap: a kernel without a body is refused");
    expect_cap_refused(".entry a()\n.maxnreg 64\n{\n}\n", "already",
                       "register cap: a kernel that has one already is refused");
    register_cap_checks();
}
