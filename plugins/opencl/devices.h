/* Finding platforms and devices, describing them, and opening the OpenCL
 * context and queue of one device when it is first used. */
#ifndef GH_OPENCL_DEVICES_H
#define GH_OPENCL_DEVICES_H

#include "plugin_state.h"

/* Fills ctx->devices with every device of every platform whose name contains
 * platform_filter (case-insensitive; NULL or "" for all). Finding none is not
 * a failure: ctx->no_device_reason then says why. */
gh_status ocl_devices_discover(gh_plugin *ctx, const char *platform_filter);

/* Creates the device's context and queue if not done yet. */
gh_status ocl_device_ready(ocl_device *dev);

/* Releases queues, contexts and strings (programs and buffers go first). */
void ocl_devices_release(gh_plugin *ctx);

#endif
