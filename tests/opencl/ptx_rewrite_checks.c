#include <stdlib.h>
#include <string.h>
#include "../check.h"
#include "ptx_rewrite.h"
#include "ptx_rewrite_checks.h"

static void expect_rewrite(const char *ptx, const char *want, const char *what)
{
    const char *why = "";
    char *got = ocl_ptx_to_sm90a(ptx, &why);
    if (got && strcmp(got, want) == 0) CHECK(1, "%s", what);
    else CHECK(0, "%s: got '%s' (%s), expected '%s'", what, got ? got : "(null)", why, want);
    free(got);
}

void ptx_rewrite_checks(void)
{
    /* As NVIDIA's OpenCL compiler writes it: sm_90 with a texmode. */
    expect_rewrite("//\n.version 8.8\n.target sm_90, texmode_independent\n"
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
}
