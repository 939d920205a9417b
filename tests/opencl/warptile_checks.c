/* warptile: parameter sets x dtypes x transposes over odd shapes, each
 * result checked on the host, with the 16-byte global loads both taken and
 * not (offset and leading dimensions multiples of 16 bytes or not, shapes
 * whose edges fall inside a piece or on one); and the refusals before
 * compiling (parameters that do not fit together, over the device's limits).
 *
 * On software devices (PoCL), where each parameter set and dtype is a
 * compile of seconds (f16: up to 13 s), f32 takes every set, f64 two, f16
 * and bf16 one each; hardware devices take every set in every dtype. */
#include <stdio.h>
#include <string.h>
#include "../check.h"
#include "gemm_case.h"
#include "plugin_handle.h"
#include "warptile_checks.h"

#define N_PARAMS 7 /* bm bn bk wm wn tm tn */

typedef struct wt_set {
    int64_t p[N_PARAMS];
    const char *why; /* what the set exercises */
} wt_set;

static const wt_set sets[] = {
    {{128, 128, 16, 64, 32, 8, 8}, "the default: 8 warps of 8 x 4 work-items"},
    {{64, 64, 32, 32, 32, 4, 8}, "128 work-items, bk deeper than a warp's tile is wide, tm != tn"},
    {{256, 64, 8, 64, 32, 8, 8}, "256-row blocks, bk 8 (one f16 piece per row of a K-contiguous tile)"},
    {{64, 256, 16, 16, 128, 8, 8}, "2 x 16 work-items per warp, 256-column blocks"},
    {{128, 128, 16, 32, 16, 4, 4}, "1024 work-items: more than a tile has 16-byte pieces"},
    {{64, 64, 8, 32, 64, 8, 8}, "2 warps (64 work-items), several pieces each"},
};
#define N_SETS (sizeof sets / sizeof sets[0])

/* Sets per dtype on software devices (indices into sets[]). */
static int software_takes(gh_dtype d, size_t set)
{
    switch (d) {
    case GH_F32: return 1;
    case GH_F64: return set == 0 || set == 4;
    case GH_F16: return set == 0;
    case GH_BF16: return set == 1;
    default: return 0;
    }
}

typedef struct wt_shape {
    int64_t m, n, k;
    int64_t pad;
    uint64_t offset;
} wt_shape;

/* For a set with blocks bm x bn and K step bk: odd shapes with offset 3
 * and pad 1 (element loads everywhere); shapes whose M, N and K are alike
 * modulo 8, with pad 3 and offset 8 so that every leading dimension and
 * offset is a multiple of 16 bytes while the edges cut pieces (16-byte
 * loads, and element by element across the edge); whole pieces with pad 0;
 * one operand aligned and the other not; more block rows than a group of
 * work-groups has (8). */
static int shapes_for(const wt_set *s, int is_half, wt_shape *out)
{
    const int64_t bm = s->p[0], bn = s->p[1], bk = s->p[2];
    int n = 0;
    out[n++] = (wt_shape){37, 53, 29, 1, 3};
    out[n++] = (wt_shape){37, 45, 29, 3, 8};
    out[n++] = (wt_shape){bm + 5, 2 * bn + 5, 3 * bk + 5, 3, 8};
    if (is_half) return n;
    out[n++] = (wt_shape){1, 1, 1, 1, 3};
    out[n++] = (wt_shape){1, 40, 1, 0, 8};
    out[n++] = (wt_shape){33, 1, 17, 1, 3};
    out[n++] = (wt_shape){bm - 1, bn + 1, bk + 1, 1, 3};
    out[n++] = (wt_shape){bm + 1, bn - 1, bk - 1, 1, 3};
    out[n++] = (wt_shape){2 * bm + 1, bn, 3, 1, 3};
    out[n++] = (wt_shape){bm, bn, 2 * bk, 0, 8};
    out[n++] = (wt_shape){bm + 8, bn + 8, bk + 8, 0, 8};
    out[n++] = (wt_shape){64, 37, 40, 0, 8};
    /* Work-groups go in groups of 8 block rows: 9 rows of blocks, a second group of one. */
    out[n++] = (wt_shape){8 * bm + bm / 2 + 1, bn + 3, 9, 1, 3};
    return n;
}

