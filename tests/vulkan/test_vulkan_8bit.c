/* The Vulkan plugin's 8-bit GEMMs (ABI 1.5) through its ABI, on the first
 * device (lavapipe here, which is slow: a small sample): naive, tiled and
 * blocked list every combination (e4m3/e5m2 pairs into f32, f16, bf16, FP8
 * decoded in the shader; i8 x i8 -> i32) and run them at their default
 * parameters on four shapes that cover every transpose and alpha/beta,
 * scale, padding and offset variant (naive all 13 combinations, tiled and
 * blocked 5 that cover every type), each result checked in full against the
 * f64 reference (tests/support/gemm8_suite.h); warptile lists none, coopmat
 * i8 x i8 -> i32 alone: refused where the device has no s8 cooperative
 * matrices (lavapipe has none), saying what is missing, and run with them
 * emulated (the option emulate = cooperative_matrix) at three parameter sets,
 * every transpose, odd and aligned shapes (the 16-byte copies), alpha and
 * beta, bit for bit.
 *   test_vulkan_8bit PATH/gemmhost-vulkan.so     exit 77 when no device */
#include <stdio.h>
#include <string.h>

#include "gemmhost/plugin_helpers.h"

#include "gemm8_suite.h"
#include "plugin_handle.h"

#define CHECK_MAIN
#include "../check.h"

#define SKIP_EXIT      77
#define MAX_PARAMS     8
/* coopmat's parameters: bm, bn, subgroups, bk, shape, stages */
#define COOPMAT_PARAMS 6

/* Each transpose once, at the edge shapes of the full set. */
static const gh_test_shape8 shapes[] = {
    {0, 0, 1, 1, 1},
    {0, 1, 7, 13, 33},
    {1, 0, 65, 31, 129},
    {1, 1, 7, 13, 33},
};

/* coopmat lists i8 x i8 -> i32 (exact) and nothing else. */
static void coopmat_declares_i8(const gh_plugin_api *api, gh_plugin *ctx, int kernel)
{
    const gh_kernel_info *k = api->kernel_info(ctx, kernel);
    const gh_type_combo *combo = gh_plugin_find_combo(k, GH_I8, GH_I8, GH_I32);
    CHECK(k->n_combos == 1 && combo && combo->inputs == GH_PREC_AS_STORED && combo->accumulate == GH_PREC_AS_STORED &&
              combo->accumulate_bits == 0,
          "coopmat lists i8*i8->i32, exact, alone (%zu combinations)", k->n_combos);
}

/* Where the device offers no s8 cooperative matrices (it lists none with
 * "i8"), coopmat refuses i8 as unsupported, naming the device and what it
 * lacks: no cooperative matrices at all (lavapipe), or no s8 shape. */
static void coopmat_i8_refused(const gh_plugin_api *api, gh_plugin *ctx, int kernel)
{
    const gh_device_info *info = api->device_info(ctx, 0);
    const char *list = strstr(info->api, "cooperative matrices (");
    if (list && strstr(list, " i8 ")) {
        printf("note: device 0 offers s8 cooperative matrices (%s): the refusal is not checked\n", list);
        return;
    }
    int64_t params[MAX_PARAMS];
    const size_t n_params = gh_test_8bit_defaults(api->kernel_info(ctx, kernel), params, MAX_PARAMS);
    gh_test_case8 c = gh_test_8bit_case(gh_test_8bit_combos[12], &shapes[1], 0, 1);
    char why[400];
    gh_test_case8_result r = gh_test_run_case8(api, ctx, 0, kernel, params, n_params, &c, why, sizeof why);
    const int lacks = list ? strstr(why, "s8 x s8 + s32") || strstr(why, "shaderInt8")
                           : strstr(why, "neither VK_KHR_cooperative_matrix nor VK_NV_cooperative_matrix") != NULL;
    CHECK(r == GH_TEST_CASE8_REFUSED && strstr(why, "kernel coopmat: i8") && strstr(why, info->name) && lacks,
          "coopmat refuses i8 on %s, naming what it lacks: %s", info->name, why);
}

/* Shapes whose rows are whole 16-byte pieces (ld and offsets multiples of
 * 16 i8): the copies go 16 bytes at a time where a tile is wholly inside
 * (the first four; the last four at K 64 or below, the next paragraph). */
static const gh_test_shape8 aligned_shapes[] = {
    {0, 0, 128, 64, 96},  {0, 1, 128, 64, 96},  {1, 0, 128, 64, 96},  {1, 1, 144, 80, 160},
    {0, 0, 256, 128, 64}, {0, 1, 128, 144, 32}, {1, 0, 144, 128, 64}, {1, 1, 272, 256, 64},
};

/* Each transpose at K 64 or below, past the 128 x 128 block both ways:
 * Mesa 22.3's lavapipe gets the emulated kernel wrong at a 128 x 128 block
 * of 4 subgroups past 2 k steps (K 129 and 160 fail in f16 at main's
 * code too, K 64 passes; Mesa 25.0 gets the f16 ones right). */
static const gh_test_shape8 short_k_shapes[] = {
    {0, 0, 1, 1, 1},
    {0, 1, 7, 13, 33},
    {1, 0, 129, 131, 64},
    {1, 1, 65, 257, 63},
};

/* coopmat i8 with the cooperative matrices emulated: the tiling, the byte
 * copies (element by element and 16 bytes at a time), the s8 products and
 * s32 sums and the integer epilogue, checked bit for bit. */
