/* The devices of a context: discovery, info, primary contexts, streams, timing. */
#ifndef GH_CUDA_DEVICE_H
#define GH_CUDA_DEVICE_H

#include "cuda_plugin.h"

/* Opens every CUDA device into ctx. With no driver or device it still
 * returns GH_OK, leaving n_devices at 0 and the reason in ctx->no_device; a
 * device that fails to open is left out and its reason kept there too. */
gh_status gh_cuda_devices_open(gh_plugin *ctx);
void gh_cuda_devices_close(gh_plugin *ctx);

/* Checks the device index and makes its context current on the calling
 * thread (calls for different devices may come from different threads). */
gh_status gh_cuda_device_enter(gh_plugin *ctx, int device, gh_cuda_device **out);

/* CUDA events on the device's stream around the work queued in between;
 * stop waits for that work and reports its errors under `what`. */
gh_status gh_cuda_timer_start(gh_plugin *ctx, gh_cuda_device *dev);
gh_status gh_cuda_timer_stop(gh_plugin *ctx, gh_cuda_device *dev, const char *what, double *ms);

#endif
