/*
 * f16 and bf16 on a CUDA device, and f32 on cublas-tf32: every kernel
 * variant that has the dtype x transpose x odd shape x layout x (alpha,
 * beta), checked by the host's own verification (core/verify/verify.c): inputs
 * exact in the storage type, the f64 reference, and the bound of the
 * arithmetic the kernel declares (gh_kernel_arith, as gemmhost uses it),
 * guards and row padding included. With beta 0, C starts as NaN.
 *
 * Then TF32 shown for what it is: cublas-tf32's result passes its declared
 * bound, and is printed against plain f32's, which TF32 inputs exceed where
 * K is small (the bound's K f32 roundings grow with K, the input roundings'
 * random errors only with its square root).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_test.h"
#include "tile_grid.h"
#include "variant.h"
#include "data.h"
#include "gemm_args.h"
#include "kernel_arith.h"
#include "verify.h"
#include "../verify/test_util.h"

/* Every variant the device runs (blocked at tile 128, work 2 needs 4096
 * threads: test_limits.c checks it is refused); warptile at its default and
 * with 128 threads at depth 32 in 4 stages; mma (tensor cores; f32 as TF32)
 * at its default, at its smallest blocks and steps, and at 256-row blocks
 * of 8 warps (32 deep: 64 needs more than the H100's 227 KB in f32);
 * wgmma at its default, 256-row blocks and its smallest, and the default
 * and the smallest in pairs of blocks sharing B (cluster 2: B's half boxes
 * when K-major, its 64-wide pieces when N-major; with bn 64 the pair's
 * first block loads the one piece); and persistent (a block walking tile
 * after tile) with grids of 3 blocks, 1 block and 1 pair, so that each
 * block walks many tiles on these small matrices (tiles 128 x 64: 8 x 16 at
 * 1000 x 1000 for the one block). */
static const variant variants[] = {
    CLASSIC_VARIANTS,
    {"cublas-tf32", {0, 0}},
    {"cublas-strict", {0, 0}},
    {"warptile", {128, 128, 16, 64, 32, 8, 8, 3, 1}},
    {"warptile", {64, 64, 32, 32, 32, 4, 8, 4, 1}},
    {"mma", {128, 128, 32, 64, 64, 4}},
    {"mma", {64, 64, 16, 32, 32, 2}},
    {"mma", {256, 128, 32, 128, 32, 3}},
    {"wgmma", {128, 256, 4, 0, 1, 0}},
    {"wgmma", {256, 128, 3, 0, 1, 0}},
    {"wgmma", {128, 64, 2, 0, 1, 0}},
    {"wgmma", {128, 256, 4, 0, 2, 0}},
    {"wgmma", {128, 64, 2, 0, 2, 0}},
    {"wgmma", {128, 256, 4, 0, 1, 1}},
    {"wgmma", {128, 64, 2, 0, 1, 1}},
    {"wgmma", {128, 64, 2, 0, 2, 1}},
};
#define N_VARIANTS (sizeof variants / sizeof variants[0])

/* The grid a persistent wgmma variant runs at here (GEMMHOST_CUDA_PERSISTENT_GRID):
 * one pair in pairs, one block at bn 64, else 3 blocks; NULL for the rest
 * (the device's SMs would give each block one tile of these matrices). */
static const char *persistent_grid_of(const variant *v)
{
    if (strcmp(v->kernel, "wgmma") != 0 || !v->params[5]) return NULL;
    return v->params[4] == 2 ? "2" : v->params[1] == 64 ? "1" : "3";
}

/* M, N, K: one element, one row, one column, primes, K below every tile,
 * tile +- 1 (blocked's 64 and 128 too), K = 4096 for a small C (f16
 * accumulation would be far outside the bound there), one large, and one
 * whose tight rows are whole 16 bytes (warptile's 16-byte copies). */
static const int64_t shapes[][3] = {
    {1, 1, 1},    {1, 67, 1},     {71, 1, 45},    {37, 53, 29},   {15, 17, 15}, {33, 31, 33},       {63, 65, 7},
    {65, 63, 64}, {127, 129, 17}, {129, 127, 47}, {257, 130, 33}, {8, 8, 4096}, {1000, 1000, 1000}, {136, 128, 72},
};

/* Extra elements per row and guard elements around each matrix: the tight
 * one keeps 16-byte alignment for f16 (cuBLAS's tensor-core paths), the
 * padded one has none; the last (pad -1: rows rounded up to 8 elements,
 * whole 16 bytes in every dtype here) is the one TMA reads in place, run
 * for the tensor-core kernels only. */
