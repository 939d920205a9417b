/* Running one probe case through a plugin, the way a run calls it: under
 * isolation the api is the proxy's, so a crash or a hang ends in a fate
 * (the worker is restarted on the next call) and becomes the outcome. */
#ifndef GEMMHOST_PROBE_EXEC_H
#define GEMMHOST_PROBE_EXEC_H

#include <stddef.h>
#include <stdint.h>
#include "gemmhost/plugin.h"
#include "probe_case.h"

/* One kernel variant on one device. */
typedef struct probe_target {
    const gh_plugin_api *api;
    gh_plugin *ctx;
    int device, kernel;
    const int64_t *params;
    size_t n_params;
} probe_target;

typedef enum probe_outcome_kind {
    PROBE_RAN = 0,
    PROBE_UNSUPPORTED, /* the kernel refused the case (GH_UNSUPPORTED) */
    PROBE_ERROR,       /* any other refusal or failure */
    PROBE_CRASHED,     /* the worker died during the case */
    PROBE_TIMEOUT      /* the worker passed its time limit */
} probe_outcome_kind;

typedef struct probe_outcome {
    probe_outcome_kind kind;
    char detail[2048]; /* why, when not PROBE_RAN */
    double *c;         /* m x n, row-major, as read back (PROBE_RAN only) */
} probe_outcome;

/* Runs c on t: A and B uploaded, C = A B (alpha 1, beta 0), C read back.
 * kmajor: B stored transposed (nt) and M, N, K padded with zeros to
 * multiples of 16, for kernels that take only that (wgmma's FP8, cuBLASLt's
 * 8-bit GEMMs); C is read back at the case's m x n either way. */
void probe_exec(const probe_target *t, const probe_case *c, int kmajor, probe_outcome *out);
void probe_outcome_free(probe_outcome *out);
const char *probe_outcome_name(probe_outcome_kind k);

#endif
