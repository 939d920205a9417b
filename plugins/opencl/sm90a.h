/* Hopper's sm_90a instructions (wgmma) from OpenCL C on NVIDIA. Its OpenCL
 * compiler emits PTX for .target sm_90, where ptxas refuses them, so a
 * kernel writes them inside PTX comments ("//SM90A ...", operands filled in
 * as for any inline asm); the program's PTX is then uncommented, retargeted
 * to sm_90a and built again as a program binary (kernels/opencl/wgmma.cl). */
#ifndef GH_OPENCL_SM90A_H
#define GH_OPENCL_SM90A_H

#include <CL/cl.h>
#include <gemmhost/plugin_helpers.h>
#include "ptx_rewrite.h"

/* From `built`, a program built from source for `device` alone: its PTX,
 * made sm_90a, built as a program binary with `options` (without them
 * where the driver refuses them for a binary) into *out. On
 * failure the last error names the step; *out is set, for the caller to
 * release, whenever it was created. *log (to free; NULL when there is none)
 * is the binary's build log: ptxas's, with the sm_90a instructions. */
gh_status ocl_sm90a_rebuild(cl_context context, cl_device_id device, cl_program built, const char *options,
                            cl_program *out, char **log);

#endif
