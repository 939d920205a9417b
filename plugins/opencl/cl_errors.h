/* OpenCL status codes as the names a person can search for. */
#ifndef GH_OPENCL_CL_ERRORS_H
#define GH_OPENCL_CL_ERRORS_H

#include <CL/cl.h>

/* "CL_OUT_OF_RESOURCES" for -5; NULL for a code no header names. */
const char *cl_error_name(cl_int code);

#endif
