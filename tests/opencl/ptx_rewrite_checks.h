/* The plugin's PTX rewrites (plugins/opencl/ptx_rewrite.c, compiled into
 * this test): for kernel wgmma the marks dropped and the target made sm_90a;
 * for warptile's late barrier a register cap, and which programs get one
 * (plugins/opencl/warptile.c). Needs no device. */
#ifndef GH_TEST_PTX_REWRITE_CHECKS_H
#define GH_TEST_PTX_REWRITE_CHECKS_H

void ptx_rewrite_checks(void);

#endif
