/* The coopmat kernel where the device has no cooperative matrices of the
 * case's dtype and shape: refused, with the reason. */
#include "coopmat_checks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "gemm_args.h"

int coopmat_offers(const plugin *pl, int device, gh_dtype dtype, int64_t shape)
{
    const char *api = pl->api->device_info(pl->ctx, device)->api;
    const char *list = strstr(api, "cooperative matrices (");
    if (!list || !(list = strstr(list, "): "))) return 0;
    /* Words: a dtype ("f16", "bf16,"), then its shapes ("16x8x16"). */
    char words[256];
    snprintf(words, sizeof words, "%s", list + 3);
    int in_dtype = 0;
    for (char *save = NULL, *w = strtok_r(words, " ,", &save); w; w = strtok_r(NULL, " ,", &save)) {
        unsigned m, n, k;
        char end;
        if (sscanf(w, "%ux%ux%u%c", &m, &n, &k, &end) != 3) {
            in_dtype = strcmp(w, dtype == GH_F16 ? "f16" : "bf16") == 0;
            continue;
        }
        char digits[40]; /* the shape parameter's spelling: 16x8x16 is 16816 */
        snprintf(digits, sizeof digits, "%u%u%u", m, n, k);
        long long code = strtoll(digits, NULL, 10);
        int built = code == 161616 || code == 16816 || code == 1688; /* the shapes the kernel is built for */
        if (in_dtype && built && (shape == 0 || shape == code)) return 1;
    }
    return 0;
}

void coopmat_expect_refused(const plugin *pl, const gemm_case *c)
{
    const gh_plugin_api *api = pl->api;
    const gh_device_info *info = api->device_info(pl->ctx, c->device);
    char params[64], name[256];
    describe_params(pl, c, params, sizeof params);
    snprintf(name, sizeof name, "device %d coopmat %s %s", c->device, params, gh_plugin_dtype_name(c->p.dtype));
    gh_buffer *buf = NULL;
    if (api->buffer_alloc(pl->ctx, c->device, 64, &buf) != GH_OK) {
        CHECK(0, "%s: buffer_alloc: %s", name, api->last_error(pl->ctx));
        return;
    }
    gh_gemm_args args = gh_test_tight_args(c->p.dtype, 1, 1, 1, buf, buf, buf, c->params, c->n_params);
    args.c_offset = 16;
    gh_gemm_timing timing = {.size = sizeof timing};
    gh_status st = api->gemm(pl->ctx, c->device, c->kernel, &args, &timing);
    const char *e = api->last_error(pl->ctx);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "gemm: kernel coopmat: %s: ", gh_plugin_dtype_name(c->p.dtype));
    int names_it = strstr(e, info->name) != NULL;
    /* No cooperative matrices at all: both extensions named; else the
     * missing dtype or shape ("offers no"), or what else is lacking. */
    int reason = strstr(info->api, "cooperative matrices (")
                     ? strstr(e, "offers no") || strstr(e, "VK_KHR_shader_bfloat16") || strstr(e, "shaderFloat16") ||
                           strstr(e, "VK_KHR_cooperative_matrix")
                     : strstr(e, "neither VK_KHR_cooperative_matrix nor VK_NV_cooperative_matrix") != NULL;
    CHECK(st == GH_UNSUPPORTED && strncmp(e, prefix, strlen(prefix)) == 0 && names_it && reason,
          "%s is refused as unsupported, naming the device and what it lacks: status %d (wanted %d), error '%s'", name,
          (int)st, (int)GH_UNSUPPORTED, e);
    api->buffer_free(pl->ctx, buf);
}

void coopmat_vector_shapes(const int64_t params[MAX_PARAMS], int64_t shapes[COOPMAT_VECTOR_SHAPES][3])
{
    const int64_t bm = params[0], bn = params[1], bk = params[3];
    const int64_t list[COOPMAT_VECTOR_SHAPES][3] = {
        {bm, 2 * bn, 2 * bk},             /* whole tiles only */
        {2 * bm + 3, bn + 8, 3 * bk + 5}, /* whole tiles, then edges in every direction */
        {bm - 8, bn + 1, bk / 2},         /* one partial tile each way */
    };
    memcpy(shapes, list, sizeof list);
}

