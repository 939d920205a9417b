/* Error paths on a real device: each bad request gets its status and a
 * message that names the problem, and the device still works afterwards. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cuda_test.h"

static int contains(const char *s, const char *part)
{
    return s && strstr(s, part) != NULL;
}

/* Expects status `want` from gemm with args and a message containing `says`. */
static void expect_gemm(const gh_plugin_api *api, gh_plugin *ctx, int device, const char *kernel,
                        const gh_gemm_args *args, gh_status want, const char *says, const char *what)
{
    gh_gemm_timing timing = {.size = sizeof timing};
    gh_status st = api->gemm(ctx, device, find_kernel(api, ctx, kernel), args, &timing);
    const char *e = api->last_error(ctx);
    CHECK(st == want && contains(e, says), "%s: %s gives status %d (got %d) saying \"%s\" (got \"%s\")", kernel, what,
          (int)want, (int)st, says, e);
}

void run_device_error_tests(const gh_plugin_api *api, gh_plugin *ctx, int device)
{
    gh_buffer *buf = (gh_buffer *)&buf;
    gh_status st = api->buffer_alloc(ctx, device, 0, &buf);
    CHECK(st == GH_INVALID_ARGUMENT && buf == NULL, "buffer_alloc of 0 bytes is refused (status %d)", (int)st);
    st = api->buffer_alloc(ctx, api->device_count(ctx), 64, &buf);
    CHECK(st == GH_INVALID_ARGUMENT && contains(api->last_error(ctx), "no device"),
          "buffer_alloc on a device past the last is refused (status %d: %s)", (int)st, api->last_error(ctx));

    /* Three 64 x 64 f32 matrices, one buffer each. */
    enum { N = 64 };
    static float host[N * N];
    for (int i = 0; i < N * N; ++i)
        host[i] = (float)((i * 7) % 13 - 6);
    gh_buffer *a = NULL, *b = NULL, *c = NULL;
    if (api->buffer_alloc(ctx, device, sizeof host, &a) || api->buffer_alloc(ctx, device, sizeof host, &b) ||
        api->buffer_alloc(ctx, device, sizeof host, &c)) {
        test_fail("buffer_alloc of %zu bytes: %s", sizeof host, api->last_error(ctx));
        goto done;
    }
    CHECK(api->upload(ctx, a, 0, host, sizeof host) == GH_OK && api->upload(ctx, b, 0, host, sizeof host) == GH_OK &&
              api->upload(ctx, c, 0, host, sizeof host) == GH_OK,
          "upload of whole buffers");
    st = api->upload(ctx, a, sizeof host - 8, host, 16);
    CHECK(st == GH_INVALID_ARGUMENT && contains(api->last_error(ctx), "past a buffer"),
          "upload past the end is refused (status %d: %s)", (int)st, api->last_error(ctx));
    st = api->download(ctx, a, sizeof host, host, 1);
    CHECK(st == GH_INVALID_ARGUMENT, "download past the end is refused (status %d)", (int)st);
    static float back[N * N];
    CHECK(api->download(ctx, a, 16, back, sizeof host - 16) == GH_OK && memcmp(back, host + 4, sizeof host - 16) == 0,
          "download at a byte offset returns what was uploaded");

    int64_t tile = 16, bad_tile = 5;
    const gh_gemm_args good = {.size = sizeof good, .dtype = GH_F32, .m = N, .n = N, .k = N, .alpha = 1.0,
                               .beta = 0.0, .lda = N, .ldb = N, .ldc = N, .a = a, .b = b, .c = c,
                               .params = &tile, .n_params = 1};
    gh_gemm_args args = good;
    args.params = &bad_tile;
    expect_gemm(api, ctx, device, "tiled", &args, GH_INVALID_ARGUMENT, "tile: 5", "tile 5");
    args = good;
    args.n_params = 0;
    expect_gemm(api, ctx, device, "tiled", &args, GH_INVALID_ARGUMENT, "parameter", "no tile parameter");
    args = good;
    args.lda = N - 1;
    expect_gemm(api, ctx, device, "tiled", &args, GH_INVALID_ARGUMENT, "lda", "lda < K");
    args = good;
    args.c_offset = 1;
    expect_gemm(api, ctx, device, "tiled", &args, GH_INVALID_ARGUMENT, "past its buffer", "C running past its buffer");
    args = good;
    args.trans_b = 2;
    expect_gemm(api, ctx, device, "tiled", &args, GH_INVALID_ARGUMENT, "trans", "trans_b = 2");
    args = good;
    args.k = 0;
    expect_gemm(api, ctx, device, "tiled", &args, GH_INVALID_ARGUMENT, "at least 1", "K = 0");
    args = good;
    args.dtype = GH_I32;
    args.alpha = 1.5;
    expect_gemm(api, ctx, device, "tiled", &args, GH_INVALID_ARGUMENT, "integral", "i32 with alpha 1.5");
    args = good;
    args.dtype = GH_I32;
    args.params = NULL;
    args.n_params = 0;
    expect_gemm(api, ctx, device, "cublas", &args, GH_UNSUPPORTED, "cuBLAS has no int32 GEMM", "i32");
    args = good;
    args.params = NULL;
    args.n_params = 0;
    args.size = offsetof(gh_gemm_args, params);
    expect_gemm(api, ctx, device, "naive", &args, GH_INVALID_ARGUMENT, "size", "args->size too small");

    /* blocked: values outside the lists, and a combination over the
     * device's threads per block, refused before anything runs. */
    int64_t blocked_params[2] = {128, 8};
    args = good;
    args.params = blocked_params;
    args.n_params = 2;
    blocked_params[0] = 16;
    expect_gemm(api, ctx, device, "blocked", &args, GH_INVALID_ARGUMENT, "tile: 16", "tile 16");
    blocked_params[0] = 64;
    blocked_params[1] = 3;
    expect_gemm(api, ctx, device, "blocked", &args, GH_INVALID_ARGUMENT, "work: 3", "work 3");
    args.n_params = 1;
    expect_gemm(api, ctx, device, "blocked", &args, GH_INVALID_ARGUMENT, "parameter", "one parameter of two");
    args.n_params = 2;
    blocked_params[0] = 128;
    blocked_params[1] = 2;
    expect_gemm(api, ctx, device, "blocked", &args, GH_UNSUPPORTED, "CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK",
                "tile 128 work 2 (4096 threads)");
    expect_gemm(api, ctx, device, "blocked", &args, GH_UNSUPPORTED, "4096 threads", "tile 128 work 2 (4096 threads)");

    /* The device still works after all that. */
    gh_gemm_timing timing = {.size = sizeof timing};
    st = api->gemm(ctx, device, find_kernel(api, ctx, "tiled"), &good, &timing);
    CHECK(st == GH_OK, "a good GEMM after the refused ones runs (status %d: %s)", (int)st, api->last_error(ctx));
    st = api->synchronize(ctx, device);
    CHECK(st == GH_OK, "synchronize (status %d: %s)", (int)st, api->last_error(ctx));
done:
    api->buffer_free(ctx, a);
    api->buffer_free(ctx, b);
    api->buffer_free(ctx, c);
}
