/*
 * The checks mma_i8_rules.c and wgmma_8bit_rules.c share: a variant resolved
 * against NVIDIA's 48 KB of local memory, whether ocl_variant_fits takes or
 * refuses it (naming the reason), and which copy path ocl_mma_path picks for
 * an nt call. Included once per test, after kernels.h and check.h.
 */
#ifndef GEMMHOST_TESTS_OPENCL_VARIANT_RULE_CHECKS_H
#define GEMMHOST_TESTS_OPENCL_VARIANT_RULE_CHECKS_H

#include <string.h>

#define NVIDIA_LOCAL_BYTES 49152 /* what NVIDIA's OpenCL gives a work-group */

static ocl_variant resolved_on_nvidia(int kernel, const int64_t *params, gh_dtype dtype)
{
    ocl_variant v;
    ocl_variant_resolve(kernel, params, dtype, NVIDIA_LOCAL_BYTES, &v);
    return v;
}

/* want 1: the variant fits; want 0: it is refused with `named` in the reason. */
static void check_variant_fits(int kernel, const char *kernel_name, const ocl_variant *v, gh_dtype dtype, int want,
                               const char *named)
{
    char why[256] = "";
    const int got = ocl_variant_fits(kernel, v, dtype, why, sizeof why);
    const long long bk = (long long)v->values[kernel == OCL_KERNEL_MMA ? OCL_MMA_BK : OCL_WGMMA_BK];
    if (want) CHECK(got == 1, "%s bk %lld in %s fits (refused: %s)", kernel_name, bk, gh_plugin_dtype_name(dtype), why);
    else
        CHECK(got == 0 && strstr(why, named), "%s bk %lld in %s refused naming '%s' (got %d: %s)", kernel_name, bk,
              gh_plugin_dtype_name(dtype), named, got, why);
}

/* The program of an nt call: 1 + 2 (trans_b), + 4 for the 16-byte path. */
static void check_copy_path(ocl_variant v, gh_dtype dtype, uint64_t a_offset, int64_t lda, uint64_t b_offset,
                            int64_t ldb, int want_vec)
{
    ocl_mma_path(&v, 0, 1, a_offset, lda, b_offset, ldb, dtype);
    CHECK(v.path == (want_vec ? 7 : 3), "%s nt, offsets %llu/%llu, ld %lld/%lld: %s path (path %d)",
          gh_plugin_dtype_name(dtype), (unsigned long long)a_offset, (unsigned long long)b_offset, (long long)lda,
          (long long)ldb, want_vec ? "16-byte" : "element", v.path);
}

/* The four nt calls both kernels are checked on: whole 16-byte offsets and
 * rows (ld, then a small padded one) take the 16-byte path; a row of 1001
 * bytes or an offset of 8 falls back to element copies. */
static void check_copy_paths(ocl_variant v, gh_dtype dtype, int64_t ld)
{
    check_copy_path(v, dtype, 0, ld, 0, ld, 1);
    check_copy_path(v, dtype, 16, 48, 32, 16, 1);
    check_copy_path(v, dtype, 0, 1001, 0, ld, 0);
    check_copy_path(v, dtype, 8, ld, 0, ld, 0);
}

#endif
