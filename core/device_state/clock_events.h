/* NVML's clock-event (throttle) reasons: their names, and which of them
 * mean the GPU was held below its clock by power or heat. */
#ifndef GEMMHOST_CLOCK_EVENTS_H
#define GEMMHOST_CLOCK_EVENTS_H

#include <stddef.h>

/* nvmlClocksEventReason* bits, as nvml.h has them */
#define GH_CLOCK_EVENT_GPU_IDLE       0x1ULL
#define GH_CLOCK_EVENT_APP_CLOCKS     0x2ULL
#define GH_CLOCK_EVENT_SW_POWER_CAP   0x4ULL
#define GH_CLOCK_EVENT_HW_SLOWDOWN    0x8ULL
#define GH_CLOCK_EVENT_SYNC_BOOST     0x10ULL
#define GH_CLOCK_EVENT_SW_THERMAL     0x20ULL
#define GH_CLOCK_EVENT_HW_THERMAL     0x40ULL
#define GH_CLOCK_EVENT_HW_POWER_BRAKE 0x80ULL
#define GH_CLOCK_EVENT_DISPLAY_CLOCKS 0x100ULL

/* The reasons that hold the clock down by power or heat. */
#define GH_CLOCK_EVENTS_THROTTLE                                                            \
    (GH_CLOCK_EVENT_SW_POWER_CAP | GH_CLOCK_EVENT_HW_SLOWDOWN | GH_CLOCK_EVENT_SW_THERMAL | \
     GH_CLOCK_EVENT_HW_THERMAL | GH_CLOCK_EVENT_HW_POWER_BRAKE)

/* Space-separated names of the bits set ("sw_power_cap hw_thermal_slowdown");
 * an unknown bit as "0x...". */
void gh_clock_events_text(unsigned long long reasons, char *out, size_t size);

#endif
