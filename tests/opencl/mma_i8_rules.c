/*
 * mma's i8 x i8 -> i32 on the host side, without a device: the plugin's
 * kernel table and mma.c compiled into this test (as inline_ptx_needs.c);
 * the checks it shares with wgmma_8bit_rules.c are in variant_rule_checks.h.
 * mma lists i8 x i8 -> i32 alone, exact; bk must be a multiple of 32 in i8
 * (m16n8k32); the local memory the plugin computes is what ptxas reports
 * for kernels/opencl/mma.cl (tools/ocl_ptxas.sh: 24576 bytes for i8's
 * default and for 64 x 64 in 4 stages, 40960 for f16's default); i8 is
 * never dropped to bk 16 (a variant over the device's local memory is then
 * refused by the device's limit instead); the 16-byte copy path needs
 * offsets and rows of whole 16 bytes.
 */
#define CHECK_MAIN
#include <gemmhost/plugin_helpers.h>
#include "../check.h"
#include "kernels.h"
#include "variant_rule_checks.h"

/* The plugin's error text, which GH_PLUGIN_ENTRY defines in the plugin. */
GH_PLUGIN_THREAD_LOCAL char gh_plugin_error_text[GH_PLUGIN_ERROR_SIZE];

static ocl_variant resolved(int64_t bm, int64_t bn, int64_t bk, int64_t wm, int64_t wn, int64_t stages, gh_dtype dtype)
{
    const int64_t p[OCL_MMA_PARAMS] = {bm, bn, bk, wm, wn, stages};
    return resolved_on_nvidia(OCL_KERNEL_MMA, p, dtype);
}

static void declared(void)
{
    const gh_kernel_info *k = &ocl_kernels[OCL_KERNEL_MMA].info;
    const gh_type_combo *c = gh_plugin_find_combo(k, GH_I8, GH_I8, GH_I32);
    CHECK(k->n_combos == 1 && c && c->size == sizeof(gh_type_combo) && c->inputs == GH_PREC_AS_STORED &&
              c->accumulate == GH_PREC_AS_STORED && c->accumulate_bits == 0 && c->promote_every == 0,
          "mma lists i8*i8->i32 alone, inputs as stored, exact sums (%zu combinations)", k->n_combos);
    CHECK(!gh_plugin_find_combo(k, GH_E4M3, GH_E4M3, GH_F32), "mma lists no FP8 combination");
}

static void fits(int64_t bk, gh_dtype dtype, int want, const char *named)
{
    const ocl_variant v = resolved(128, 128, bk, 64, 64, 2, dtype);
    check_variant_fits(OCL_KERNEL_MMA, "mma", &v, dtype, want, named);
}

static void local_memory(void)
{
    ocl_variant v = resolved(128, 128, 32, 64, 64, 2, GH_I8);
    CHECK(v.local_bytes == 24576 && v.values[OCL_MMA_BK] == 32,
          "i8 default: 24576 bytes of local memory at bk 32, as ptxas reports (%llu, bk %lld)",
          (unsigned long long)v.local_bytes, (long long)v.values[OCL_MMA_BK]);
    v = resolved(64, 64, 32, 32, 32, 4, GH_I8);
    CHECK(v.local_bytes == 24576, "i8 64 x 64 in 4 stages: 24576 bytes (%llu)", (unsigned long long)v.local_bytes);
    v = resolved(128, 128, 32, 64, 64, 2, GH_F16);
    CHECK(v.local_bytes == 40960, "f16 default: 40960 bytes, unchanged (%llu)", (unsigned long long)v.local_bytes);
    /* Over 48 KB: f32 drops to bk 16, i8 keeps 32 (the device's limit refuses it). */
    v = resolved(256, 256, 32, 64, 64, 4, GH_I8);
    CHECK(v.values[OCL_MMA_BK] == 32 && v.local_bytes == 4 * 2 * 256 * 48,
          "i8 256 x 256 in 4 stages keeps bk 32 (%lld), %llu bytes, over 48 KB", (long long)v.values[OCL_MMA_BK],
          (unsigned long long)v.local_bytes);
    v = resolved(128, 128, 32, 64, 64, 2, GH_F32);
    CHECK(v.values[OCL_MMA_BK] == 16, "f32 default drops to bk 16 (%lld)", (long long)v.values[OCL_MMA_BK]);
}

int main(void)
{
    declared();
    fits(32, GH_I8, 1, NULL);
    fits(16, GH_I8, 0, "steps of 32");
    fits(16, GH_F16, 1, NULL);
    local_memory();
    check_copy_paths(resolved(128, 128, 32, 64, 64, 2, GH_I8), GH_I8, 1024);
    return check_summary("opencl mma i8 rules");
}
