/* A worker process as the host sees it: started from this same binary in
 * worker mode, called with a deadline (the watchdog), its stderr kept (the
 * last few KiB) and passed through line by line with a prefix, and when it
 * dies or overruns, its fate in words. Used by core/proxy only. */
#ifndef GEMMHOST_PROXY_PROC_H
#define GEMMHOST_PROXY_PROC_H

#include <stddef.h>
#include "shm.h"
#include "wire.h"

typedef enum gh_fate_kind {
    GH_FATE_NONE = 0,
    GH_FATE_CRASHED, /* died mid-call: a signal, or any exit (exit(0) included) */
    GH_FATE_TIMEOUT  /* no answer within the call's limit: stopped */
} gh_fate_kind;

typedef struct gh_fate {
    gh_fate_kind kind;
    char what[640];  /* "worker killed by SIGSEGV (Segmentation fault) during gemm (device 0, ...)" */
    char tail[1280]; /* what the worker's stderr ended with, from its crash report where it printed one */
} gh_fate;

typedef struct gh_worker gh_worker;

/* Starts a worker; `label` prefixes its stderr lines ("[label] ..."). NULL
 * with err when it cannot be started. */
gh_worker *gh_worker_start(const char *label, char *err, size_t err_size);
void gh_worker_set_label(gh_worker *w, const char *label);

/* Makes the segment at `place` visible to the worker (read-only unless
 * writable), sending its descriptor the first time. 0, or -1 when the
 * worker is gone (the call that follows finds out). */
int gh_worker_share(gh_worker *w, const gh_shm_place *place, int writable);

/* Sends request q and waits for the reply into r, for at most timeout_s
 * seconds (<= 0: no limit). `call` describes the call for the fate
 * ("gemm (device 0, kernel naive, 64x64x64 f32)"). Returns 0 with the
 * reply, or -1 when the worker died or overran: it is then stopped and
 * reaped, and *fate says what happened; the caller frees w with
 * gh_worker_stop. */
int gh_worker_call(gh_worker *w, const gh_wire *q, gh_wire *r, double timeout_s, const char *call, gh_fate *fate);

/* Closes the socket (the worker exits by itself), waits grace_s seconds,
 * then SIGKILL; reaps, keeps what it printed, frees. NULL does nothing. */
void gh_worker_stop(gh_worker *w, double grace_s);

/* SIGKILL to every live worker; async-signal-safe (for a cancel handler). */
void gh_workers_kill_all(void);

#endif
