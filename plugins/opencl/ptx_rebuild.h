/* A program built again from its own PTX, edited, on NVIDIA:
 * - sm_90a: Hopper's sm_90a instructions (wgmma) from OpenCL C. Its OpenCL
 *   compiler emits PTX for .target sm_90, where ptxas refuses them, so a
 *   kernel writes them inside PTX comments ("//SM90A ...", operands filled
 *   in as for any inline asm); the PTX is uncommented and retargeted to
 *   sm_90a (kernels/opencl/wgmma.cl).
 * - a register cap: NVIDIA's OpenCL compiler takes none (it accepts
 *   -cl-nv-maxrregcount and ignores it), so .maxnreg is written into the
 *   PTX (warptile's late barrier, kernels/opencl/warptile.cl). */
#ifndef GH_OPENCL_PTX_REBUILD_H
#define GH_OPENCL_PTX_REBUILD_H

#include <CL/cl.h>
#include <gemmhost/plugin_helpers.h>
#include "ptx_rewrite.h"

/* What to change in the PTX. */
typedef struct ocl_ptx_edit {
    int sm90a;              /* uncomment the marks, target sm_90a */
    unsigned max_registers; /* .maxnreg for every kernel; 0: none */
} ocl_ptx_edit;

/* From `built`, a program built from source for `device` alone: its PTX,
 * edited, built as a program binary with `options` (without them where the
 * driver refuses them for a binary) into *out. On failure the last error
 * names the step; *out is set, for the caller to release, whenever it was
 * created. *log (to free; NULL when there is none) is the binary's build
 * log: ptxas's, for the code that runs. */
gh_status ocl_ptx_rebuild(cl_context context, cl_device_id device, cl_program built, const char *options,
                          const ocl_ptx_edit *edit, cl_program *out, char **log);

#endif
