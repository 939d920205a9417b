/* libnvidia-ml loaded at run time: the few NVML calls gemmhost uses, each
 * status turned into words. NVML is optional: without it every GPU-state
 * field of a result says why (gh_nvml_get's `why`). */
#ifndef GEMMHOST_NVML_LIB_H
#define GEMMHOST_NVML_LIB_H

#include <stddef.h>

/* NVML's own types, as nvml.h declares them (its ABI is stable). */
typedef int gh_nvml_return;                 /* nvmlReturn_t: 0 is NVML_SUCCESS */
typedef struct gh_nvml_dev *gh_nvml_device; /* nvmlDevice_t */
enum { GH_NVML_CLOCK_SM = 1, GH_NVML_CLOCK_MEM = 2, GH_NVML_TEMPERATURE_GPU = 0 };

typedef struct gh_nvml {
    gh_nvml_return (*device_by_pci)(const char *pci_bus_id, gh_nvml_device *out);
    gh_nvml_return (*name)(gh_nvml_device d, char *out, unsigned size);
    gh_nvml_return (*clock)(gh_nvml_device d, int type, unsigned *mhz);
    gh_nvml_return (*max_clock)(gh_nvml_device d, int type, unsigned *mhz);
    gh_nvml_return (*temperature)(gh_nvml_device d, int sensor, unsigned *celsius);
    gh_nvml_return (*power)(gh_nvml_device d, unsigned *milliwatts);
    gh_nvml_return (*energy)(gh_nvml_device d, unsigned long long *millijoules);
    /* nvmlDeviceGetCurrentClocksEventReasons, or the older name
     * nvmlDeviceGetCurrentClocksThrottleReasons */
    gh_nvml_return (*clock_events)(gh_nvml_device d, unsigned long long *reasons);
    gh_nvml_return (*compute_capability)(gh_nvml_device d, int *major, int *minor);
    /* NULL in drivers before r520: the SM count then comes from the API */
    gh_nvml_return (*gpu_cores)(gh_nvml_device d, unsigned *cores);
    const char *(*error_string)(gh_nvml_return r);
    char path[256]; /* the library that was loaded */
} gh_nvml;

/* NVML, loaded and initialized once per process (thread-safe); NULL when it
 * cannot be, with why ("NVML not available: ...") in `why`. The library
 * is GEMMHOST_NVML_LIBRARY when set (tests load a fake), else
 * libnvidia-ml.so.1. */
const gh_nvml *gh_nvml_get(char *why, size_t why_size);

/* "NVML call NAME: TEXT (status N)" for a failed call. */
void gh_nvml_failure(const gh_nvml *nv, const char *call, gh_nvml_return r, char *out, size_t size);

#endif
