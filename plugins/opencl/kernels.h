/* The kernels this plugin offers, as the host sees them (gh_kernel_info) and
 * as the plugin builds them (source file, function, build-time parameter). */
#ifndef GH_OPENCL_KERNELS_H
#define GH_OPENCL_KERNELS_H

#include <gemmhost/plugin.h>

enum { OCL_KERNEL_NAIVE, OCL_KERNEL_TILED, OCL_KERNEL_COUNT };

/* Most values any parameter allows: the program cache has one slot each. */
#define OCL_MAX_VARIANTS 4

/* Both kernels run edge x edge work-groups over a grid that covers C; their
 * one parameter is that edge. */
typedef struct ocl_kernel_def {
    gh_kernel_info info;
    const char *file;          /* source in kernels/opencl/, after common.cl */
    const char *function;      /* the __kernel's name */
    const char *build_define;  /* the edge becomes -D<this>=<edge>; NULL when
                                  the program does not depend on it */
} ocl_kernel_def;

extern const ocl_kernel_def ocl_kernels[OCL_KERNEL_COUNT];

/* Where `value` sits in the kernel's allowed list, or -1. */
int ocl_kernel_variant(const ocl_kernel_def *def, int64_t value);

#endif
