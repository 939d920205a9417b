/* The GPU's state while one result was timed (NVML): clocks, temperature,
 * power, energy, the clock-event (throttle) reasons seen, whether it
 * throttled, and the result against the device's theoretical peak. Part of
 * gh_result; filled by gpu_sampler.h, written by report/record_fields.c. */
#ifndef GEMMHOST_GPU_STATE_H
#define GEMMHOST_GPU_STATE_H

typedef struct gh_gpu_state {
    /* "sampled", or why there are no samples ("NVML not available: ...",
     * "no PCI address: ...", "NVML nvmlDeviceGetClockInfo: ..."); "" when the
     * result never reached its timed repetitions */
    char state[256];
    int samples; /* timed repetitions sampled; 0: the numbers below are unknown */
    double sm_clock_mhz_min, sm_clock_mhz_median;
    double mem_clock_mhz_min, mem_clock_mhz_median;
    double sm_clock_mhz_max;         /* the device's max SM clock (NVML); 0 unknown */
    double temperature_c_max;        /* hottest sample; < 0 unknown */
    double power_w_median;           /* < 0 unknown */
    double energy_j;                 /* the timed repetitions' energy; < 0 unknown */
    double gflop_per_j;              /* 2MNK x repetitions / energy; < 0 unknown */
    char energy_why[160];            /* "" when energy_j is known; else why it is not */
    unsigned long long clock_events; /* every NVML clock-event reason seen, OR-ed */
    char clock_events_text[160];     /* their names: "sw_power_cap hw_thermal_slowdown"; "" none */
    int throttled;                   /* 1: power or thermal reasons, or SM clock under the fraction */
    char throttle_reason[256];       /* why, in words; "" when not throttled */
    /* the device's dense theoretical peak for this result's arithmetic */
    double peak_gflops;  /* 0 unknown */
    char peak_unit[16];  /* "tensor", "simt", "" */
    char peak_why[160];  /* "" when known; else why it is unknown */
    double peak_percent; /* 100 x gflops / peak_gflops; < 0 unknown */
    const char *note;    /* the device's peak derivation (gh_nvml_note_first says when to print it); NULL none */
} gh_gpu_state;

#endif
