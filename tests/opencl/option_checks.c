/* mkdtemp */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../check.h"
#include "gemm_case.h"
#include "option_checks.h"
#include "plugin_handle.h"

void option_checks_platform(const gh_plugin_api *api)
{
    CHECK(api->n_options == 3 && strcmp(api->options[0].name, "platform") == 0 &&
              strcmp(api->options[1].name, "kernel_dir") == 0 && strcmp(api->options[2].name, "clblast") == 0,
          "options: platform, kernel_dir and clblast");

    gh_option_value filter = {"platform", "no-such-platform-xyz"};
    gh_plugin *ctx = NULL;
    gh_status st = api->open(&filter, 1, &ctx);
    int count = st == GH_OK ? api->device_count(ctx) : -1;
    const char *err = api->last_error(ctx);
    /* The reason names the filter, or says there is no platform at all. */
    int explained = strstr(err, "no-such-platform-xyz") || strstr(err, "no OpenCL platform found");
    CHECK(st == GH_OK && count == 0 && explained,
          "a platform filter matching nothing: open succeeds, 0 devices, last_error says why (%s)", err);
    if (st == GH_OK) api->close(ctx);
}

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    int ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}

static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    char buf[4096];
    size_t n;
    int ok = in && out;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0) ok = fwrite(buf, 1, n, out) == n;
    if (in) fclose(in);
    if (out && fclose(out) != 0) ok = 0;
    return ok ? 0 : -1;
}

/* Opens a second context with a kernel directory and runs tiled f32. */
static gh_status gemm_with_kernel_dir(const gh_plugin_api *api, const char *platform, const char *dir, int device,
                                      char *err, size_t err_size)
{
    gh_option_value opts[2] = {{"kernel_dir", dir}, {"platform", platform}};
    gh_plugin *ctx = NULL;
    gh_status st = api->open(opts, platform ? 2 : 1, &ctx);
    if (st == GH_OK) {
        const int64_t tile = 8;
        st = gemm_case_status(api, ctx, device, gh_test_find_kernel(api, ctx, "tiled"), &tile, 1);
    }
    snprintf(err, err_size, "%s", api->last_error(ctx));
    if (ctx) api->close(ctx);
    return st;
}

void option_checks_kernel_dir(const gh_plugin_api *api, const char *platform, int device)
{
    char err[16384];
    const char *src = GEMMHOST_OPENCL_KERNEL_SOURCE_DIR;
    gh_status st = gemm_with_kernel_dir(api, platform, src, device, err, sizeof err);
    CHECK(st == GH_OK, "kernel_dir = the source tree's kernels/opencl (status %d%s%s)", (int)st, st ? ": " : "",
          st ? err : "");

    /* The kernels/ root works too: the plugin looks in its opencl/ folder. */
    char root[4096];
    snprintf(root, sizeof root, "%s/..", src);
    st = gemm_with_kernel_dir(api, platform, root, device, err, sizeof err);
    CHECK(st == GH_OK, "kernel_dir = the source tree's kernels/ (status %d%s%s)", (int)st, st ? ": " : "",
          st ? err : "");

    st = gemm_with_kernel_dir(api, platform, "/nonexistent-gemmhost-kernels", device, err, sizeof err);
    CHECK(st == GH_ERROR && strstr(err, "not found"), "a kernel_dir without the sources is GH_ERROR (status %d: %s)",
          (int)st, err);

    char dir[] = "/tmp/gemmhost-opencl-test-XXXXXX";
    if (!CHECK(mkdtemp(dir) != NULL, "a temporary kernel directory")) return;
    char common_from[4096], common_to[4200], tiled_to[4200];
    snprintf(common_from, sizeof common_from, "%s/common.cl", src);
    snprintf(common_to, sizeof common_to, "%s/common.cl", dir);
    snprintf(tiled_to, sizeof tiled_to, "%s/tiled.cl", dir);
    if (CHECK(copy_file(common_from, common_to) == 0 &&
                  write_file(tiled_to, "__kernel void gemm_tiled(GEMM_ARGS)\n{\n    this is not OpenCL C;\n}\n") == 0,
              "a broken kernel written to %s", dir)) {
        st = gemm_with_kernel_dir(api, platform, dir, device, err, sizeof err);
        /* Line 3 of tiled.cl, whether the compiler honours #line (PoCL) or
         * counts lines of the whole program (NVIDIA: the plugin translates). */
        CHECK(st == GH_ERROR && strstr(err, "CL_BUILD_PROGRAM_FAILURE") && strstr(err, "compiler log") &&
                  strstr(err, "tiled.cl:3:"),
              "a kernel that does not compile: GH_ERROR with the compiler's log naming tiled.cl:3 (status %d: %s)",
              (int)st, err);
    }
    remove(common_to);
    remove(tiled_to);
    rmdir(dir);
}
