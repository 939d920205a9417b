/* Names of NVML's clock-event reasons; see clock_events.h. */
#include "clock_events.h"

#include <stdio.h>

static const struct {
    unsigned long long bit;
    const char *name;
} names[] = {
    {GH_CLOCK_EVENT_GPU_IDLE, "gpu_idle"},
    {GH_CLOCK_EVENT_APP_CLOCKS, "applications_clocks_setting"},
    {GH_CLOCK_EVENT_SW_POWER_CAP, "sw_power_cap"},
    {GH_CLOCK_EVENT_HW_SLOWDOWN, "hw_slowdown"},
    {GH_CLOCK_EVENT_SYNC_BOOST, "sync_boost"},
    {GH_CLOCK_EVENT_SW_THERMAL, "sw_thermal_slowdown"},
    {GH_CLOCK_EVENT_HW_THERMAL, "hw_thermal_slowdown"},
    {GH_CLOCK_EVENT_HW_POWER_BRAKE, "hw_power_brake_slowdown"},
    {GH_CLOCK_EVENT_DISPLAY_CLOCKS, "display_clock_setting"},
};

void gh_clock_events_text(unsigned long long reasons, char *out, size_t size)
{
    size_t len = 0;
    out[0] = '\0';
    unsigned long long known = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        known |= names[i].bit;
        if (!(reasons & names[i].bit) || len >= size) continue;
        int w = snprintf(out + len, size - len, "%s%s", len ? " " : "", names[i].name);
        if (w > 0) len += (size_t)w;
    }
    if (reasons & ~known && len < size) snprintf(out + len, size - len, "%s0x%llx", len ? " " : "", reasons & ~known);
}
