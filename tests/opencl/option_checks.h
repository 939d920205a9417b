/* The plugin's two options: `platform` (a filter on platform names) and
 * `kernel_dir` (kernel sources read from a folder instead of the copies built
 * in, and a kernel that does not compile reported with its compiler log). */
#ifndef GH_TEST_OPTION_CHECKS_H
#define GH_TEST_OPTION_CHECKS_H

#include <gemmhost/plugin.h>

/* Need no device. */
void option_checks_platform(const gh_plugin_api *api);

/* On one device; `platform` is the filter the test's context was opened with
 * (or NULL), used again for the contexts these checks open. */
void option_checks_kernel_dir(const gh_plugin_api *api, const char *platform, int device);

#endif
