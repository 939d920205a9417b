/* Finding platforms and devices, describing them, and opening the OpenCL
 * context and queue of one device when it is first used. */
#ifndef GH_OPENCL_DEVICES_H
#define GH_OPENCL_DEVICES_H

#include "state.h"

/* Fills ctx->devices with every device of every platform whose name contains
 * platform_filter (case-insensitive; NULL or "" for all). Finding none is not
 * a failure: ctx->no_device_reason then says why. */
gh_status ocl_devices_discover(gh_plugin *ctx, const char *platform_filter);

/* The device_count, device_info and synchronize members. */
int ocl_device_count(gh_plugin *ctx);
const gh_device_info *ocl_device_info(gh_plugin *ctx, int device);
gh_status ocl_synchronize(gh_plugin *ctx, int device);

/* Creates the device's context and queue if not done yet. */
gh_status ocl_device_ready(ocl_device *dev);

/* Releases queues, contexts and strings; close() frees the programs and
 * buffers first (this layer knows nothing of them). */
void ocl_devices_release(gh_plugin *ctx);

#endif