static const struct {
    const char *name;
    int64_t pad, guard;
} layouts[] = {{"tight", 0, 8}, {"ld+3", 3, 13}, {"ld to 16 bytes", -1, 8}};
#define ROWS_16_LAYOUT 2

static int64_t ld_of(int64_t cols, int64_t pad)
{
    return pad >= 0 ? cols + pad : (cols + 7) / 8 * 8;
}

static const char *const trans_names[] = {"nn", "nt", "tn", "tt"};

/* One case on the device: its host matrices, the reference, A and B
 * uploaded, C's buffer. */
typedef struct device_case {
    gh_dtype dtype;
    int ta, tb;
    int64_t m, n, k;
    double alpha, beta;
    gh_matrix a, b, c0, c_init, c_out; /* c_init: C0, or NaN when beta is 0 */
    gh_buffer *buf_a, *buf_b, *buf_c;
    gh_reference *ref;
} device_case;

static void case_free(const gh_plugin_api *api, gh_plugin *ctx, device_case *dc)
{
    gh_matrix *m[] = {&dc->a, &dc->b, &dc->c0, &dc->c_init, &dc->c_out};
    for (size_t i = 0; i < 5; ++i)
        if (m[i]->storage) gh_matrix_free(m[i]);
    gh_buffer *b[] = {dc->buf_a, dc->buf_b, dc->buf_c};
    for (size_t i = 0; i < 3; ++i)
        if (b[i]) api->buffer_free(ctx, b[i]);
    gh_reference_free(dc->ref);
    memset(dc, 0, sizeof *dc);
}

/* The whole storage of m (guards and padding too) into *buf, allocated on
 * first use. */
static gh_status upload_matrix(const gh_plugin_api *api, gh_plugin *ctx, int device, const gh_matrix *m,
                               gh_buffer **buf)
{
    size_t bytes = gh_matrix_storage_bytes(m);
    gh_status st = *buf ? GH_OK : api->buffer_alloc(ctx, device, bytes, buf);
    return st ? st : api->upload(ctx, *buf, 0, m->storage, bytes);
}

/* Host matrices (seeded, exact in the dtype), the reference, and A and B on
 * the device. 0 on success; on failure the caller frees what was made. */
static int case_make(const gh_plugin_api *api, gh_plugin *ctx, int device, device_case *dc, gh_dtype d, int ta, int tb,
                     const int64_t *shape, int64_t pad, int64_t guard, double alpha, double beta, uint64_t seed)
{
    *dc = (device_case){
        .dtype = d, .ta = ta, .tb = tb, .m = shape[0], .n = shape[1], .k = shape[2], .alpha = alpha, .beta = beta};
    const int64_t m = dc->m, n = dc->n, k = dc->k;
    const int64_t ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
    if (gh_matrix_alloc(&dc->a, d, ar, ac, ld_of(ac, pad), guard) ||
        gh_matrix_alloc(&dc->b, d, br, bc, ld_of(bc, pad), guard) ||
        gh_matrix_alloc(&dc->c0, d, m, n, ld_of(n, pad), guard) ||
        gh_matrix_alloc(&dc->c_init, d, m, n, ld_of(n, pad), guard) ||
        gh_matrix_alloc(&dc->c_out, d, m, n, ld_of(n, pad), guard))
        return -1;
    const gh_case_inputs in = test_seeded_inputs(d, ta, tb, m, n, k, alpha, beta, &dc->a, &dc->b, &dc->c0, seed, 0);
    if (beta != 0.0) gh_matrix_copy(&dc->c_init, &dc->c0);
    else gh_matrix_poison(&dc->c_init); /* never to be read */
    const gh_verify_options opt = {GH_VERIFY_FULL, 0.0, 3, 0, 0, seed};
    if (!(dc->ref = gh_reference_build(&in, &opt))) return -1;
    if (upload_matrix(api, ctx, device, &dc->a, &dc->buf_a) || upload_matrix(api, ctx, device, &dc->b, &dc->buf_b))
        return -1;
    return 0;
}

/* One variant on a prepared case: C uploaded afresh, the GEMM (queued on
 * `stream` with gemm_async when it is not NULL), C downloaded into c_out.
 * GH_OK, or the failing call's status (last_error says why). */
