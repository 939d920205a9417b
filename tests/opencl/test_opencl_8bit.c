/* The OpenCL plugin's 8-bit GEMMs (ABI 1.5) through its ABI, on the first
 * device (PoCL here): naive, tiled and blocked list and run every
 * combination (e4m3/e5m2 pairs into f32, f16, bf16, FP8 decoded in the
 * kernel; i8 x i8 -> i32; naive all 13, tiled and blocked 5 that cover
 * every type) at their default parameters on odd shapes, every
 * transpose, alpha/beta, scales, ld padding and offsets, each result checked
 * in full against the f64 reference (tests/support/gemm8_suite.h); the other
 * kernels list none.
 *   test_opencl_8bit PATH/gemmhost-opencl.so     exit 77 when no device */

#include "gemm8_suite.h"
#include "plugin_handle.h"

#define CHECK_MAIN
#include "../check.h"

int main(int argc, char **argv)
{
    gh_test_plugin h;
    const int rc = gh_test_8bit_gpu_start(&h, argc, argv, "gemmhost-opencl.so", "OpenCL");
    if (rc != 0) return rc;
    gh_test_8bit_gpu_suite(h.api, h.ctx, gh_test_8bit_full_shapes, GH_TEST_8BIT_FULL_SHAPES);
    gh_test_plugin_unload(&h);
    return check_summary("opencl_plugin_8bit");
}
