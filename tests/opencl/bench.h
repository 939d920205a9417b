/* A quick look at speed without the host: f32 nn GEMMs of square sizes on
 * every device, naive, tiled, blocked (every tile x work on hardware
 * devices), warptile and clblast, median kernel time of a few runs, each
 * result spot-checked. Not
 * a test; `test_opencl_plugin --bench [N ...]`. GEMMHOST_OPENCL_BUILD_LOG=1
 * adds each build's log on stderr (on NVIDIA: registers and spills). */
#ifndef GH_TEST_BENCH_H
#define GH_TEST_BENCH_H

#include <gemmhost/plugin.h>

/* sizes: n_sizes square sizes, or none for the defaults (1024 2048 4096 on
 * hardware devices, 256 512 on software ones). Returns an exit status. */
int bench_run(const gh_plugin_api *api, gh_plugin *ctx, const int64_t *sizes, int n_sizes);

#endif