/* Under the option emulate: a block 256 wide with 4 subgroups is refused,
 * naming what it needs; so is a block over the device's shared memory. */
static void emulated_refusals(const plugin *pl, int kernel, int device)
{
    const gh_device_info *info = pl->api->device_info(pl->ctx, device);
    static const int64_t sets[][MAX_PARAMS] = {{128, 256, 4, 32, 0, 2}, {128, 256, 8, 32, 0, 2}};
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        gemm_case c = {.device = device, .kernel = kernel, .n_params = MAX_PARAMS};
        memcpy(c.params, sets[s], sizeof sets[s]);
        int64_t shape[3] = {5, 6, 7};
        make_problem(&c.p, GH_F16, 0, 0, shape, &scenarios[0]);
        uint64_t staged = 2 * (uint64_t)(sets[s][5] * (sets[s][0] + sets[s][1]) * (sets[s][3] + 8));
        char why[512] = "", bytes[64];
        snprintf(bytes, sizeof bytes, "%llu bytes", (unsigned long long)staged);
        const char *says = s == 0 ? "needs 8 subgroups" : bytes;
        if (s == 1 && staged <= info->local_mem_bytes) continue; /* fits this device */
        int passed = run_case(pl, &c, why, sizeof why, NULL);
        CHECK(!passed && strstr(why, "gemm returned 2") && strstr(why, says),
              "emulate: bm=%lld bn=%lld subgroups=%lld bk=%lld is refused as unsupported, saying '%s': '%s'",
              (long long)sets[s][0], (long long)sets[s][1], (long long)sets[s][2], (long long)sets[s][3], says,
              passed ? "it ran" : why);
    }
}

