/* Shared by the CUDA plugin test's files and its speed table: the verdicts
 * (tests/check.h; one file of each program defines CHECK_MAIN) and the parts
 * that run on a device. */
#ifndef CUDA_TEST_H
#define CUDA_TEST_H

#include <stdint.h>

#include "gemmhost/plugin.h"
#include "../check.h"
#include "plugin_handle.h"

/* With a CUDA device: every kernel x dtype x transpose x shape, verified. */
void run_gemm_tests(const gh_plugin_api *api, gh_plugin *ctx, int device);
/* What this device cannot run (threads per block, cuBLAS's dtypes) is
 * refused naming the limit, and the device still works afterwards. */
void run_limit_tests(const gh_plugin_api *api, gh_plugin *ctx, int device);
/* Streams on one device: 2D copies with pitches and offsets, gemm_async on
 * two streams, copy and compute overlapping, timings, CUDA's own refusals. */
void run_stream_tests(const gh_plugin_api *api, gh_plugin *ctx, int device);
/* Every device from its own thread at once, each with its own stream. */
void run_multi_device_stream_tests(const gh_plugin_api *api, gh_plugin *ctx, int n_devices);
/* Speed at 1024, 2048 and 4096 (f32): printed, not judged, except as notes
 * (gemmhost-cuda-perf, not the pass/fail test). */
void run_perf(const gh_plugin_api *api, gh_plugin *ctx, int device);
/* f16 and bf16 on every kernel that has them, f32 on cublas-tf32, each
 * verified by the host's verification against the arithmetic it declares. */
void run_half_tests(const gh_plugin_api *api, gh_plugin *ctx, int device);
/* The 8-bit GEMMs (test_8bit.c): naive, tiled and blocked in every type
 * combination, the cuBLASLt FP8 and int8 kernels, cuBLASLt's refusals. */
void run_8bit_tests(const gh_plugin_api *api, gh_plugin *ctx, int device);
/* No device needed: NVRTC compiles every kernel it builds at its default
 * in every dtype for sm_90 through the plugin's compile extra (`quick`: in
 * its first dtype only, mma at its smallest shape). */
void run_compile_sample_tests(const gh_plugin_api *api, gh_plugin *ctx, int quick);
/* No device needed: with `full`, NVRTC compiles the f16 and bf16 kernels for
 * sm_90, sm_80 and sm_75 and mma's and wgmma's samples; always, the compile
 * extra's refusals. */
void run_compile_half_tests(const gh_plugin_api *api, gh_plugin *ctx, int full);
/* No device needed: with `full`, NVRTC compiles warptile's default for sm_80
 * and sm_75 and more variants; always, what cannot fit is refused before
 * compiling. */
void run_compile_warptile_tests(const gh_plugin_api *api, gh_plugin *ctx, int full);
/* No device needed: naive, tiled and blocked list the 8-bit combinations
 * and NVRTC compiles them (one per input type for sm_90; with `full`, every
 * combination for sm_90, sm_80 and sm_75; `quick`: one combination);
 * always, the refusals. */
void run_compile_8bit_tests(const gh_plugin_api *api, gh_plugin *ctx, int full, int quick);
/* No device needed: wgmma's cluster parameter (1, 2; default 1), 3
 * refused, and NVRTC compiles cluster 2 in e4m3, i8 and f16 for sm_90a
 * (`quick`: e4m3 only). */
void run_compile_cluster_tests(const gh_plugin_api *api, gh_plugin *ctx, int quick);
/* No device needed: wgmma's persistent parameter (last; 0, 1; default 0),
 * 2 refused, and NVRTC compiles persistent 1 for sm_90a in e4m3, promoted
 * e4m3 and i8 in pairs (`quick`: e4m3 only). */
void run_compile_persistent_tests(const gh_plugin_api *api, gh_plugin *ctx, int quick);

/* gh_test_find_kernel finds a kernel's index by name (tests/support). */
/* The device's compute capability as major * 10 + minor, read from its
 * info's api ("..., sm_90, ..."); -1 if it does not say. */
int device_sm(const gh_plugin_api *api, gh_plugin *ctx, int device);

#endif
