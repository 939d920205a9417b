/* The PTX rewrites behind ptx_rebuild.h: plain text in and out, no OpenCL
 * (the tests compile this file alone). */
#ifndef GH_OPENCL_PTX_REWRITE_H
#define GH_OPENCL_PTX_REWRITE_H

/* The text PTX comments mark an sm_90a line with. */
#define OCL_SM90A_MARK "//SM90A "

/* A copy of ptx (to free) with every OCL_SM90A_MARK removed and its
 * ".target sm_NN" (whatever NN) made ".target sm_90a". NULL when out of
 * memory or when ptx has no .target directive; *why says which. */
char *ocl_ptx_to_sm90a(const char *ptx, const char **why);

/* A copy of ptx (to free) with ".maxnreg max_registers" before the body of
 * every .entry (after its parameters and other directives). NULL when out
 * of memory, when ptx has no .entry, or when one has no body or already a
 * .maxnreg; *why says which. */
char *ocl_ptx_cap_registers(const char *ptx, unsigned max_registers, const char **why);

#endif
