/* The plugin's build-log helpers (plugins/opencl/build_log.c, compiled into
 * this test): positions of the whole program turned into file:line, and
 * ptxas's register and spill lines picked out. Need no device. */
#ifndef GH_TEST_BUILD_LOG_CHECKS_H
#define GH_TEST_BUILD_LOG_CHECKS_H

void build_log_checks(void);

#endif
