/* A GPU's theoretical dense peak (no sparsity): SMs x clock x the
 * architecture's flops per SM per clock, per arithmetic and unit (SIMT
 * cores, tensor cores). Only NVIDIA architectures gemmhost knows; the rest
 * is "unknown", never a guess. */
#ifndef GEMMHOST_PEAK_H
#define GEMMHOST_PEAK_H

#include <stddef.h>

/* The arithmetic classes a peak is given for. */
typedef enum gh_peak_arith {
    GH_PEAK_F64,
    GH_PEAK_F32,
    GH_PEAK_TF32,
    GH_PEAK_F16,
    GH_PEAK_BF16,
    GH_PEAK_FP8, /* e4m3 and e5m2 */
    GH_PEAK_I8,  /* i8 products into i32: operations, not flops */
    GH_PEAK_N
} gh_peak_arith;
typedef enum gh_peak_unit { GH_PEAK_SIMT, GH_PEAK_TENSOR, GH_PEAK_UNITS } gh_peak_unit;

const char *gh_peak_arith_name(gh_peak_arith a); /* "f64", "f32", "tf32", "f16", "bf16", "fp8", "i8" */
const char *gh_peak_unit_name(gh_peak_unit u);   /* "simt", "tensor" */

/* Dense flops per SM per clock (an FMA is 2) for compute capability
 * major.minor: > 0 known, 0 the unit has no such arithmetic, < 0 unknown. */
int gh_peak_flops_per_sm_clock(int cc_major, int cc_minor, gh_peak_arith a, gh_peak_unit u);

/* CUDA cores (FP32 lanes) per SM, to turn NVML's core count into SMs; 0 unknown. */
int gh_peak_cores_per_sm(int cc_major, int cc_minor);

/* The derivation of every known peak, one line: "tensor f16 132 SMs x 1980
 * MHz x 4096 = 1070.3 TFLOP/s; ..." */
void gh_peak_derivation(int cc_major, int cc_minor, unsigned sms, double clock_mhz, char *out, size_t size);

#endif
