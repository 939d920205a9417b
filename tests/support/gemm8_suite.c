#include "gemm8_suite.h"

#include <stdio.h>
#include <string.h>
#include "../check.h"
#include "data.h"
#include "gemmhost/plugin_helpers.h"
#include "plugin_handle.h"

const gh_test_shape8 gh_test_8bit_full_shapes[GH_TEST_8BIT_FULL_SHAPES] = {
    {0, 0, 1, 1, 1},     {0, 1, 1, 1, 1},     {1, 0, 1, 1, 1},     {1, 1, 1, 1, 1},
    {0, 0, 7, 13, 33},   {0, 1, 7, 13, 33},   {1, 0, 7, 13, 33},   {1, 1, 7, 13, 33},
    {0, 0, 65, 31, 129}, {0, 1, 65, 31, 129}, {1, 0, 65, 31, 129}, {1, 1, 65, 31, 129},
};

/* alpha, beta, scale_a, scale_b, scale_c, ld padding, offset. */
static const struct {
    double alpha, beta, sa, sb, sc;
    int64_t pad;
    uint64_t offset;
} fp8_variants[GH_TEST_8BIT_VARIANTS] =
    {
        {1.0, 0.0, 1.0, 1.0, 1.0, 0, 0},   {2.0, 0.5, 1.0, 1.0, 1.0, 3, 5}, {-1.0, 0.0, 2.0, 1.0, 1.0, 1, 1},
        {0.5, -2.0, 1.0, 0.25, 1.0, 0, 3}, {1.5, 1.0, 1.0, 1.0, 4.0, 2, 0}, {1.0, 0.25, 0.5, 2.0, 0.125, 0, 7},
        {-0.75, 1.0, 0.3, 1.0, 1.0, 5, 2},
},
  i8_variants[GH_TEST_8BIT_VARIANTS] = {
      {1.0, 0.0, 1, 1, 1, 0, 0}, {2.0, -1.0, 1, 1, 1, 3, 5}, {-1.0, 0.0, 1, 1, 1, 1, 1}, {3.0, 2.0, 1, 1, 1, 0, 3},
      {1.0, 1.0, 1, 1, 1, 2, 0}, {-2.0, 1.0, 1, 1, 1, 0, 7}, {1.0, -3.0, 1, 1, 1, 5, 2},
};

gh_test_case8 gh_test_8bit_case(const gh_dtype combo[3], const gh_test_shape8 *s, int variant, uint64_t seed)
{
    const int v = variant % GH_TEST_8BIT_VARIANTS;
    const int is_i8 = combo[0] == GH_I8;
    const double alpha = is_i8 ? i8_variants[v].alpha : fp8_variants[v].alpha;
    const double beta = is_i8 ? i8_variants[v].beta : fp8_variants[v].beta;
    gh_test_case8 c = {
        .types = {combo[0], combo[1], combo[2], is_i8 ? 1.0 : fp8_variants[v].sa, is_i8 ? 1.0 : fp8_variants[v].sb,
                  is_i8 ? 1.0 : fp8_variants[v].sc},
        .trans_a = s->trans_a,
        .trans_b = s->trans_b,
        .m = s->m,
        .n = s->n,
        .k = s->k,
        .alpha = alpha,
        .beta = beta,
        .pad = fp8_variants[v].pad,
        .offset = fp8_variants[v].offset,
        .seed = seed,
    };
    return c;
}

void gh_test_8bit_declared_sum(const gh_plugin_api *api, gh_plugin *ctx, int kernel, const char *label,
                               unsigned fp8_sum_bits)
{
    const gh_kernel_info *k = api->kernel_info(ctx, kernel);
    CHECK(k->n_combos == GH_TEST_8BIT_COMBOS, "%s: lists %d combinations (%zu)", label, GH_TEST_8BIT_COMBOS,
          k->n_combos);
    for (int i = 0; i < GH_TEST_8BIT_COMBOS; i++) {
        const gh_dtype *t = gh_test_8bit_combos[i];
        const gh_type_combo *combo = gh_plugin_find_combo(k, t[0], t[1], t[2]);
        const int fp8 = t[0] != GH_I8;
        const gh_precision acc = fp8 ? GH_PREC_F32 : GH_PREC_AS_STORED;
        const unsigned bits = fp8 ? fp8_sum_bits : 0;
        CHECK(combo && combo->size == sizeof(gh_type_combo) && combo->inputs == GH_PREC_AS_STORED &&
                  combo->accumulate == acc && combo->accumulate_bits == bits && combo->promote_every == 0,
              "%s: lists %s*%s->%s with inputs as stored and accumulate %s (%u-bit running sum)", label,
              gh_dtype_name(t[0]), gh_dtype_name(t[1]), gh_dtype_name(t[2]), fp8 ? "f32" : "exact", bits);
    }
}