static void run_set(const gh_plugin_api *api, gh_plugin *ctx, int device, int kernel, const wt_set *s, gh_dtype d,
                    unsigned *counter)
{
    static const double ab[2][2] = {{1.5, -0.75}, {-1.25, 0}};
    const int is_half = d == GH_F16 || d == GH_BF16;
    wt_shape shapes[16];
    const int n_shapes = shapes_for(s, is_half, shapes);
    for (int trans = 0; trans < 4; trans++)
        for (int i = 0; i < n_shapes; i++) {
            const unsigned n = (*counter)++;
            gemm_case c = {.kernel = kernel,
                           .n_params = N_PARAMS,
                           .dtype = d,
                           .trans_a = trans >> 1,
                           .trans_b = trans & 1,
                           .m = shapes[i].m,
                           .n = shapes[i].n,
                           .k = shapes[i].k,
                           .alpha = ab[n & 1][0],
                           .beta = ab[n & 1][1],
                           .pad = shapes[i].pad,
                           .offset = shapes[i].offset,
                           .seed = 7000u + n,
                           .repeat = n % 8 == 0};
            memcpy(c.params, s->p, sizeof s->p);
            char what[256], why[1024] = "";
            gemm_case_describe(api, ctx, &c, what, sizeof what);
            case_result r = gemm_case_run(api, ctx, device, &c, why, sizeof why);
            if (r == CASE_SKIP) check_skip("%s (%s): %s", what, s->why, why);
            else CHECK(r == CASE_PASS, "%s (%s)%s%s", what, s->why, r == CASE_PASS ? "" : ": ", why);
        }
}

/* A refusal before anything is built: GH_UNSUPPORTED whose words contain
 * each of the texts. */
static void expect_refusal(const gh_plugin_api *api, gh_plugin *ctx, int device, int kernel, const int64_t *p,
                           const char *what, const char *text1, const char *text2)
{
    gh_status st = gemm_case_status(api, ctx, device, kernel, p, N_PARAMS);
    const char *err = api->last_error(ctx);
    CHECK(st == GH_UNSUPPORTED && strstr(err, text1) && strstr(err, text2),
          "warptile %s: GH_UNSUPPORTED naming '%s' and '%s' (status %d: %s)", what, text1, text2, (int)st, err);
}

static void check_refusals(const gh_plugin_api *api, gh_plugin *ctx, int device, int kernel)
{
    const int64_t wider[N_PARAMS] = {64, 128, 16, 128, 32, 8, 8};
    expect_refusal(api, ctx, device, kernel, wider, "wm 128 > bm 64", "must divide the block tile",
                   "bm=64 bn=128 bk=16 wm=128");
    const int64_t not_a_warp[N_PARAMS] = {128, 128, 16, 64, 64, 8, 8};
    expect_refusal(api, ctx, device, kernel, not_a_warp, "(wm / tm) * (wn / tn) = 64", "must be 32", "is 64");

    /* bm = bn = 256, warps of 16 x 32: 128 warps, 4096 work-items. */
    const gh_device_info *info = api->device_info(ctx, device);
    const int64_t huge[N_PARAMS] = {256, 256, 16, 16, 32, 4, 4};
    if (info && info->max_workgroup_size && info->max_workgroup_size < 4096)
        expect_refusal(api, ctx, device, kernel, huge, "with 4096 work-items", "4096 work-items",
                       "CL_DEVICE_MAX_WORK_GROUP_SIZE");
    else check_skip("warptile over the work-group limit: this device takes 4096 work-items");
    /* f32 at bm = bn = 256, bk = 32: 2 x 32 x (260 + 260) floats, 133,120
     * bytes of local memory (1024 work-items). */
    const int64_t deep[N_PARAMS] = {256, 256, 32, 64, 32, 8, 8};
    if (info && info->local_mem_bytes < 133120 && info->max_workgroup_size >= 1024)
        expect_refusal(api, ctx, device, kernel, deep, "with 133,120 bytes of local memory", "133120 bytes",
                       "CL_DEVICE_LOCAL_MEM_SIZE");
    else check_skip("warptile over local memory: this device has 133,120 bytes for a work-group");
}

void warptile_checks(const gh_plugin_api *api, gh_plugin *ctx, int device, int is_software)
{
    const int kernel = gh_test_find_kernel(api, ctx, "warptile");
    if (!CHECK(kernel >= 0, "the plugin has a warptile kernel")) return;
    check_refusals(api, ctx, device, kernel);
    unsigned counter = 0;
    static const gh_dtype dtypes[] = {GH_F32, GH_F64, GH_F16, GH_BF16};
    for (size_t s = 0; s < N_SETS; s++)
        for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; d++)
            if (!is_software || software_takes(dtypes[d], s))
                run_set(api, ctx, device, kernel, &sets[s], dtypes[d], &counter);
}
