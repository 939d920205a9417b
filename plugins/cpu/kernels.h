/* The C plugin's kernels as data: what the host lists, checks and sweeps. */
#ifndef GEMMHOST_CPU_KERNELS_H
#define GEMMHOST_CPU_KERNELS_H

#include "gemmhost/plugin.h"

enum { KERNEL_NAIVE, KERNEL_TILED, KERNEL_BLAS, KERNEL_COUNT };
extern const gh_kernel_info cpu_kernels[KERNEL_COUNT];

#endif