void gh_test_8bit_declared(const gh_plugin_api *api, gh_plugin *ctx, int kernel, const char *label)
{
    gh_test_8bit_declared_sum(api, ctx, kernel, label, 0);
}

void gh_test_8bit_cases(const gh_plugin_api *api, gh_plugin *ctx, int device, int kernel, const int64_t *params,
                        size_t n_params, const char *label, const gh_test_shape8 *shapes, size_t n_shapes,
                        unsigned combo_mask, int variant_shift)
{
    for (int ci = 0; ci < GH_TEST_8BIT_COMBOS; ci++) {
        if (!(combo_mask >> ci & 1u)) continue;
        for (size_t si = 0; si < n_shapes; si++) {
            const int variant = (int)((si + (size_t)ci + (size_t)variant_shift) % GH_TEST_8BIT_VARIANTS);
            gh_test_case8 c = gh_test_8bit_case(gh_test_8bit_combos[ci], &shapes[si], variant, 0x8b17 + si);
            char name[200], why[400];
            gh_test_case8_name(&c, name, sizeof name);
            gh_test_case8_result r = gh_test_run_case8(api, ctx, device, kernel, params, n_params, &c, why, sizeof why);
            CHECK(r == GH_TEST_CASE8_PASS, "%s: %s%s%s", label, name, r == GH_TEST_CASE8_PASS ? "" : ": ",
                  r == GH_TEST_CASE8_PASS ? "" : why);
        }
    }
}

/* One refused call: the status expected, and the plugin's reason printed. */
static void refused(const gh_plugin_api *api, gh_plugin *ctx, int device, int kernel, const int64_t *params,
                    size_t n_params, const char *label, const gh_test_types *types, double alpha, gh_status expected,
                    const char *what)
{
    gh_buffer *a = NULL, *b = NULL, *c = NULL;
    if (api->buffer_alloc(ctx, device, 64, &a) != GH_OK || api->buffer_alloc(ctx, device, 64, &b) != GH_OK ||
        api->buffer_alloc(ctx, device, 64, &c) != GH_OK) {
        CHECK(0, "%s: %s: buffer_alloc: %s", label, what, api->last_error(ctx));
    } else {
        gh_test_problem p = {.m = 2, .n = 2, .k = 2, .alpha = alpha, .beta = 0.0};
        gh_gemm_args args = gh_test_typed_gemm_args(&p, types, (gh_test_operand){a, 2, 0}, (gh_test_operand){b, 2, 0},
                                                    (gh_test_operand){c, 2, 0}, params, n_params);
        gh_gemm_timing timing = {.size = sizeof timing};
        gh_status st = api->gemm(ctx, device, kernel, &args, &timing);
        CHECK(st == expected, "%s: %s: status %d (expected %d): %s", label, what, (int)st, (int)expected,
              st == GH_OK ? "(ran)" : api->last_error(ctx));
    }
    api->buffer_free(ctx, a);
    api->buffer_free(ctx, b);
    api->buffer_free(ctx, c);
}

void gh_test_8bit_refusals(const gh_plugin_api *api, gh_plugin *ctx, int device, int kernel, const int64_t *params,
                           size_t n_params, const char *label)
{
    const gh_test_types fp8_i32 = {GH_E4M3, GH_E4M3, GH_I32, 1, 1, 1}, i8_f32 = {GH_I8, GH_I8, GH_F32, 1, 1, 1},
                        i8_scaled = {GH_I8, GH_I8, GH_I32, 2, 1, 1}, i8 = {GH_I8, GH_I8, GH_I32, 1, 1, 1};
    refused(api, ctx, device, kernel, params, n_params, label, &fp8_i32, 1.0, GH_UNSUPPORTED, "e4m3*e4m3->i32 refused");
    refused(api, ctx, device, kernel, params, n_params, label, &i8_f32, 1.0, GH_UNSUPPORTED, "i8*i8->f32 refused");
    refused(api, ctx, device, kernel, params, n_params, label, &i8_scaled, 1.0, GH_INVALID_ARGUMENT,
            "i8 with scale_a 2 refused");
    refused(api, ctx, device, kernel, params, n_params, label, &i8, 0.5, GH_INVALID_ARGUMENT,
            "i8 with alpha 0.5 refused");
}

const char *const gh_test_8bit_i8_only_kernels[GH_TEST_8BIT_I8_ONLY_KERNELS] = {"mma", "coopmat"};
const char *const gh_test_8bit_hopper_kernels[GH_TEST_8BIT_HOPPER_KERNELS] = {"wgmma"};

