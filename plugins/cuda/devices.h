/* The devices of a context: discovery and info, their primary contexts,
 * own streams and events, and making one current on the calling thread. */
#ifndef GH_CUDA_DEVICES_H
#define GH_CUDA_DEVICES_H

#include "state.h"

/* Opens every CUDA device into ctx. With no driver or device it still
 * returns GH_OK, leaving n_devices at 0 and the reason in ctx->no_device; a
 * device that fails to open is left out and its reason kept there too. */
gh_status gh_cuda_devices_open(gh_plugin *ctx);
/* Releases each device's events, stream and primary context; what the
 * layers above keep per device (modules, cuBLAS handles) is freed first. */
void gh_cuda_devices_close(gh_plugin *ctx);

/* The device_count, device_info and synchronize members of the table. */
int gh_cuda_device_count(gh_plugin *ctx);
const gh_device_info *gh_cuda_device_info(gh_plugin *ctx, int device);
gh_status gh_cuda_synchronize(gh_plugin *ctx, int device);

/* The device index of a call named `call`: GH_NO_DEVICE (with why) when the
 * context has none, GH_INVALID_ARGUMENT when out of range or ctx is NULL. */
gh_status gh_cuda_check_device(const gh_plugin *ctx, const char *call, int device);

/* Checks the device index and makes its context current on the calling
 * thread (calls for different devices may come from different threads). */
gh_status gh_cuda_device_enter(gh_plugin *ctx, const char *call, int device, gh_cuda_device **out);

/* Makes dev's primary context current on the calling thread. */
gh_status gh_cuda_device_use(gh_plugin *ctx, const gh_cuda_device *dev);

/* Records ev on stream (skipped when ev is NULL). */
gh_status gh_cuda_record(gh_plugin *ctx, const gh_cuda_device *dev, CUevent ev, CUstream stream);

/* Waits for the event stop, recorded after work that start was recorded
 * before, and gives the time between them. Errors of that work (a bad
 * address, say) surface here, reported under `what`. */
gh_status gh_cuda_wait_elapsed(gh_plugin *ctx, const gh_cuda_device *dev, CUevent start, CUevent stop, const char *what,
                               double *ms);

#endif
