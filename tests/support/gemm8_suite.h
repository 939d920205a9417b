/* The 8-bit checks every plugin suite runs (tests/cpu, tests/opencl,
 * tests/vulkan), reported through tests/check.h (the calling program
 * defines CHECK_MAIN): what a kernel declares for the 13 combinations of
 * gemm8_case.h, and cases over them, each verified in full. */
#ifndef GH_TEST_SUPPORT_GEMM8_SUITE_H
#define GH_TEST_SUPPORT_GEMM8_SUITE_H

#include <stddef.h>
#include <stdint.h>
#include "gemm8_case.h"
#include "plugin_handle.h"

/* A shape and transposes; `variant` picks alpha, beta, the scales, ld
 * padding and offsets from the suite's table (gh_test_8bit_variant),
 * rotated by the combination so that each combination meets several. */
typedef struct gh_test_shape8 {
    int trans_a, trans_b;
    int64_t m, n, k;
} gh_test_shape8;

/* How many variants there are, and case `variant` of shape s for combo
 * (a, b, c): FP8 cases with alpha, beta (0 and not), scales of powers of
 * two (one matrix at a time, then all three, and one that is not a power of
 * two); i8 cases with integral alpha and beta and scales of 1. */
#define GH_TEST_8BIT_VARIANTS 7
gh_test_case8 gh_test_8bit_case(const gh_dtype combo[3], const gh_test_shape8 *s, int variant, uint64_t seed);

/* The kernel lists each of the 13 combinations, declaring inputs AS_STORED
 * and accumulation F32 (FP8) or AS_STORED (i8 -> i32, exact). */
void gh_test_8bit_declared(const gh_plugin_api *api, gh_plugin *ctx, int kernel, const char *label);
/* The same, with FP8's running sum declared fp8_sum_bits wide and never
 * promoted (0: f32's own, as gh_test_8bit_declared). */
void gh_test_8bit_declared_sum(const gh_plugin_api *api, gh_plugin *ctx, int kernel, const char *label,
                               unsigned fp8_sum_bits);
/* The kernel's default parameter values into values (at most room of them);
 * returns n_params. */
size_t gh_test_8bit_defaults(const gh_kernel_info *k, int64_t *values, size_t room);
/* blocked at tile 32 and its other work values (other SPIR-V modules, other
 * -DWORK programs), for an FP8 pair and i8, on the given shapes. */
void gh_test_8bit_blocked_other_works(const gh_plugin_api *api, gh_plugin *ctx, const gh_test_shape8 *shapes,
                                      size_t n_shapes);
/* Kernels that list i8 x i8 -> i32 (exact) and nothing else, in any plugin
 * that has them: "mma" (OpenCL's, mma.sync m16n8k32.s8), "coopmat" (Vulkan's s8
 * cooperative matrices). */
#define GH_TEST_8BIT_I8_ONLY_KERNELS 2
extern const char *const gh_test_8bit_i8_only_kernels[GH_TEST_8BIT_I8_ONLY_KERNELS];

/* Kernels on Hopper's FP8 tensor cores that list the 13 combinations with
 * FP8's 13-bit running sum never promoted: "wgmma" (OpenCL's). */
#define GH_TEST_8BIT_HOPPER_KERNELS 1
extern const char *const gh_test_8bit_hopper_kernels[GH_TEST_8BIT_HOPPER_KERNELS];
#define GH_TEST_8BIT_HOPPER_SUM_BITS 13

/* Every kernel of the plugin: the n named ones list the 13 combinations
 * (gh_test_8bit_declared), those of gh_test_8bit_hopper_kernels the 13 with
 * the narrow sum, those of gh_test_8bit_i8_only_kernels i8 x i8 -> i32
 * alone, every other kernel lists none. */
void gh_test_8bit_kernel_table(const gh_plugin_api *api, gh_plugin *ctx, const char *const *named, int n);

/* Every combination whose bit is set in combo_mask (bit i: entry i of
 * gh_test_8bit_combos) on every shape, variant (shape index + combo index +
 * variant_shift) mod the variant count; one CHECK per case. */
void gh_test_8bit_cases(const gh_plugin_api *api, gh_plugin *ctx, int device, int kernel, const int64_t *params,
                        size_t n_params, const char *label, const gh_test_shape8 *shapes, size_t n_shapes,
                        unsigned combo_mask, int variant_shift);

/* Each transpose (nn, nt, tn, tt) of the three shapes 1x1x1, 7x13x33 and
 * 65x31x129: the suites' full set (12 shapes). */
#define GH_TEST_8BIT_FULL_SHAPES 12
extern const gh_test_shape8 gh_test_8bit_full_shapes[GH_TEST_8BIT_FULL_SHAPES];

/* The refusals every plugin gives: a combination not listed (e4m3 x e4m3
 * -> i32, i8 x i8 -> f32) is GH_UNSUPPORTED; i8 with a scale other than 1 or
 * a fractional alpha is GH_INVALID_ARGUMENT. */
void gh_test_8bit_refusals(const gh_plugin_api *api, gh_plugin *ctx, int device, int kernel, const int64_t *params,
                           size_t n_params, const char *label);

/* The GPU suites (tests/opencl, tests/vulkan): the kernels that list the
 * 8-bit combinations, every combination, and the five that cover every A,
 * B and C type and i8 (gh_test_8bit_combos' entries 0, 5, 7, 9 and 12:
 * e4m3*e4m3->f32, e4m3*e5m2->bf16, e5m2*e4m3->f16, e5m2*e5m2->f32,
 * i8*i8->i32): each program is compiled on first use, slow on PoCL and
 * lavapipe, so tiled and blocked run those. */
#define GH_TEST_8BIT_GPU_KERNELS 3
extern const char *const gh_test_8bit_gpu_kernels[GH_TEST_8BIT_GPU_KERNELS];
#define GH_TEST_8BIT_ALL_COMBOS      ((1u << GH_TEST_8BIT_COMBOS) - 1u)
#define GH_TEST_8BIT_COVERING_COMBOS (1u << 0 | 1u << 5 | 1u << 7 | 1u << 9 | 1u << 12)

/* Starts a GPU suite: loads the plugin and opens it with these options
 * (gh_test_plugin_start_with), prints only failures, and checks the kernel
 * table (gh_test_8bit_kernel_table over gh_test_8bit_gpu_kernels). Returns
 * 0 to go on, else the exit code: the start's, or 77 (a skip, the plugin
 * unloaded) when there is no device; api_name names the API in the skip
 * line. */
int gh_test_8bit_gpu_start(gh_test_plugin *h, int argc, char **argv, const char *plugin_file, const char *api_name,
                           const gh_option_value *options, size_t n_options);
/* naive, tiled and blocked at their default parameters on the shapes (naive
 * every combination, tiled and blocked the covering five; variants shifted
 * by 2 a kernel) with their refusals, then blocked's other work values. */
void gh_test_8bit_gpu_suite(const gh_plugin_api *api, gh_plugin *ctx, const gh_test_shape8 *shapes, size_t n_shapes);

#endif
