/* The C plugin's 8-bit GEMMs (ABI 1.5) through its ABI: naive and tiled
 * list and run every combination (e4m3/e5m2 pairs into f32, f16, bf16;
 * i8 x i8 -> i32) on odd shapes, every transpose, alpha/beta, scales, ld
 * padding and offsets, each result checked in full against the f64
 * reference (tests/support/gemm8_suite.h); blas lists none and refuses.
 *   test_cpu_8bit PATH/gemmhost-cpu.so */
#include <stdio.h>

#include "gemm8_suite.h"
#include "plugin_handle.h"

#define CHECK_MAIN
#include "../check.h"

#define ALL_COMBOS ((1u << GH_TEST_8BIT_COMBOS) - 1u)

int main(int argc, char **argv)
{
    gh_test_plugin h;
    int rc = gh_test_plugin_start(&h, argc, argv, "gemmhost-cpu.so");
    if (rc != 0) return rc;
    check_quiet = 1;
    const gh_plugin_api *api = h.api;
    const int naive = gh_test_find_kernel(api, h.ctx, "naive"), tiled = gh_test_find_kernel(api, h.ctx, "tiled"),
              blas = gh_test_find_kernel(api, h.ctx, "blas");
    CHECK(naive >= 0 && tiled >= 0 && blas >= 0, "kernels naive, tiled and blas found");
    if (naive < 0 || tiled < 0 || blas < 0) return check_summary("cpu_8bit");

    gh_test_8bit_declared(api, h.ctx, naive, "naive");
    gh_test_8bit_declared(api, h.ctx, tiled, "tiled");
    const gh_kernel_info *blas_info = api->kernel_info(h.ctx, blas);
    CHECK(blas_info->n_combos == 0, "blas lists no type combination (it has %zu)", blas_info->n_combos);

    gh_test_8bit_cases(api, h.ctx, 0, naive, NULL, 0, "naive", gh_test_8bit_full_shapes, GH_TEST_8BIT_FULL_SHAPES,
                       ALL_COMBOS, 0);
    /* tile 4 cuts every shape into blocks with ragged edges; 32 leaves the
     * small shapes one block. Different variants meet each (shift). */
    static const int64_t tiles[] = {4, 32};
    for (int t = 0; t < 2; t++) {
        char label[32];
        snprintf(label, sizeof label, "tiled tile=%lld", (long long)tiles[t]);
        gh_test_8bit_cases(api, h.ctx, 0, tiled, &tiles[t], 1, label, gh_test_8bit_full_shapes,
                           GH_TEST_8BIT_FULL_SHAPES, ALL_COMBOS, 3 * (t + 1));
    }

    gh_test_8bit_refusals(api, h.ctx, 0, naive, NULL, 0, "naive");
    gh_test_8bit_refusals(api, h.ctx, 0, tiled, &tiles[1], 1, "tiled");
    /* blas: not listed, so every 8-bit request is GH_UNSUPPORTED. */
    gh_test_case8 c = gh_test_8bit_case(gh_test_8bit_combos[0], &gh_test_8bit_full_shapes[4], 0, 1);
    char why[400];
    gh_test_case8_result r = gh_test_run_case8(api, h.ctx, 0, blas, NULL, 0, &c, why, sizeof why);
    CHECK(r == GH_TEST_CASE8_REFUSED, "blas refuses e4m3*e4m3->f32 as unsupported: %s", why);

    gh_test_plugin_unload(&h);
    return check_summary("cpu_8bit");
}
