/* One GEMM with 8-bit A and B (e4m3, e5m2, i8) and its own C type and
 * scales, run through a plugin's ABI and checked against the f64
 * reference: what the C, OpenCL and Vulkan suites share for ABI 1.5's type
 * combinations. Inputs are exact in their type (seeded.h's draws), so the
 * reference is exact; i8 -> i32 must match bit for bit, FP8 within the
 * bound of f32 accumulation and C's rounding (gh_test_error_bound_8bit). */
#ifndef GH_TEST_SUPPORT_GEMM8_CASE_H
#define GH_TEST_SUPPORT_GEMM8_CASE_H

#include <stddef.h>
#include <stdint.h>
#include "gemm_args.h"
#include "gemmhost/plugin.h"

/* Every combination the 8-bit kernels of the C, OpenCL and Vulkan plugins
 * offer: A, B in {e4m3, e5m2} with C in {f32, f16, bf16}, and i8 x i8 -> i32. */
#define GH_TEST_8BIT_COMBOS 13
extern const gh_dtype gh_test_8bit_combos[GH_TEST_8BIT_COMBOS][3];

typedef struct gh_test_case8 {
    gh_test_types types; /* A's, B's, C's types and the scales */
    int trans_a, trans_b;
    int64_t m, n, k;
    double alpha, beta;
    int64_t pad;     /* elements added to each ld past the tight one */
    uint64_t offset; /* elements before each matrix in its buffer */
    uint64_t seed;
} gh_test_case8;

/* Names the case in a line: "e4m3*e5m2->f16 nt 7x13x33 a=2 b=0.5 s=(1,2,0.5) pad 3 off 5". */
void gh_test_case8_name(const gh_test_case8 *c, char *out, size_t out_len);

typedef enum gh_test_case8_result {
    GH_TEST_CASE8_PASS = 0,
    GH_TEST_CASE8_WRONG = 1,   /* an element outside its bound, or a guard byte changed: `why` says which */
    GH_TEST_CASE8_REFUSED = 2, /* gemm returned GH_UNSUPPORTED: `why` has the plugin's reason */
    GH_TEST_CASE8_ERROR = 3    /* another failure (allocation, copy, gemm): `why` says which */
} gh_test_case8_result;

/* Allocates the three buffers on `device` (with the case's offset and ld
 * padding, the bytes around each matrix set to a guard pattern), uploads
 * seeded inputs and C (NaN in C when beta is 0: a kernel must not read it),
 * runs the kernel, downloads C and compares every element; the guards must
 * be unchanged. `why` gets a sentence on anything but a pass. */
gh_test_case8_result gh_test_run_case8(const gh_plugin_api *api, gh_plugin *ctx, int device, int kernel,
                                       const int64_t *params, size_t n_params, const gh_test_case8 *c, char *why,
                                       size_t why_len);

#endif
