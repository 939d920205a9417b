/* A device's compute capability through the ABI:
 * shared by the CUDA plugin test and its speed table (cuda_test.h). */
#include <stdio.h>
#include <string.h>

#include "cuda_test.h"

int device_sm(const gh_plugin_api *api, gh_plugin *ctx, int device)
{
    const gh_device_info *info = api->device_info(ctx, device);
    const char *sm = info && info->api ? strstr(info->api, "sm_") : NULL;
    int value = -1, digits = 0;
    /* sm_90, sm_100: the last digit is the minor, the rest the major. */
    return sm && sscanf(sm + 3, "%d%n", &value, &digits) == 1 && digits >= 2 ? value : -1;
}