static gh_status run_variant(const gh_plugin_api *api, gh_plugin *ctx, int device, device_case *dc, const variant *v,
                             gh_stream *stream, gh_gemm_timing *timing)
{
    gh_status st = upload_matrix(api, ctx, device, &dc->c_init, &dc->buf_c);
    if (st) return st;
    const gh_test_problem problem = {dc->dtype, dc->ta, dc->tb, dc->m, dc->n, dc->k, dc->alpha, dc->beta};
    const gh_gemm_args args = gh_test_gemm_args(&problem, (gh_test_operand){dc->buf_a, dc->a.ld, (uint64_t)dc->a.guard},
                                                (gh_test_operand){dc->buf_b, dc->b.ld, (uint64_t)dc->b.guard},
                                                (gh_test_operand){dc->buf_c, dc->c0.ld, (uint64_t)dc->c0.guard},
                                                n_params_of(v) ? v->params : NULL, n_params_of(v));
    *timing = (gh_gemm_timing){.size = sizeof *timing, .kernel_ms = -1.0, .clock = GH_CLOCK_HOST};
    const int kernel = gh_test_find_kernel(api, ctx, v->kernel);
    const char *grid = persistent_grid_of(v);
    if (grid) setenv(GH_CUDA_PERSISTENT_GRID_ENV, grid, 1);
    if (stream) {
        if (!(st = api->gemm_async(ctx, stream, kernel, &args, timing))) st = api->stream_synchronize(ctx, stream);
    } else {
        st = api->gemm(ctx, device, kernel, &args, timing);
    }
    if (grid) unsetenv(GH_CUDA_PERSISTENT_GRID_ENV);
    if (st) return st;
    return api->download(ctx, dc->buf_c, 0, dc->c_out.storage, gh_matrix_storage_bytes(&dc->c_out));
}

/* Does variant v run in dtype d here? f16 and bf16: every kernel that has
 * them; f32: only the tensor-core kernels, which declare TF32 (plain f32 is
 * test_gemm.c's). */
static int variant_has(const gh_plugin_api *api, gh_plugin *ctx, int device, const variant *v, gh_dtype d)
{
    const gh_kernel_info *ki = api->kernel_info(ctx, gh_test_find_kernel(api, ctx, v->kernel));
    if (!ki || !(ki->dtypes & GH_DTYPE_BIT(d))) return 0;
    const int tensor_cores =
        strcmp(v->kernel, "cublas-tf32") == 0 || strcmp(v->kernel, "mma") == 0 || strcmp(v->kernel, "wgmma") == 0;
    if (tensor_cores && device_sm(api, ctx, device) < 80) return 0;                     /* refused: test_limits.c */
    if (strcmp(v->kernel, "wgmma") == 0 && device_sm(api, ctx, device) != 90) return 0; /* sm_90a only */
    return d != GH_F32 || tensor_cores;
}

/* Can wgmma's TMA read this case in place? A and B in rows of whole 16
 * bytes from 16-byte aligned starts, and f32 (TF32) only K-major (nt). */
static int tma_reads(const device_case *dc)
{
    const int64_t es = (int64_t)gh_dtype_size(dc->dtype);
    const int aligned = (dc->a.ld * es) % 16 == 0 && (dc->b.ld * es) % 16 == 0 && (dc->a.guard * es) % 16 == 0 &&
                        (dc->b.guard * es) % 16 == 0;
    return aligned && (dc->dtype != GH_F32 || (!dc->ta && dc->tb));
}

/* Every variant of dtype d on one case. wgmma where TMA cannot read the
 * case must be refused, naming the rule. */
