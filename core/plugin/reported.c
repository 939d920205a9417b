/* Checks on what a plugin reports about itself; see reported.h. */
#include "reported.h"

#include <math.h>
#include <stdio.h>

/* The first required string missing from an info, or NULL. Members past the
 * info's size (an older minor's struct) are not asked for. */
static const char *missing_string(const gh_device_info *info)
{
    if (!GH_HAS_MEMBER(info, gh_device_info, name) || !info->name) return "a NULL name";
    if (!*info->name) return "an empty name";
    if (GH_HAS_MEMBER(info, gh_device_info, vendor) && !info->vendor) return "a NULL vendor";
    if (GH_HAS_MEMBER(info, gh_device_info, driver_version) && !info->driver_version) return "a NULL driver_version";
    if (GH_HAS_MEMBER(info, gh_device_info, api) && !info->api) return "a NULL api";
    if (GH_HAS_MEMBER(info, gh_device_info, platform) && !info->platform) return "a NULL platform";
    return NULL;
}

int gh_reported_devices(const gh_plugin_api *api, gh_plugin *ctx, char *why, size_t why_size)
{
    int count = api->device_count(ctx);
    if (count < 0 || count > GH_MAX_DEVICES) {
        if (count < 0) snprintf(why, why_size, "plugin %s claims %d devices (a count below 0)", api->name, count);
        else snprintf(why, why_size, "plugin %s claims %d devices (more than %d)", api->name, count, GH_MAX_DEVICES);
        return -1;
    }
    for (int d = 0; d < count; d++) {
        const gh_device_info *info = api->device_info(ctx, d);
        const char *problem = !info ? "no info (NULL)" : missing_string(info);
        if (problem) {
            snprintf(why, why_size, "plugin %s gives device %d of its %d %s", api->name, d, count, problem);
            return -1;
        }
    }
    return count;
}

int gh_reported_time_ok(double kernel_ms)
{
    return isfinite(kernel_ms) && kernel_ms > 0;
}