void gh_test_8bit_kernel_table(const gh_plugin_api *api, gh_plugin *ctx, const char *const *named, int n)
{
    for (int i = 0; i < api->kernel_count(ctx); i++) {
        const gh_kernel_info *k = api->kernel_info(ctx, i);
        int listed = 0, hopper = 0, i8_only = 0;
        for (int e = 0; e < n; e++) listed |= strcmp(k->name, named[e]) == 0;
        for (int e = 0; e < GH_TEST_8BIT_HOPPER_KERNELS; e++)
            hopper |= strcmp(k->name, gh_test_8bit_hopper_kernels[e]) == 0;
        for (int e = 0; e < GH_TEST_8BIT_I8_ONLY_KERNELS; e++)
            i8_only |= strcmp(k->name, gh_test_8bit_i8_only_kernels[e]) == 0;
        if (listed) gh_test_8bit_declared(api, ctx, i, k->name);
        else if (hopper) gh_test_8bit_declared_sum(api, ctx, i, k->name, GH_TEST_8BIT_HOPPER_SUM_BITS);
        else if (i8_only)
            CHECK(k->n_combos == 1 && k->combos[0].a == GH_I8 && k->combos[0].b == GH_I8 && k->combos[0].c == GH_I32 &&
                      k->combos[0].inputs == GH_PREC_AS_STORED && k->combos[0].accumulate == GH_PREC_AS_STORED &&
                      k->combos[0].accumulate_bits == 0,
                  "%s lists i8*i8->i32 alone, exact (it has %zu)", k->name, k->n_combos);
        else CHECK(k->n_combos == 0, "%s lists no type combination (it has %zu)", k->name, k->n_combos);
    }
}

size_t gh_test_8bit_defaults(const gh_kernel_info *k, int64_t *values, size_t room)
{
    for (size_t i = 0; i < k->n_params && i < room; i++) values[i] = k->params[i].default_value;
    return k->n_params;
}

void gh_test_8bit_blocked_other_works(const gh_plugin_api *api, gh_plugin *ctx, const gh_test_shape8 *shapes,
                                      size_t n_shapes)
{
    const int kernel = gh_test_find_kernel(api, ctx, "blocked");
    if (kernel < 0) return; /* reported by the kernel-table check */
    static const struct {
        int64_t tile, work;
        unsigned combos; /* e5m2*e4m3->f16 and i8; e4m3*e5m2->f32 and i8 */
    } sets[] = {{32, 2, 1u << 7 | 1u << 12}, {32, 4, 1u << 3 | 1u << 12}};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        const int64_t params[2] = {sets[i].tile, sets[i].work}; /* blocked's order: tile, work */
        char label[48];
        snprintf(label, sizeof label, "blocked tile=%lld work=%lld", (long long)sets[i].tile, (long long)sets[i].work);
        gh_test_8bit_cases(api, ctx, 0, kernel, params, 2, label, shapes, n_shapes, sets[i].combos, (int)i);
    }
}

const char *const gh_test_8bit_gpu_kernels[GH_TEST_8BIT_GPU_KERNELS] = {"naive", "tiled", "blocked"};

int gh_test_8bit_gpu_start(gh_test_plugin *h, int argc, char **argv, const char *plugin_file, const char *api_name,
                           const gh_option_value *options, size_t n_options)
{
    const int rc = gh_test_plugin_start_with(h, argc, argv, plugin_file, options, n_options);
    if (rc != 0) return rc;
    check_quiet = 1;
    gh_test_8bit_kernel_table(h->api, h->ctx, gh_test_8bit_gpu_kernels, GH_TEST_8BIT_GPU_KERNELS);
    if (h->api->device_count(h->ctx) < 1) {
        printf("skip: no %s device: %s\n", api_name, h->api->last_error(h->ctx));
        gh_test_plugin_unload(h);
        return 77;
    }
    return 0;
}

void gh_test_8bit_gpu_suite(const gh_plugin_api *api, gh_plugin *ctx, const gh_test_shape8 *shapes, size_t n_shapes)
{
    for (int e = 0; e < GH_TEST_8BIT_GPU_KERNELS; e++) {
        const char *name = gh_test_8bit_gpu_kernels[e];
        const int kernel = gh_test_find_kernel(api, ctx, name);
        if (!CHECK(kernel >= 0, "kernel %s found", name)) continue;
        int64_t params[8];
        const size_t n_params = gh_test_8bit_defaults(api->kernel_info(ctx, kernel), params, 8);
        gh_test_8bit_cases(api, ctx, 0, kernel, params, n_params, name, shapes, n_shapes,
                           e == 0 ? GH_TEST_8BIT_ALL_COMBOS : GH_TEST_8BIT_COVERING_COMBOS, 2 * e);
        gh_test_8bit_refusals(api, ctx, 0, kernel, params, n_params, name);
    }
    gh_test_8bit_blocked_other_works(api, ctx, shapes, n_shapes);
}
