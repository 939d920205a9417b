/* Plugin devices to NVML devices by PCI address; see nvml_device.h. */
#include "nvml_device.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "numa.h"
#include "peak.h"

enum { MAX_GPUS = 64 };
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static gh_nvml_gpu gpus[MAX_GPUS];
static int n_gpus;

/* What NVML knows of the device for its peak; an unanswered call leaves
 * its part unknown and the derivation says so. */
static void describe(const gh_nvml *nv, gh_nvml_gpu *g, const gh_device_info *info)
{
    g->cc_major = g->cc_minor = -1;
    char why[256] = "";
    gh_nvml_return r;
    if ((r = nv->name(g->dev, g->name, sizeof g->name)) != 0) snprintf(g->name, sizeof g->name, "?");
    if ((r = nv->compute_capability(g->dev, &g->cc_major, &g->cc_minor)) != 0) {
        g->cc_major = g->cc_minor = -1;
        gh_nvml_failure(nv, "nvmlDeviceGetCudaComputeCapability", r, why, sizeof why);
    }
    unsigned mhz = 0;
    if ((r = nv->max_clock(g->dev, GH_NVML_CLOCK_SM, &mhz)) == 0) g->max_sm_mhz = mhz;
    else if (!*why) gh_nvml_failure(nv, "nvmlDeviceGetMaxClockInfo", r, why, sizeof why);
    int per_sm = gh_peak_cores_per_sm(g->cc_major, g->cc_minor);
    unsigned cores = 0;
    if (nv->gpu_cores && per_sm > 0 && nv->gpu_cores(g->dev, &cores) == 0 && cores > 0) {
        g->sms = cores / (unsigned)per_sm;
        snprintf(g->sms_from, sizeof g->sms_from, "NVML: %u cores / %d per SM", cores, per_sm);
    } else if (info->compute_units > 0 && strncmp(info->vendor, "NVIDIA", 6) == 0) {
        g->sms = info->compute_units; /* CUDA and NVIDIA's OpenCL count SMs */
        snprintf(g->sms_from, sizeof g->sms_from, "the API's compute units");
    }
    char head[256]; /* not straight into peak_note: g's own strings go into it */
    snprintf(head, sizeof head, "peak of %s (%s, PCI %s): ", info->name, g->name, g->pci);
    int w = snprintf(g->peak_note, sizeof g->peak_note, "%s", head);
    size_t at = w > 0 && (size_t)w < sizeof g->peak_note ? (size_t)w : 0;
    if (g->cc_major < 0 || !g->max_sm_mhz || !g->sms)
        snprintf(g->peak_note + at, sizeof g->peak_note - at, "unknown (%s)",
                 *why     ? why
                 : g->sms ? "no compute capability"
                          : "no SM count");
    else {
        char d[768];
        gh_peak_derivation(g->cc_major, g->cc_minor, g->sms, g->max_sm_mhz, d, sizeof d);
        snprintf(g->peak_note + at, sizeof g->peak_note - at,
                 "compute capability %d.%d, SMs from %s, max SM clock from NVML; dense: %s", g->cc_major, g->cc_minor,
                 g->sms_from, d);
    }
}

gh_nvml_gpu *gh_nvml_gpu_for(const gh_device_info *info, const gh_nvml **nv, char *why, size_t why_size)
{
    if (!info) {
        snprintf(why, why_size, "not sampled: a split group's devices are not sampled");
        return NULL;
    }
    const char *pci = gh_device_pci_address(info);
    if (!*pci) {
        snprintf(why, why_size,
                 "no PCI address: the device reports none (a CPU or software device, or a plugin "
                 "before ABI 1.3), so no NVML device matches it");
        return NULL;
    }
    if (!(*nv = gh_nvml_get(why, why_size))) return NULL;
    pthread_mutex_lock(&lock);
    gh_nvml_gpu *found = NULL;
    for (int i = 0; i < n_gpus && !found; i++)
        if (strcmp(gpus[i].pci, pci) == 0) found = &gpus[i];
    if (!found) {
        gh_nvml_device dev = NULL;
        gh_nvml_return r = (*nv)->device_by_pci(pci, &dev);
        if (r != 0) {
            char call[96];
            snprintf(call, sizeof call, "nvmlDeviceGetHandleByPciBusId_v2(\"%.40s\")", pci);
            gh_nvml_failure(*nv, call, r, why, why_size);
        } else if (n_gpus == MAX_GPUS) {
            snprintf(why, why_size, "not sampled: more than %d GPUs", MAX_GPUS);
        } else {
            found = &gpus[n_gpus++];
            snprintf(found->pci, sizeof found->pci, "%s", pci);
            found->dev = dev;
            describe(*nv, found, info);
        }
    }
    pthread_mutex_unlock(&lock);
    return found;
}

int gh_nvml_note_first(const char *note)
{
    int first = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < n_gpus; i++)
        if (gpus[i].peak_note == note) {
            first = !gpus[i].noted;
            gpus[i].noted = 1;
        }
    pthread_mutex_unlock(&lock);
    return first;
}
