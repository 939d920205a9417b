/*
 * The CUDA plugin's speed table, a measurement and not a pass/fail test:
 *   gemmhost-cuda-perf <path to gemmhost-cuda.so>
 * On every CUDA device, each kernel's GFLOP/s on square f32 GEMMs and the
 * ratio to cuBLAS (test_perf.c). Exit 0 after the table; 1 when the plugin
 * does not load or a GEMM fails; 77 (a skip for ctest) with no device,
 * saying why. Run by ctest's cuda_perf (label perf, which tools/test.sh
 * leaves out) and by tools/gpu-check.sh on the GPU machine.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK_MAIN
#include "cuda_test.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s <gemmhost-cuda.so>\n", argv[0]);
        return 2;
    }
    check_quiet = 1;
    setvbuf(stdout, NULL, _IOLBF, 0);
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "gemmhost-cuda-perf: cannot load %s: %s\n", argv[1], dlerror());
        return 1;
    }
    gh_entry_fn entry = (gh_entry_fn)dlsym(lib, GEMMHOST_ENTRY_NAME);
    gh_entry_request req = {sizeof req, GEMMHOST_ABI_MAJOR, GEMMHOST_ABI_MINOR, 0, NULL};
    gh_status st = entry ? entry(&req) : GH_ERROR;
    if (st != GH_OK || !req.api) {
        fprintf(stderr, "gemmhost-cuda-perf: %s has no usable %s (status %d)\n", argv[1], GEMMHOST_ENTRY_NAME, (int)st);
        dlclose(lib);
        return 1;
    }
    const gh_plugin_api *api = req.api;
    gh_plugin *ctx = NULL;
    st = api->open(NULL, 0, &ctx);
    if (st != GH_OK || !ctx) {
        fprintf(stderr, "gemmhost-cuda-perf: open: status %d: %s\n", (int)st, api->last_error(NULL));
        dlclose(lib);
        return 1;
    }
    int n = api->device_count(ctx), status;
    if (n == 0) {
        printf("skip: no CUDA device here: %s\n", api->last_error(ctx));
        status = 77;
    } else {
        for (int d = 0; d < n; ++d) run_perf(api, ctx, d);
        status = check_summary("gemmhost-cuda-perf");
    }
    api->close(ctx);
    dlclose(lib);
    return status;
}
