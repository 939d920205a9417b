#include <stdlib.h>
#include <string.h>
#include "../check.h"
#include "build_log.h"
#include "build_log_checks.h"

/* The texts only when they differ: they run over several lines. */
static void expect_text(const char *got, const char *want, const char *what)
{
    if (got && strcmp(got, want) == 0) CHECK(1, "%s", what);
    else CHECK(0, "%s: got '%s', expected '%s'", what, got ? got : "(null)", want);
}

void build_log_checks(void)
{
    /* As compile.c lays them out: line 1 #line, common.cl on lines 2-37,
     * line 38 #line, tiled.cl on lines 39-42. */
    const ocl_source_piece pieces[2] = {{"common.cl", 2, 36}, {"tiled.cl", 39, 4}};
    int n = -1;
    char *out = ocl_log_translate(
        "<kernel>:41:5: error: unknown type name 'this'\n"
        "    this is not OpenCL C;\n    ^\n",
        pieces, 2, &n);
    expect_text(out, "tiled.cl:3:5: error: unknown type name 'this'\n    this is not OpenCL C;\n    ^\n",
                "build log: NVIDIA's <kernel>:LINE becomes the kernel file's own line");
    CHECK(n == 1, "build log: one position counted (%d)", n);
    free(out);

    out = ocl_log_translate("<kernel>:2:1: error: a\n<kernel>:37:9: note: b\n<kernel>:42:1: c\n", pieces, 2, &n);
    expect_text(out, "common.cl:1:1: error: a\ncommon.cl:36:9: note: b\ntiled.cl:4:1: c\n",
                "build log: first and last lines of each file");
    free(out);

    out = ocl_log_translate(
        "<kernel>:1:2: on the directive\n<kernel>:38:1: x\n<kernel>:43:1: past the end\n"
        "<built-in>:1:9: note: previous definition\nno position <here> at all <\n",
        pieces, 2, &n);
    expect_text(out,
                "<kernel>:1:2: on the directive\n<kernel>:38:1: x\n<kernel>:43:1: past the end\n"
                "<built-in>:1:9: note: previous definition\nno position <here> at all <\n",
                "build log: directives, lines past the end, <built-in> and stray '<' stay as they are");
    CHECK(n == 0, "build log: nothing counted when nothing changes (%d)", n);
    free(out);

    out = ocl_log_translate("tiled.cl:3:5: error: already named (PoCL)\n", pieces, 2, &n);
    expect_text(out, "tiled.cl:3:5: error: already named (PoCL)\n", "build log: a log that names files is kept");
    free(out);

    char summary[256];
    ocl_log_ptxas_summary(
        "ptxas info    : 0 bytes gmem\n"
        "ptxas info    : Compiling entry function 'gemm_blocked' for 'sm_90'\n"
        "ptxas info    : Function properties for gemm_blocked\n"
        "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 128 registers, 400 bytes cmem[0]\n",
        summary, sizeof summary);
    expect_text(summary,
                "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads; Used 128 registers, 400 bytes cmem[0]",
                "build log: ptxas's registers and spills picked out");
    ocl_log_ptxas_summary("warning: nothing of ptxas here\n", summary, sizeof summary);
    expect_text(summary, "", "build log: no ptxas lines, no summary");
    ocl_log_ptxas_summary("ptxas info    : Used 40 registers, 392 bytes cmem[0]", summary, 12);
    expect_text(summary, "Used 40 reg", "build log: the summary is cut to its buffer");
}
