/* CLBlast's status codes (CLBlastStatusCode) turned into words. Plain C, no
 * OpenCL and no CLBlast header: the tests compile this file alone. */
#ifndef GH_OPENCL_CLBLAST_STATUS_H
#define GH_OPENCL_CLBLAST_STATUS_H

#include <stddef.h>

/* "CLBlastInvalidLeadDimA" for -1016; NULL for a code CLBlast 1.5 does not name. */
const char *ocl_clblast_status_name(int code);

/* "CLBlastInvalidLeadDimA (-1016: LD of A is smaller than the matrix's first
 * dimension)", or "unknown CLBlast status (-7)", into buf. */
const char *ocl_clblast_status_text(int code, char *buf, size_t size);

#endif
