/* One measured result: what ran, whether it was right, how fast. */
#ifndef GEMMHOST_RESULT_H
#define GEMMHOST_RESULT_H

#include <stdint.h>
#include "gemmhost/plugin.h"
#include "config.h"
#include "fingerprint.h"
#include "verify.h"
#include "gpu_state.h"

typedef enum gh_result_status {
    GH_RESULT_PASS = 0,
    GH_RESULT_FAIL,        /* ran, but wrong (verification, guards or nondeterminism) */
    GH_RESULT_UNSUPPORTED, /* the backend declined this case, with a reason */
    GH_RESULT_ERROR,       /* the backend failed (allocation, launch, driver) */
    GH_RESULT_UNCHECKED,   /* ran with verify = none: guards and repeats checked, values not */
    GH_RESULT_CRASHED,     /* its worker died mid-call (a signal or any exit): detail says how, and where */
    GH_RESULT_TIMEOUT,     /* a call passed its time limit: the worker was stopped */
    GH_RESULT_CANCELLED    /* stopped by SIGINT/SIGTERM before it finished (cancel.h); --resume runs it again */
} gh_result_status;

const char *gh_result_status_name(gh_result_status s);
/* Whether the kernel ran to the end, so an output exists (pass, FAIL, unchecked). */
int gh_result_status_ran(
    gh_result_status s); /* "pass", "FAIL", "unsupported", "ERROR", "unchecked", "crashed", "timeout", "cancelled" */

typedef struct gh_result {
    int case_index; /* same index = same inputs */
    /* what ran */
    const char *backend; /* config section name */
    const char *plugin;  /* plugin name */
    const char *plugin_path;
    int device_index; /* -1 for a split group */
    const char *device_name;
    const gh_device_info *device; /* NULL for a split group */
    const char *kernel;
    char params[128];      /* "tile=16", or "" */
    char params_used[128]; /* the values that ran: params with each `auto` resolved (core/tune_auto) */
    char params_note[256]; /* where `auto` values came from ("from the tune cache ..."); "" without auto */
    gh_dtype dtype;        /* A's type, the case's */
    gh_case_types types;   /* A's, B's and C's types and the scales (B and C differ only for 8-bit dtypes) */
    gh_arith arith;        /* what the kernel declared it computes in: its bound */
    char arithmetic[64];   /* in words: "f32 accumulate", "tf32 inputs, f32 accumulate" */
    int arith_declared;    /* 1: the kernel declared other than the dtype's default */
    int trans_a, trans_b;
    int64_t m, n, k;
    double alpha, beta;
    /* outcome */
    gh_result_status status;
    char detail[2048];         /* why it failed, was unsupported or errored; "" on pass (a worker's stderr tail too) */
    const char *verify_method; /* "full", "freivalds+sample", "none" */
    gh_verify_result verify;
    int deterministic; /* 1: every repeat's output had the same hash */
    uint64_t output_hash;
    gh_fingerprint fingerprint; /* the output at seed-chosen positions (fingerprint.h) */
    /* timing: kernel by the device clock (or host, see clock), transfers by host */
    int repeats; /* timed runs */
    double kernel_ms_median, kernel_ms_min, kernel_ms_max;
    gh_clock clock;
    double upload_ms, download_ms;
    double gflops;    /* 2MNK / median */
    gh_gpu_state gpu; /* the GPU's state while timed (NVML), and the result against the device's peak */
    /* how it was measured (core/run: cache_flush, repeat_policy, batch) */
    int cache_cold;       /* 1: cache = cold, the last-level cache flushed before each run */
    uint64_t flush_bytes; /* what each flush wrote; 0 when warm */
    int repeat_auto;      /* 1: repeat = auto chose how many runs */
    double spread;        /* relative IQR (Q3 - Q1) / median of the timed runs' times */
    double target_spread; /* repeat = auto's target; 0 for repeat = N */
    int spread_reached;   /* repeat = auto: 1 when spread <= target_spread */
    int batch;            /* launches per timed run, timed together and divided; 0 or 1: one */
    char batch_note[160]; /* why a small kernel, or batch = N, ran unbatched; "" otherwise */
} gh_result;

/* Per case: results grouped by equal output hash. */
typedef struct gh_agreement_group {
    uint64_t hash;
    const char **members; /* labels "backend/device/kernel[ params]" */
    size_t n_members;
} gh_agreement_group;

typedef struct gh_agreement {
    int case_index;
    gh_dtype dtype;
    int trans_a, trans_b;
    int64_t m, n, k;
    gh_agreement_group *groups;
    size_t n_groups;
    double max_diff_in_bounds; /* largest difference between groups / bound; 0 for one group */
    size_t worst[2]; /* the two groups that differ by it; equal when unknown (one group, or read back by --resume) */
} gh_agreement;

/* The case's types for the table and the first screen: "f32", or for an
 * 8-bit case "e4m3->f32", "e4m3 x e5m2->f16", with " scales 0.5,4,1" when
 * a scale is not 1. Returns buf. */
const char *gh_result_types_label(const gh_result *r, char *buf, size_t size);

#endif
