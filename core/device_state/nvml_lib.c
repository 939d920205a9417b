/* libnvidia-ml loaded at run time; see nvml_lib.h. */
#define _GNU_SOURCE
#include "nvml_lib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static gh_nvml loaded;
static int loaded_ok;
static char load_why[512];

/* The first of `names` the library has, or NULL. */
static void *symbol(void *lib, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        void *p = dlsym(lib, names[i]);
        if (p) return p;
    }
    return NULL;
}

#define NAMES(...) (const char *const[]){__VA_ARGS__}, sizeof((const char *const[]){__VA_ARGS__}) / sizeof(char *)

static void load(void)
{
    const char *env = getenv("GEMMHOST_NVML_LIBRARY");
    const char *path = env && *env ? env : "libnvidia-ml.so.1";
    snprintf(loaded.path, sizeof loaded.path, "%s", path);
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        snprintf(load_why, sizeof load_why, "NVML not available: %s", e ? e : path);
        return;
    }
    gh_nvml_return (*init)(void) = (gh_nvml_return(*)(void))symbol(lib, NAMES("nvmlInit_v2", "nvmlInit"));
    struct {
        void **slot;
        const char *const *names;
        size_t n;
        int optional;
    } want[] = {
        {(void **)&loaded.device_by_pci, NAMES("nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceGetHandleByPciBusId"), 0},
        {(void **)&loaded.name, NAMES("nvmlDeviceGetName"), 0},
        {(void **)&loaded.clock, NAMES("nvmlDeviceGetClockInfo"), 0},
        {(void **)&loaded.max_clock, NAMES("nvmlDeviceGetMaxClockInfo"), 0},
        {(void **)&loaded.temperature, NAMES("nvmlDeviceGetTemperature"), 0},
        {(void **)&loaded.power, NAMES("nvmlDeviceGetPowerUsage"), 0},
        {(void **)&loaded.energy, NAMES("nvmlDeviceGetTotalEnergyConsumption"), 0},
        {(void **)&loaded.clock_events,
         NAMES("nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons"), 0},
        {(void **)&loaded.compute_capability, NAMES("nvmlDeviceGetCudaComputeCapability"), 0},
        {(void **)&loaded.gpu_cores, NAMES("nvmlDeviceGetNumGpuCores"), 1},
        {(void **)&loaded.error_string, NAMES("nvmlErrorString"), 0},
    };
    const char *missing = init ? NULL : "nvmlInit_v2";
    for (size_t i = 0; i < sizeof want / sizeof want[0] && !missing; i++) {
        *want[i].slot = symbol(lib, want[i].names, want[i].n);
        if (!*want[i].slot && !want[i].optional) missing = want[i].names[0];
    }
    if (missing) {
        snprintf(load_why, sizeof load_why, "NVML not available: %s has no %s (a driver older than NVML 11?)", path,
                 missing);
        dlclose(lib);
        return;
    }
    gh_nvml_return r = init();
    if (r != 0) {
        snprintf(load_why, sizeof load_why, "NVML not available: nvmlInit_v2 in %s: %s (status %d)", path,
                 loaded.error_string(r), r);
        dlclose(lib);
        return;
    }
    loaded_ok = 1; /* kept loaded and initialized for the process's life */
}

const gh_nvml *gh_nvml_get(char *why, size_t why_size)
{
    pthread_once(&once, load);
    if (loaded_ok) return &loaded;
    snprintf(why, why_size, "%s", load_why);
    return NULL;
}

void gh_nvml_failure(const gh_nvml *nv, const char *call, gh_nvml_return r, char *out, size_t size)
{
    const char *text = nv->error_string ? nv->error_string(r) : NULL;
    snprintf(out, size, "NVML %s: %s (status %d)", call, text ? text : "unknown error", r);
}
