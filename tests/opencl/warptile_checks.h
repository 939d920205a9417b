/* The warptile kernel on one device: parameter sets, dtypes, transposes and
 * odd shapes checked on the host, and its refusals before compiling. */
#ifndef GH_TEST_WARPTILE_CHECKS_H
#define GH_TEST_WARPTILE_CHECKS_H

#include <gemmhost/plugin.h>

/* is_software: a few parameter sets per dtype rather than all (each is a
 * compile of seconds on PoCL). */
void warptile_checks(const gh_plugin_api *api, gh_plugin *ctx, int device, int is_software);

#endif
