/* A plugin's device matched to its NVML device by PCI address, with what
 * the peak needs (compute capability, SMs, max SM clock); looked up once
 * per address and kept for the process's life. */
#ifndef GEMMHOST_NVML_DEVICE_H
#define GEMMHOST_NVML_DEVICE_H

#include <stddef.h>

#include "gemmhost/plugin.h"
#include "nvml_lib.h"

typedef struct gh_nvml_gpu {
    char pci[32];
    gh_nvml_device dev;
    char name[96];
    int cc_major, cc_minor; /* -1 unknown */
    unsigned sms;           /* 0 unknown */
    char sms_from[48];      /* "NVML cores / 128 per SM", "the API's compute units" */
    double max_sm_mhz;      /* 0 unknown */
    char peak_note[1024];   /* the derivation, printed once */
    int noted;              /* peak_note was handed out */
} gh_nvml_gpu;

/* The NVML device of `info` (NULL: with why in `why`: no NVML, no PCI
 * address, no NVIDIA device there). Thread-safe. */
gh_nvml_gpu *gh_nvml_gpu_for(const gh_device_info *info, const gh_nvml **nv, char *why, size_t why_size);

/* 1 the first time it is asked for a device's peak note (the pointer
 * gh_gpu_state.note holds), 0 after: the report prints it once per device,
 * whatever the tuner measured before. */
int gh_nvml_note_first(const char *note);

#endif
