/* The C plugin's GEMM: rows of C split across the context's pool of threads,
 * timed by the host clock (the CPU is the device). */
#ifndef GEMMHOST_CPU_GEMM_H
#define GEMMHOST_CPU_GEMM_H

#include "state.h"

gh_status cpu_gemm(gh_plugin *ctx, int device, int kernel, const gh_gemm_args *g, gh_gemm_timing *timing);
gh_status cpu_synchronize(gh_plugin *ctx, int device);
/* Every check of plugin.h's gemm, for gemm and gemm_async (`call` names it). */
gh_status cpu_check_gemm(gh_plugin *ctx, const char *call, int device, int kernel, const gh_gemm_args *g);
/* Milliseconds on a monotonic clock. */
double cpu_now_ms(void);

#endif
