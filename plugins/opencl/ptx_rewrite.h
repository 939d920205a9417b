/* The PTX rewrite behind kernel wgmma (sm90a.h): plain text in and out, no
 * OpenCL (the tests compile this file alone). */
#ifndef GH_OPENCL_PTX_REWRITE_H
#define GH_OPENCL_PTX_REWRITE_H

/* The text PTX comments mark an sm_90a line with. */
#define OCL_SM90A_MARK "//SM90A "

/* A copy of ptx (to free) with every OCL_SM90A_MARK removed and its
 * ".target sm_NN" (whatever NN) made ".target sm_90a". NULL when out of
 * memory or when ptx has no .target directive; *why says which. */
char *ocl_ptx_to_sm90a(const char *ptx, const char **why);

#endif