static void run_case(const gh_plugin_api *api, gh_plugin *ctx, int device, device_case *dc, const char *what,
                     int rows_16_layout, int64_t *checks, int64_t *failures)
{
    for (size_t i = 0; i < N_VARIANTS; ++i) {
        const variant *v = &variants[i];
        if (!variant_has(api, ctx, device, v, dc->dtype)) continue;
        const int wgmma = strcmp(v->kernel, "wgmma") == 0;
        if (rows_16_layout && !wgmma && strcmp(v->kernel, "mma") != 0) continue;
        char vname[96], name[288];
        variant_name(v, vname, sizeof vname);
        snprintf(name, sizeof name, "%s %s", vname, what);
        ++*checks;
        gh_gemm_timing timing;
        gh_status st = run_variant(api, ctx, device, dc, v, NULL, &timing);
        if (wgmma && !tma_reads(dc)) {
            const char *e = api->last_error(ctx);
            if (!check_verdict(st == GH_UNSUPPORTED && e && (strstr(e, "TMA") || strstr(e, "TF32")),
                               "%s: refused, naming TMA's or TF32's rule (status %d: %s)", name, (int)st,
                               st ? e : "ran"))
                ++*failures;
            continue;
        }
        if (st) {
            ++*failures;
            check_verdict(0, "%s: status %d: %s", name, (int)st, api->last_error(ctx));
            continue;
        }
        gh_arith arith;
        char arith_text[160];
        gh_kernel_arith(api->kernel_info(ctx, gh_test_find_kernel(api, ctx, v->kernel)), GEMMHOST_ABI_MINOR, dc->dtype,
                        &arith, arith_text, sizeof arith_text);
        /* a split of K the call reported (cuBLASLt's split-K in C's type), as gemmhost takes it */
        arith = gh_arith_split(arith, timing.split_pieces, timing.split_precision);
        if (timing.split_pieces > 1) {
            const size_t used = strlen(arith_text);
            snprintf(arith_text + used, sizeof arith_text - used, "; K in %u pieces summed in %s",
                     (unsigned)timing.split_pieces, timing.split_precision == GH_PREC_F16 ? "f16" : "bf16");
        }
        gh_verify_result res;
        gh_verify_as(dc->ref, arith, &dc->c_out, &res);
        const int timing_ok = timing.clock == GH_CLOCK_DEVICE && timing.kernel_ms >= 0.0 && isfinite(timing.kernel_ms);
        if (!check_verdict(res.passed && timing_ok, "%s (%s): %s, max error %.3g, %.3g of the bound, %.4f ms%s%s", name,
                           arith_text, res.passed ? "pass" : "FAIL", res.max_abs_err, res.max_err_over_bound,
                           timing.kernel_ms, res.message[0] ? ": " : "", res.message))
            ++*failures;
    }
}

/* cublas-tf32 on random f32 inputs, 512 x 512 x 64: within the bound it
 * declares (asserted), and printed against plain f32's. There the f32 bound
 * is about 66 x 2^-24 x 16 = 6e-5 per element, while TF32's input rounding
 * (2^-11 per input) gives errors around 8 x 2^-11 x 0.25 = 1e-3: it fails
 * if cuBLAS used TF32, which is shown, not asserted (cuBLAS picks its
 * kernels itself). */
static void show_tf32(const gh_plugin_api *api, gh_plugin *ctx, int device)
{
    if (device_sm(api, ctx, device) < 80) return; /* no TF32: refused, test_limits.c */
    const int64_t shape[3] = {512, 512, 64};
    const variant tf32 = {"cublas-tf32", {0, 0}};
    device_case dc;
    gh_gemm_timing timing;
    gh_status st = GH_ERROR;
    if (case_make(api, ctx, device, &dc, GH_F32, 0, 0, shape, 0, 8, 1.0, 0.0, 512) == 0)
        st = run_variant(api, ctx, device, &dc, &tf32, NULL, &timing);
    if (st) {
        check_verdict(0, "cublas-tf32 f32 512x512x64: %s", api->last_error(ctx));
        case_free(api, ctx, &dc);
        return;
    }
    gh_verify_result declared, plain;
    gh_verify_as(dc.ref, gh_arith_declared(GH_F32, GH_PREC_TF32, GH_PREC_F32), &dc.c_out, &declared);
    gh_verify(dc.ref, &dc.c_out, &plain);
    CHECK(declared.passed, "cublas-tf32 f32 512x512x64 passes the TF32 bound it declares: %.3g of it%s%s",
          declared.max_err_over_bound, declared.message[0] ? ": " : "", declared.message);
    printf(
        "cublas-tf32 f32 512x512x64 against the plain f32 bound: %.3g of it, %s (TF32 inputs are expected to "
        "exceed it; a pass means cuBLAS did not use TF32 here)\n",
        plain.max_err_over_bound, plain.passed ? "passes" : "fails");
    case_free(api, ctx, &dc);
}

/* gemm_async on a stream (ABI minor 1, what a split uses) gives the
 * blocking call's bits in f16 and bf16. */
