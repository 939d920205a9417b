/* The plugin's PTX rewrite for kernel wgmma (plugins/opencl/ptx_rewrite.c,
 * compiled into this test): marks dropped, the target made sm_90a. Needs no
 * device. */
#ifndef GH_TEST_PTX_REWRITE_CHECKS_H
#define GH_TEST_PTX_REWRITE_CHECKS_H

void ptx_rewrite_checks(void);

#endif
