/* What a built program holds, read back through clGetProgram*Info: its
 * build log and its binary (PTX on NVIDIA). */
#ifndef GH_OPENCL_PROGRAM_INFO_H
#define GH_OPENCL_PROGRAM_INFO_H

#include <CL/cl.h>
#include <gemmhost/plugin_helpers.h>

/* The program's build log for `device`, NUL-terminated, to free; NULL when
 * the driver has none (or memory runs out: a log is never worth failing for). */
char *ocl_program_log(cl_program program, cl_device_id device);

/* The binary of a program built for one device, NUL-terminated (PTX is
 * text), to free. On failure the last error names the call; `what` says
 * whose binary it is. */
gh_status ocl_program_binary(cl_program program, const char *what, char **binary);

#endif
