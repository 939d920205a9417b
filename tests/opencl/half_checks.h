/* f16 and bf16 through every kernel, bit for bit (see half_checks.c). */
#ifndef GH_TEST_OPENCL_HALF_CHECKS_H
#define GH_TEST_OPENCL_HALF_CHECKS_H

#include <gemmhost/plugin.h>

/* Every kernel that declares f16 or bf16, at its default parameters, on
 * every 16-bit input pattern: C must hold exactly what the host computes. */
void half_checks(const gh_plugin_api *api, gh_plugin *ctx, int device);

#endif