void coopmat_emulated(const gh_plugin_api *api, int device, sweep_scope scope)
{
    gh_option_value opt = {"emulate", "cooperative_matrix"};
    plugin pl = {api, NULL};
    if (api->open(&opt, 1, &pl.ctx) != GH_OK) {
        CHECK(0, "emulate: open with emulate=cooperative_matrix: %s", api->last_error(NULL));
        return;
    }
    int kernel = -1;
    for (int k = 0; k < api->kernel_count(pl.ctx); k++)
        if (strcmp(api->kernel_info(pl.ctx, k)->name, "coopmat") == 0) kernel = k;
    const gh_device_info *info = api->device_info(pl.ctx, device);
    CHECK(kernel >= 0 && strstr(info->api, "cooperative matrices (emulated in shader code"),
          "emulate: device %d lists the emulated shapes (api \"%s\")", device, info->api);
    /* bm, bn, subgroups, bk, shape, stages: every value of each among them
     * (bk: 32 only), within lavapipe's 32 KiB of shared memory */
    static const int64_t sets[][MAX_PARAMS] = {
        {128, 128, 8, 32, 0, 1},     {64, 64, 4, 32, 16816, 2}, {128, 64, 4, 32, 1688, 2},
        {64, 128, 8, 32, 161616, 2}, {64, 256, 8, 32, 0, 1},    {64, 64, 4, 32, 0, 1},
    };
    if (kernel >= 0) emulated_refusals(&pl, kernel, device);
    for (size_t s = 0; kernel >= 0 && s < sizeof sets / sizeof sets[0]; s++) {
        if ((scope == SWEEP_QUICK && s > 0) || (scope == SWEEP_SAMPLE && s > 1)) break;
        gemm_case proto = {.device = device, .kernel = kernel, .n_params = MAX_PARAMS};
        memcpy(proto.params, sets[s], sizeof sets[s]);
        for (int t = 0; t < 2; t++) {
            gh_dtype dtype = t ? GH_BF16 : GH_F16;
            /* One case first: a device lacking what the emulation needs refuses it. */
            gemm_case c = proto;
            int64_t first[3] = {5, 6, 7};
            make_problem(&c.p, dtype, 0, 0, first, &scenarios[0]);
            char why[512] = "";
            if (!run_case(&pl, &c, why, sizeof why, NULL) && strstr(why, "gemm returned 2") &&
                strstr(why, "the emulated coopmat kernel needs") && strstr(why, info->name)) {
                check_skip("emulate: device %d: %s", device, why);
                continue;
            }
            /* Edges of the block (bm x bn) everywhere, several blocks, K
             * below, at and over the k step. K stays at 64 or below: Mesa
             * 22.3's lavapipe gets this kernel wrong past 6 k steps of a
             * 128 x 128 block (and past 12 to 32 for 64 x 64), where Mesa
             * 25.0's gets every size right. */
            const int64_t bm = sets[s][0], bn = sets[s][1];
            const int64_t shapes[][3] = {
                {1, 1, 1},
                {1, 2 * bn + 3, 1},
                {2 * bm + 1, 1, 33},
                {37, 53, 29},
                {bm + 1, bn - 1, 64},
                {bm - 1, bn + 1, 17},
                {2 * bm + 1, bn, 47},
                {bm + 5, 2 * bn - 3, 7},
            };
            int64_t aligned[COOPMAT_VECTOR_SHAPES][3];
            coopmat_vector_shapes(proto.params, aligned);
            int before = check_failures();
            for (int tr = 0; tr < 4; tr++) {
                if (scope == SWEEP_QUICK && (tr == 1 || tr == 2)) continue;
                for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++)
                    for (int sc = 0; sc < SCENARIO_COUNT; sc++) {
                        c = proto;
                        make_problem(&c.p, dtype, tr >> 1, tr & 1, shapes[sh], &scenarios[sc]);
                        char name[256];
                        describe_case(&pl, &c, name, sizeof name);
                        int passed = run_case(&pl, &c, why, sizeof why, NULL);
                        CHECK(passed, "emulate: %s%s%s", name, passed ? "" : ": ", passed ? "" : why);
                    }
                /* 16-byte copies: packed, and ld and offsets multiples of 8 */
                for (size_t sh = 0; sh < COOPMAT_VECTOR_SHAPES; sh++)
                    for (int sc = 0; sc < 2; sc++) {
                        c = proto;
                        make_problem(&c.p, dtype, tr >> 1, tr & 1, aligned[sh], sc ? &vector8_scenario : &scenarios[1]);
                        char name[256];
                        describe_case(&pl, &c, name, sizeof name);
                        int passed = run_case(&pl, &c, why, sizeof why, NULL);
                        CHECK(passed, "emulate: %s%s%s", name, passed ? "" : ": ", passed ? "" : why);
                    }
            }
            char params[64];
            describe_params(&pl, &proto, params, sizeof params);
            printf("device %d: coopmat emulated %s %s: %s\n", device, params, gh_plugin_dtype_name(dtype),
                   check_failures() == before ? "all agree with the reference" : "FAILURES above");
        }
    }
    api->close(pl.ctx);
}

void coopmat_options(const gh_plugin_api *api)
{
    static const struct {
        const char *name, *value;
        int ok;
        const char *says; /* in the refusal */
    } cases[] = {
        {"hide_features", "VK_KHR_cooperative_matrix, VK_NV_cooperative_matrix,VK_KHR_shader_bfloat16", 1, NULL},
        {"hide_features", "storageBuffer16BitAccess,VK_KHR_cooperative_matrix", 1, NULL},
        {"hide_features", "VK_KHR_cooperative_matrices", 0, "VK_KHR_shader_bfloat16"},
        {"emulate", "cooperative_matrix", 1, NULL},
        {"emulate", "", 1, NULL},
        {"emulate", "bfloat16", 0, "emulate: unknown feature 'bfloat16' (known: cooperative_matrix)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gh_option_value opt = {cases[i].name, cases[i].value};
        gh_plugin *ctx = NULL;
        gh_status st = api->open(&opt, 1, &ctx);
        const char *e = st == GH_OK ? "" : api->last_error(NULL);
        if (cases[i].ok) CHECK(st == GH_OK, "open with %s = \"%s\" succeeds (%s)", cases[i].name, cases[i].value, e);
        else
            CHECK(st == GH_INVALID_ARGUMENT && strstr(e, cases[i].name) && strstr(e, cases[i].says),
                  "open with %s = \"%s\" is refused, naming the option and what it knows: status %d, '%s'",
                  cases[i].name, cases[i].value, (int)st, e);
        if (st == GH_OK) api->close(ctx);
    }
}
