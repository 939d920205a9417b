/* A kernel and its parameter values as the device suites sweep them
 * (test_gemm.c, test_half.c): how many the kernel takes and a name for it. */
#ifndef GEMMHOST_CUDA_TEST_VARIANT_H
#define GEMMHOST_CUDA_TEST_VARIANT_H

#include <stddef.h>
#include <stdint.h>

typedef struct variant {
    const char *kernel;
    int64_t params[9]; /* tile (0: no parameter), then work for blocked (0: none); warptile's nine, mma's six,
                          wgmma's six */
} variant;

/* What test_gemm.c and test_half.c both sweep, first in their tables: naive,
 * tiled at every tile, blocked at every tile and work the device runs
 * (blocked at tile 128, work 2 needs 4096 threads: test_limits.c checks it
 * is refused), and cublas. */
/* clang-format off */
#define CLASSIC_VARIANTS                                                                              \
    {"naive", {0, 0}},                                                                                \
    {"tiled", {4, 0}}, {"tiled", {8, 0}}, {"tiled", {16, 0}}, {"tiled", {32, 0}},                     \
    {"blocked", {32, 2}}, {"blocked", {32, 4}}, {"blocked", {32, 8}},                                 \
    {"blocked", {64, 2}}, {"blocked", {64, 4}}, {"blocked", {64, 8}},                                 \
    {"blocked", {128, 4}}, {"blocked", {128, 8}},                                                     \
    {"cublas", {0, 0}}
/* clang-format on */

/* The number of parameters the kernel takes: 0, 1 (tile), 2 (tile, work), warptile's 9, mma's 6 or wgmma's 6. */
size_t n_params_of(const variant *v);
/* "tiled tile=16", "blocked tile=128 work=8", "naive", "warptile 128x128x16 warp ...". */
void variant_name(const variant *v, char *out, size_t size);

#endif
