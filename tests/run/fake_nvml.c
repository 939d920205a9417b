/* A stand-in for libnvidia-ml, loaded through GEMMHOST_NVML_LIBRARY: one
 * Hopper-like GPU at PCI 0000:17:00.0 (132 SMs, max SM clock 1980 MHz,
 * compute capability 9.0). FAKE_NVML_MODE picks what it answers:
 *   steady     clocks at their max, no throttle reason (gpu_idle only)
 *   throttle   from the second sample on: SM clock 1200 MHz and sw_power_cap
 *   clockdrop  from the second sample on: SM clock 1200 MHz, no reason
 *   errors     the device is found, every other call answers GPU_IS_LOST
 *   noinit     nvmlInit_v2 fails (DRIVER_NOT_LOADED)
 *   coarse     steady, but the energy counter moves only every third read
 * Each energy read adds 1.5 J (coarse: 4.5 J every third). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define EXPORT __attribute__((visibility("default")))
enum { OK = 0, NOT_FOUND = 6, DRIVER_NOT_LOADED = 9, GPU_IS_LOST = 15 };
static int the_device; /* its handle is its address */
static unsigned sm_calls;
static unsigned long long energy_mj = 1000000;

static int mode_is(const char *m)
{
    const char *v = getenv("FAKE_NVML_MODE");
    return v && strcmp(v, m) == 0;
}

static int lost(void)
{
    return mode_is("errors") ? GPU_IS_LOST : OK;
}

EXPORT int nvmlInit_v2(void)
{
    return mode_is("noinit") ? DRIVER_NOT_LOADED : OK;
}

EXPORT const char *nvmlErrorString(int r)
{
    switch (r) {
    case OK: return "Success";
    case NOT_FOUND: return "Not Found";
    case DRIVER_NOT_LOADED: return "Driver Not Loaded";
    case GPU_IS_LOST: return "GPU is lost";
    default: return "Unknown Error";
    }
}

EXPORT int nvmlDeviceGetHandleByPciBusId_v2(const char *pci, void **out)
{
    if (strcasecmp(pci, "0000:17:00.0") != 0) return NOT_FOUND;
    *out = &the_device;
    return OK;
}

EXPORT int nvmlDeviceGetName(void *d, char *out, unsigned size)
{
    (void)d;
    strncpy(out, "Fake H200", size);
    out[size - 1] = '\0';
    return OK;
}

EXPORT int nvmlDeviceGetClockInfo(void *d, int type, unsigned *mhz)
{
    (void)d;
    if (lost()) return lost();
    if (type == 2) {
        *mhz = 3201;
        return OK;
    }
    int drop = (mode_is("throttle") || mode_is("clockdrop")) && sm_calls++ > 0;
    *mhz = drop ? 1200 : 1980;
    return OK;
}

EXPORT int nvmlDeviceGetMaxClockInfo(void *d, int type, unsigned *mhz)
{
    (void)d;
    if (lost()) return lost();
    *mhz = type == 2 ? 3201 : 1980;
    return OK;
}

EXPORT int nvmlDeviceGetTemperature(void *d, int sensor, unsigned *celsius)
{
    (void)d, (void)sensor;
    if (lost()) return lost();
    *celsius = 71;
    return OK;
}

EXPORT int nvmlDeviceGetPowerUsage(void *d, unsigned *mw)
{
    (void)d;
    if (lost()) return lost();
    *mw = 350000;
    return OK;
}

EXPORT int nvmlDeviceGetTotalEnergyConsumption(void *d, unsigned long long *mj)
{
    (void)d;
    if (lost()) return lost();
    static unsigned reads;
    if (!mode_is("coarse")) energy_mj += 1500;
    else if (++reads % 3 == 0) energy_mj += 4500;
    *mj = energy_mj;
    return OK;
}

EXPORT int nvmlDeviceGetCurrentClocksEventReasons(void *d, unsigned long long *reasons)
{
    (void)d;
    if (lost()) return lost();
    *reasons = mode_is("throttle") && sm_calls > 1 ? 0x4 : 0x1; /* sw_power_cap after the first sample; idle */
    return OK;
}

EXPORT int nvmlDeviceGetCudaComputeCapability(void *d, int *major, int *minor)
{
    (void)d;
    if (lost()) return lost();
    *major = 9;
    *minor = 0;
    return OK;
}

EXPORT int nvmlDeviceGetNumGpuCores(void *d, unsigned *cores)
{
    (void)d;
    if (lost()) return lost();
    *cores = 132 * 128;
    return OK;
}
