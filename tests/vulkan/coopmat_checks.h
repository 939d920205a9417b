/* What only the coopmat kernel has: it runs where the device offers
 * cooperative matrices of its dtype and shape, and is refused elsewhere,
 * saying what the device lacks. */
#ifndef GEMMHOST_TEST_VULKAN_COOPMAT_CHECKS_H
#define GEMMHOST_TEST_VULKAN_COOPMAT_CHECKS_H

#include "gemm_case.h"
#include "sweep.h"

/* Whether the device offers coopmat `dtype` at `shape` (the kernel's shape
 * parameter: 161616 = 16x16x16 ..., 0 = any of those), as the plugin's
 * device info says (its api ends in "; cooperative matrices (KHR, f32 sums):
 * f16 16x16x16 16x8x16, bf16 16x16x16"). */
int coopmat_offers(const plugin *pl, int device, gh_dtype dtype, int64_t shape);

/* c (kernel coopmat, f16 or bf16) is refused before it runs, as
 * unsupported, with a reason naming the kernel, the dtype, the device and,
 * where the device offers no cooperative matrices at all, both extensions. */
void coopmat_expect_refused(const plugin *pl, const gemm_case *c);

/* The coopmat kernel with its cooperative matrices emulated in plain shader
 * code (the option emulate = cooperative_matrix), in f16 and bf16 at a few
 * parameter sets (every block, subgroup count, k step and shape among
 * them), every transpose, scenario (alpha, beta, beta = 0 over NaN, padding,
 * offsets) and shapes around the block's edges: its tiling, copies, edges
 * and epilogue, checked on any device. A device without what the emulation
 * needs refuses it, naming the device: a skip. At SWEEP_QUICK the first set
 * only, nn and tt; at SWEEP_SAMPLE the first two (between them both stage
 * counts and subgroup counts, the device's shape and another), each taking
 * some 30 s of lavapipe; every set at SWEEP_ALL. */
void coopmat_emulated(const gh_plugin_api *api, int device, sweep_scope scope);

/* Shapes for coopmat's 16-byte copies at its parameters (bm, bn, _, bk):
 * whole tiles only, whole tiles then edges, and partial tiles alone; with
 * ld and offsets multiples of 8 (vector8_scenario, or packed) A and B are
 * read as vectors where a tile lies wholly inside them. */
#define COOPMAT_VECTOR_SHAPES 3
void coopmat_vector_shapes(const int64_t params[MAX_PARAMS], int64_t shapes[COOPMAT_VECTOR_SHAPES][3]);

/* The options coopmat adds: hide_features takes the three extensions'
 * names, emulate only cooperative_matrix; a wrong value is refused at open
 * (GH_INVALID_ARGUMENT), naming the option and what it knows. */
void coopmat_options(const gh_plugin_api *api);

#endif
