/*
 * wgmma's 8-bit inputs on the host side, without a device: the plugin's
 * kernel table and wgmma.c compiled into this test (as mma_i8_rules.c).
 * wgmma lists the 13 combinations with FP8's 13-bit running sum never
 * promoted and i8 exact; bk is 16 or 32 for f16 and bf16, 32 or 64 for 8
 * bits (k32 instructions); the local memory the plugin computes is what
 * ptxas reports for kernels/opencl/wgmma.cl (tools/ocl_ptxas.sh -k wgmma:
 * 24576 bytes for e4m3's and i8's default, 49152 for bk 64 and for f16's
 * default); the 16-byte copy path needs offsets and rows of whole 16 bytes.
 */
#define CHECK_MAIN
#include <gemmhost/plugin_helpers.h>
#include "../check.h"
#include "kernels.h"
#include "variant_rule_checks.h"

/* The plugin's error text, which GH_PLUGIN_ENTRY defines in the plugin. */
GH_PLUGIN_THREAD_LOCAL char gh_plugin_error_text[GH_PLUGIN_ERROR_SIZE];

static ocl_variant resolved(int64_t bm, int64_t bn, int64_t bk, int64_t stages, gh_dtype dtype)
{
    const int64_t p[OCL_WGMMA_PARAMS] = {bm, bn, bk, stages};
    return resolved_on_nvidia(OCL_KERNEL_WGMMA, p, dtype);
}

static void declared(void)
{
    const gh_kernel_info *k = &ocl_kernels[OCL_KERNEL_WGMMA].info;
    const gh_type_combo *fp8 = gh_plugin_find_combo(k, GH_E5M2, GH_E4M3, GH_F16);
    const gh_type_combo *i8 = gh_plugin_find_combo(k, GH_I8, GH_I8, GH_I32);
    CHECK(k->n_combos == 13, "wgmma lists 13 combinations (%zu)", k->n_combos);
    CHECK(fp8 && fp8->accumulate == GH_PREC_F32 && fp8->accumulate_bits == 13 && fp8->promote_every == 0,
          "e5m2*e4m3->f16: f32 declared, with the tensor cores' 13-bit sum never promoted");
    CHECK(i8 && i8->accumulate == GH_PREC_AS_STORED && i8->accumulate_bits == 0, "i8*i8->i32: exact");
    CHECK(!gh_plugin_find_combo(k, GH_E4M3, GH_E4M3, GH_I32) && !gh_plugin_find_combo(k, GH_I8, GH_I8, GH_F32),
          "no FP8 into i32, no i8 into f32");
}

static void fits(int64_t bk, gh_dtype dtype, int want, const char *named)
{
    const ocl_variant v = resolved(128, 128, bk, 3, dtype);
    check_variant_fits(OCL_KERNEL_WGMMA, "wgmma", &v, dtype, want, named);
}

static void local_memory(void)
{
    static const struct {
        int64_t bm, bn, bk, stages;
        gh_dtype dtype;
        uint64_t bytes; /* ptxas's "bytes smem" for the program */
    } cases[] = {
        {128, 128, 32, 3, GH_E4M3, 24576}, {128, 128, 32, 3, GH_I8, 24576}, {128, 128, 64, 3, GH_E5M2, 49152},
        {128, 256, 64, 2, GH_I8, 49152},   {64, 64, 32, 4, GH_E5M2, 16384}, {128, 128, 32, 3, GH_F16, 49152},
        {128, 256, 16, 4, GH_BF16, 49152}, {64, 64, 32, 4, GH_F16, 32768},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const ocl_variant v = resolved(cases[i].bm, cases[i].bn, cases[i].bk, cases[i].stages, cases[i].dtype);
        CHECK(v.local_bytes == cases[i].bytes, "%s %lld x %lld, bk %lld in %lld stages: %llu bytes (%llu)",
              gh_plugin_dtype_name(cases[i].dtype), (long long)cases[i].bm, (long long)cases[i].bn,
              (long long)cases[i].bk, (long long)cases[i].stages, (unsigned long long)cases[i].bytes,
              (unsigned long long)v.local_bytes);
    }
}

int main(void)
{
    declared();
    fits(32, GH_E4M3, 1, NULL);
    fits(64, GH_I8, 1, NULL);
    fits(16, GH_I8, 0, "steps of 32");
    fits(16, GH_E5M2, 0, "steps of 32");
    fits(16, GH_F16, 1, NULL);
    fits(32, GH_BF16, 1, NULL);
    fits(64, GH_F16, 0, "bk 64 is for 8-bit inputs");
    local_memory();
    check_copy_paths(resolved(128, 128, 32, 3, GH_E4M3), GH_E4M3, 4096);
    return check_summary("opencl wgmma 8-bit rules");
}