static void coopmat_i8_emulated(const gh_plugin_api *api)
{
    gh_option_value opt = {"emulate", "cooperative_matrix"};
    gh_plugin *ctx = NULL;
    if (!CHECK(api->open(&opt, 1, &ctx) == GH_OK, "emulate: open with emulate=cooperative_matrix: %s",
               api->last_error(NULL)))
        return;
    const int kernel = gh_test_find_kernel(api, ctx, "coopmat");
    const gh_device_info *info = api->device_info(ctx, 0);
    CHECK(kernel >= 0 && strstr(info->api, "i8 16x16x32 16x8x32 (s32 sums)"),
          "emulate: device 0 lists the emulated i8 shapes (api \"%s\")", info->api);
    /* bm, bn, subgroups, bk, shape, stages: the default (16x16x32; K 64
     * or below, above), both s8 shapes, 4 and 8 subgroups, 1 and 2 stages
     * (within lavapipe's 32 KiB of shared memory) */
    static const int64_t sets[][MAX_PARAMS] = {
        {128, 128, 4, 32, 0, 2},
        {64, 64, 4, 32, 16832, 1},
        {64, 128, 8, 32, 16832, 2},
    };
    for (size_t s = 0; kernel >= 0 && s < sizeof sets / sizeof sets[0]; s++) {
        char label[96];
        snprintf(label, sizeof label, "emulate: coopmat bm=%lld bn=%lld subgroups=%lld shape=%lld stages=%lld",
                 (long long)sets[s][0], (long long)sets[s][1], (long long)sets[s][2], (long long)sets[s][4],
                 (long long)sets[s][5]);
        const int short_k = s == 0;
        gh_test_8bit_cases(api, ctx, 0, kernel, sets[s], COOPMAT_PARAMS, label, short_k ? short_k_shapes : shapes, 4,
                           1u << 12, (int)s);
        for (size_t sh = short_k ? 4 : 0; sh < (short_k ? 8u : 4u); sh++) {
            /* alpha and beta of the variants, tight and at an offset of 16 */
            gh_test_case8 c =
                gh_test_8bit_case(gh_test_8bit_combos[12], &aligned_shapes[sh], (int)(sh + s), 0x8c00 + sh);
            c.pad = 0;
            c.offset = (sh & 1u) ? 16 : 0;
            char name[200], why[400];
            gh_test_case8_name(&c, name, sizeof name);
            gh_test_case8_result r =
                gh_test_run_case8(api, ctx, 0, kernel, sets[s], COOPMAT_PARAMS, &c, why, sizeof why);
            CHECK(r == GH_TEST_CASE8_PASS, "%s: %s%s%s", label, name, r == GH_TEST_CASE8_PASS ? "" : ": ",
                  r == GH_TEST_CASE8_PASS ? "" : why);
        }
    }
    /* f16 at an s8 shape, i8 at an f16 one: refused, naming the shape */
    static const int64_t i8_at_f16_shape[MAX_PARAMS] = {64, 64, 4, 32, 16816, 1};
    gh_test_case8 c = gh_test_8bit_case(gh_test_8bit_combos[12], &shapes[1], 0, 1);
    char why[400];
    gh_test_case8_result r =
        gh_test_run_case8(api, ctx, 0, kernel, i8_at_f16_shape, COOPMAT_PARAMS, &c, why, sizeof why);
    CHECK(kernel < 0 || (r == GH_TEST_CASE8_REFUSED && strstr(why, "16x8x16 s8 x s8 + s32")),
          "emulate: coopmat i8 at shape 16x8x16 is refused, naming it: %s", why);
    api->close(ctx);
}

int main(int argc, char **argv)
{
    gh_test_plugin h;
    const int rc = gh_test_8bit_gpu_start(&h, argc, argv, "gemmhost-vulkan.so", "Vulkan", NULL, 0);
    if (rc != 0) return rc;
    const gh_plugin_api *api = h.api;
    /* A device without 8-bit storage refuses them all, saying so: a skip. */
    const int naive = gh_test_find_kernel(api, h.ctx, "naive");
    int64_t params[MAX_PARAMS];
    const size_t n_params = gh_test_8bit_defaults(api->kernel_info(h.ctx, naive), params, MAX_PARAMS);
    gh_test_case8 probe = gh_test_8bit_case(gh_test_8bit_combos[0], &shapes[0], 0, 1);
    char why[400];
    if (gh_test_run_case8(api, h.ctx, 0, naive, params, n_params, &probe, why, sizeof why) == GH_TEST_CASE8_REFUSED &&
        strstr(why, "storageBuffer8BitAccess")) {
        printf("skip: 8-bit GEMMs: %s\n", why);
        gh_test_plugin_unload(&h);
        return SKIP_EXIT;
    }
    gh_test_8bit_gpu_suite(api, h.ctx, shapes, sizeof shapes / sizeof shapes[0]);
    const int coopmat = gh_test_find_kernel(api, h.ctx, "coopmat");
    if (CHECK(coopmat >= 0, "kernel coopmat found")) {
        coopmat_declares_i8(api, h.ctx, coopmat);
        coopmat_i8_refused(api, h.ctx, coopmat);
        coopmat_i8_emulated(api);
    }
    gh_test_plugin_unload(&h);
    return check_summary("vulkan_plugin_8bit");
}
