/* What a CUDA device cannot run is refused before anything runs, naming the
 * limit: blocked at tile 128, work 2 needs 4096 threads per block, over
 * every device's 1024; warptile parameters that do not fit together, or
 * over the device's shared memory; cuBLAS has no i32 GEMM; cublas-tf32 is
 * f32 only, and needs compute capability 8.0. The device still works
 * afterwards. (The
 * generic refusals are gemmhost-conformance's.) */
#include <stdio.h>
#include <string.h>

#include "cuda_test.h"
#include "gemm_args.h"

static int contains(const char *s, const char *part)
{
    return s && strstr(s, part) != NULL;
}

/* Expects status `want` from gemm with args and a message containing `says`. */
static void expect_gemm(const gh_plugin_api *api, gh_plugin *ctx, int device, const char *kernel,
                        const gh_gemm_args *args, gh_status want, const char *says, const char *what)
{
    gh_gemm_timing timing = {.size = sizeof timing};
    gh_status st = api->gemm(ctx, device, gh_test_find_kernel(api, ctx, kernel), args, &timing);
    const char *e = api->last_error(ctx);
    CHECK(st == want && contains(e, says), "%s: %s gives status %d (got %d) saying \"%s\" (got \"%s\")", kernel, what,
          (int)want, (int)st, says, e);
}

void run_limit_tests(const gh_plugin_api *api, gh_plugin *ctx, int device)
{
    /* Three 64 x 64 f32 matrices, one buffer each. */
    enum { N = 64 };
    static float host[N * N];
    for (int i = 0; i < N * N; ++i) host[i] = (float)((i * 7) % 13 - 6);
    gh_buffer *a = NULL, *b = NULL, *c = NULL;
    if (api->buffer_alloc(ctx, device, sizeof host, &a) || api->buffer_alloc(ctx, device, sizeof host, &b) ||
        api->buffer_alloc(ctx, device, sizeof host, &c) || api->upload(ctx, a, 0, host, sizeof host) ||
        api->upload(ctx, b, 0, host, sizeof host) || api->upload(ctx, c, 0, host, sizeof host)) {
        check_verdict(0, "limits: buffers of %zu bytes: %s", sizeof host, api->last_error(ctx));
        goto done;
    }

    int64_t tile = 16;
    const gh_gemm_args good = gh_test_tight_args(GH_F32, N, N, N, a, b, c, &tile, 1);
    gh_gemm_args args = good;
    args.dtype = GH_I32;
    args.params = NULL;
    args.n_params = 0;
    expect_gemm(api, ctx, device, "cublas", &args, GH_UNSUPPORTED, "cuBLAS has no int32 GEMM", "i32");
    expect_gemm(api, ctx, device, "cublas-strict", &args, GH_UNSUPPORTED, "cuBLAS has no int32 GEMM", "i32");

    /* cublas-tf32 is f32 only, and only where there are TF32 tensor cores. */
    args = good;
    args.params = NULL;
    args.n_params = 0;
    args.m = args.n = args.k = 32; /* 32 x 32 f64 fits the buffers */
    args.lda = args.ldb = args.ldc = 32;
    args.dtype = GH_F64;
    expect_gemm(api, ctx, device, "cublas-tf32", &args, GH_UNSUPPORTED, "kernel cublas does the other dtypes", "f64");
    args.dtype = GH_F16;
    expect_gemm(api, ctx, device, "cublas-tf32", &args, GH_UNSUPPORTED, "kernel cublas does the other dtypes", "f16");
    args.dtype = GH_F32;
    if (device_sm(api, ctx, device) < 80) {
        expect_gemm(api, ctx, device, "cublas-tf32", &args, GH_UNSUPPORTED, "compute capability 8.0 or newer",
                    "f32 on a device without TF32 tensor cores");
    } else {
        gh_gemm_timing t = {.size = sizeof t};
        gh_status st = api->gemm(ctx, device, gh_test_find_kernel(api, ctx, "cublas-tf32"), &args, &t);
        CHECK(st == GH_OK, "cublas-tf32 runs f32 on sm_%d (status %d: %s)", device_sm(api, ctx, device), (int)st,
              api->last_error(ctx));
    }
    /* The cublas kernels say which algorithm cuBLASLt kept, in the timing's
     * note; the same note on the second run (the cached choice). */
    const char *blas[] = {"cublas", "cublas-strict"};
    for (int i = 0; i < 2; ++i) {
        gh_gemm_timing t1 = {.size = sizeof t1}, t2 = {.size = sizeof t2};
        gh_status s1 = api->gemm(ctx, device, gh_test_find_kernel(api, ctx, blas[i]), &args, &t1);
        gh_status s2 = api->gemm(ctx, device, gh_test_find_kernel(api, ctx, blas[i]), &args, &t2);
        CHECK(s1 == GH_OK && s2 == GH_OK && strncmp(t1.note, "cuBLASLt algo ", 14) == 0 &&
                  strcmp(t1.note, t2.note) == 0,
              "%s f32 32x32x32 names the algorithm it kept, the same on its second run: \"%s\" (status %d, %d: %s)",
              blas[i], t1.note, (int)s1, (int)s2, api->last_error(ctx));
    }

    /* Allowed values, but a combination over the device's threads per block. */
    int64_t blocked_params[2] = {128, 2};
    args = good;
    args.params = blocked_params;
    args.n_params = 2;
    expect_gemm(api, ctx, device, "blocked", &args, GH_UNSUPPORTED, "CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK",
                "tile 128 work 2 (4096 threads)");
    expect_gemm(api, ctx, device, "blocked", &args, GH_UNSUPPORTED, "4096 threads", "tile 128 work 2 (4096 threads)");

    /* warptile: parameters that cannot fit together are refused before
     * compiling, naming why; over the device's opt-in shared memory (f64,
     * 256 x 256 tiles 32 deep, 4 stages: 530 KB), naming the limit. */
    int64_t wt_params[9] = {128, 128, 16, 64, 64, 8, 8, 3, 1};
    args = good;
    args.params = wt_params;
    args.n_params = 9;
    expect_gemm(api, ctx, device, "warptile", &args, GH_UNSUPPORTED, "(wm / tm) * (wn / tn) must be 32",
                "warp 64 x 64 of 8 x 8 threads (64 threads a warp)");
    const int64_t big[9] = {256, 256, 32, 64, 32, 8, 8, 4, 1};
    memcpy(wt_params, big, sizeof big);
    args.dtype = GH_F64;
    args.m = args.n = args.k = 32;
    args.lda = args.ldb = args.ldc = 32;
    expect_gemm(api, ctx, device, "warptile", &args, GH_UNSUPPORTED,
                "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN", "f64 256 x 256 x 32, 4 stages (530 KB)");

    /* The device still works after all that. */
    gh_gemm_timing timing = {.size = sizeof timing};
    gh_status st = api->gemm(ctx, device, gh_test_find_kernel(api, ctx, "tiled"), &good, &timing);
    CHECK(st == GH_OK, "a good GEMM after the refused ones runs (status %d: %s)", (int)st, api->last_error(ctx));
    st = api->synchronize(ctx, device);
    CHECK(st == GH_OK, "synchronize (status %d: %s)", (int)st, api->last_error(ctx));
done:
    api->buffer_free(ctx, a);
    api->buffer_free(ctx, b);
    api->buffer_free(ctx, c);
}
