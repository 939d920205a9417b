/* A kernel and its parameter values as the device suites sweep them
 * (test_gemm.c, test_half.c): how many the kernel takes and a name for it. */
#ifndef GEMMHOST_CUDA_TEST_VARIANT_H
#define GEMMHOST_CUDA_TEST_VARIANT_H

#include <stddef.h>
#include <stdint.h>

typedef struct variant {
    const char *kernel;
    int64_t params[9]; /* tile (0: no parameter), then work for blocked (0: none); warptile's nine, mma's six */
} variant;

/* The number of parameters the kernel takes: 0, 1 (tile), 2 (tile, work), warptile's 9 or mma's 6. */
size_t n_params_of(const variant *v);
/* "tiled tile=16", "blocked tile=128 work=8", "naive", "warptile 128x128x16 warp ...". */
void variant_name(const variant *v, char *out, size_t size);

#endif
