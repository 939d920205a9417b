/* The plugin's CLBlast status words (plugins/opencl/clblast_status.c,
 * compiled into this test), checked against clblast_c.h where installed.
 * Need no device. */
#ifndef GH_TEST_CLBLAST_STATUS_CHECKS_H
#define GH_TEST_CLBLAST_STATUS_CHECKS_H

void clblast_status_checks(void);

#endif
