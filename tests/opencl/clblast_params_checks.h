/* clblast-tuned's parameters (plugins/opencl/clblast_params.c, compiled
 * into this test): CLBlast's Xgemm constraints each refused with its rule,
 * the override list in CLBlast's order, the note. Need no device. */
#ifndef GH_TEST_CLBLAST_PARAMS_CHECKS_H
#define GH_TEST_CLBLAST_PARAMS_CHECKS_H

void clblast_params_checks(void);

#endif