static void check_async(const gh_plugin_api *api, gh_plugin *ctx, int device)
{
    const int64_t shape[3] = {37, 53, 29};
    const variant probes[] = {{"tiled", {16, 0}}, {"blocked", {64, 4}}, {"cublas", {0, 0}}};
    gh_stream *stream = NULL;
    gh_status st = api->stream_create(ctx, device, &stream);
    if (!CHECK(st == GH_OK, "stream_create (status %d: %s)", (int)st, api->last_error(ctx))) return;
    const gh_dtype dtypes[] = {GH_F16, GH_BF16};
    for (size_t d = 0; d < 2; ++d) {
        device_case dc;
        if (case_make(api, ctx, device, &dc, dtypes[d], 0, 1, shape, 3, 13, 1.5, -0.75, 77 + d)) {
            check_verdict(0, "gemm_async %s: setting up: %s", gh_dtype_name(dtypes[d]), api->last_error(ctx));
            case_free(api, ctx, &dc);
            continue;
        }
        size_t bytes = gh_matrix_storage_bytes(&dc.c_out);
        void *blocking = malloc(bytes);
        for (size_t i = 0; blocking && i < sizeof probes / sizeof probes[0]; ++i) {
            gh_gemm_timing timing;
            char vname[96];
            variant_name(&probes[i], vname, sizeof vname);
            st = run_variant(api, ctx, device, &dc, &probes[i], NULL, &timing);
            if (st == GH_OK) {
                memcpy(blocking, dc.c_out.storage, bytes);
                st = run_variant(api, ctx, device, &dc, &probes[i], stream, &timing);
            }
            gh_verify_result res = {0};
            if (st == GH_OK) gh_verify(dc.ref, &dc.c_out, &res);
            CHECK(st == GH_OK && memcmp(blocking, dc.c_out.storage, bytes) == 0 && res.passed,
                  "%s %s 37x53x29 nt: gemm_async gives the blocking gemm's bits, verified (%s)", vname,
                  gh_dtype_name(dtypes[d]), st ? api->last_error(ctx) : res.message);
        }
        if (!blocking) check_verdict(0, "gemm_async: out of host memory");
        free(blocking);
        case_free(api, ctx, &dc);
    }
    api->stream_destroy(ctx, stream);
}

void run_half_tests(const gh_plugin_api *api, gh_plugin *ctx, int device)
{
    const char *max_dim_env = getenv("GEMMHOST_CUDA_TEST_MAX_DIM");
    const int64_t max_dim = max_dim_env ? atoll(max_dim_env) : 0;
    const gh_dtype dtypes[] = {GH_F16, GH_BF16, GH_F32};
    const double alpha = 1.5, betas[] = {-0.75, 0.0};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        const int64_t *shape = shapes[s];
        if (max_dim > 0 && (shape[0] > max_dim || shape[1] > max_dim || shape[2] > max_dim)) {
            check_skip("f16/bf16/tf32 %lldx%lldx%lld: over GEMMHOST_CUDA_TEST_MAX_DIM=%lld", (long long)shape[0],
                       (long long)shape[1], (long long)shape[2], (long long)max_dim);
            continue;
        }
        int64_t checks = 0, failures = 0;
        for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; ++d)
            for (int t = 0; t < 4; ++t)
                for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; ++l)
                    for (size_t b = 0; b < 2; ++b) {
                        char what[160];
                        snprintf(what, sizeof what, "%s %s %lldx%lldx%lld %s alpha %g beta %g",
                                 gh_dtype_name(dtypes[d]), trans_names[t], (long long)shape[0], (long long)shape[1],
                                 (long long)shape[2], layouts[l].name, alpha, betas[b]);
                        uint64_t seed = (uint64_t)(s * 1000 + d * 100 + (size_t)t * 10 + l * 2 + b + 1);
                        device_case dc;
                        if (case_make(api, ctx, device, &dc, dtypes[d], t >> 1, t & 1, shape, layouts[l].pad,
                                      layouts[l].guard, alpha, betas[b], seed)) {
                            ++failures;
                            check_verdict(0, "%s: setting up (host memory, reference, buffers): %s", what,
                                          api->last_error(ctx));
                        } else {
                            run_case(api, ctx, device, &dc, what, l == ROWS_16_LAYOUT, &checks, &failures);
                        }
                        case_free(api, ctx, &dc);
                    }
        printf("device %d: f16/bf16/tf32 %lldx%lldx%lld: %lld GEMMs checked, %lld failed\n", device,
               (long long)shape[0], (long long)shape[1], (long long)shape[2], (long long)checks, (long long)failures);
    }
    check_async(api, ctx, device);
    show_tf32(api, ctx, device);
}
