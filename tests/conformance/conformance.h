/* Shared by the conformance suite's files: the plugin under test, and the
 * verdicts every group of checks uses. Each check's line starts with its
 * id (e.g. "gemm.beta0_nan"), the rule of plugin.h it checks. */
#ifndef GEMMHOST_CONFORMANCE_H
#define GEMMHOST_CONFORMANCE_H

#include <stdint.h>

#include "gemmhost/plugin.h"
#include "../check.h"

typedef struct conformance {
    const char *path; /* the plugin file */
    gh_entry_fn entry;
    const gh_plugin_api *api; /* the table, as negotiated at the host's minor */
    uint32_t minor;           /* the negotiated minor */
    int has_streams;          /* all six stream members, negotiated minor >= 1 */
    int has_host_alloc;       /* the host_alloc/host_free pair, minor >= 1 */
    int has_batch;            /* streams and gemm_batch_async, minor >= 6 and the table covers it */
    gh_plugin *ctx;           /* the context most checks use (no options) */
    int n_devices;
    int n_kernels;
} conformance;

const char *conf_status_name(gh_status s);

/* The plugin's last_error on this thread, never NULL here (a NULL is itself
 * reported by the errors checks). */
const char *conf_error(const conformance *c);

/* "GH_OK", or "GH_X: <last_error>" (one static buffer: one use per call). */
const char *conf_outcome(const conformance *c, gh_status s);

/* A refusal: `got` must be `want`, with a non-empty last_error. Prints
 * "ok: ID: WHAT -> WANT" or "FAIL: ID: WHAT: got GOT (last_error ...)".
 * Returns whether it passed. */
int conf_expect(const conformance *c, const char *id, gh_status got, gh_status want, const char *what);
/* Likewise with two acceptable statuses. */
int conf_expect2(const conformance *c, const char *id, gh_status got, gh_status want1, gh_status want2,
                 const char *what);

/* The host's own negotiation, without checks: fills api, minor, has_*.
 * Returns 0, or -1 when the plugin cannot be used (conf_check_entry says why). */
int conf_negotiate(conformance *c);

/* The groups of checks, in the order main runs them. */
void conf_check_entry(conformance *c); /* entry and function table; sets api, minor */
void conf_check_fresh_errors(const conformance *c);
void conf_check_options(const conformance *c);
void conf_check_static_info(const conformance *c); /* devices (count, info) and kernels */
void conf_check_thread_errors(const conformance *c);
void conf_check_no_device(const conformance *c); /* calls naming a device in a context with none */
void conf_check_buffers(const conformance *c, int device);
void conf_check_refusals(const conformance *c, int device);
void conf_check_results(const conformance *c, int device);
void conf_check_streams(const conformance *c, int device);
void conf_check_host_alloc(const conformance *c);
/* ABI 1.6 (batch.c): gemm_batch_async's result, timing and n = 0 refusal. */
void conf_check_batch(const conformance *c, int device);
/* ABI 1.5 (combos.c): each kernel's type combinations well-formed; then on a
 * device, every listed 8-bit combination exact on small integers, and the
 * refusals of explicit_types, scales and unlisted combinations. */
void conf_check_combos_info(const conformance *c);
void conf_check_combos(const conformance *c, int device);

#endif
