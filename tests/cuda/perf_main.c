/*
 * The CUDA plugin's speed table, a measurement and not a pass/fail test:
 *   gemmhost-cuda-perf <path to gemmhost-cuda.so>
 * On every CUDA device, each kernel's GFLOP/s on square f32 GEMMs and the
 * ratio to cuBLAS (test_perf.c). Exit 0 after the table; 1 when the plugin
 * does not load or a GEMM fails; 77 (a skip for ctest) with no device,
 * saying why. Run by ctest's cuda_perf (label perf, which tools/test.sh
 * leaves out) and by tools/gpu-check.sh on the GPU machine.
 */
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
    gh_test_plugin plugin;
    if (gh_test_plugin_load(&plugin, argv[1]) != 0) {
        fprintf(stderr, "gemmhost-cuda-perf: %s\n", plugin.error);
        return 1;
    }
    const gh_plugin_api *api = plugin.api;
    if (gh_test_plugin_open(&plugin, NULL, 0) != GH_OK) {
        fprintf(stderr, "gemmhost-cuda-perf: %s\n", plugin.error);
        gh_test_plugin_unload(&plugin);
        return 1;
    }
    gh_plugin *ctx = plugin.ctx;
    int n = api->device_count(ctx), status;
    if (n == 0) {
        printf("skip: no CUDA device here: %s\n", api->last_error(ctx));
        status = 77;
    } else {
        for (int d = 0; d < n; ++d) run_perf(api, ctx, d);
        status = check_summary("gemmhost-cuda-perf");
    }
    gh_test_plugin_unload(&plugin);
    return status;
}
