/* What this plugin says of and does on an OpenCL device, beyond the generic
 * promises gemmhost-conformance checks: the OpenCL parts of the device info,
 * a work-group over the device's limit refused before launch, and devices
 * driven from several threads at once (each has its own context and queue). */
#ifndef GH_TEST_DEVICE_CHECKS_H
#define GH_TEST_DEVICE_CHECKS_H

#include <gemmhost/plugin.h>

/* On one device of ctx. */
void device_checks(const gh_plugin_api *api, gh_plugin *ctx, int device);

/* Every device at once, one thread each (only meaningful with 2 or more). */
void device_checks_threads(const gh_plugin_api *api, gh_plugin *ctx);

#endif
