/* What the files of a split share: the state every member thread sees, one
 * member's thread (its lanes and buffers), and the steps the other files
 * call. Internal to core/run's split_*.c; the rest of the host sees split.h. */
#ifndef GEMMHOST_SPLIT_INTERNAL_H
#define GEMMHOST_SPLIT_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "numa.h"
#include "split.h"

/* The blocking path packs sub-matrices here: large enough that a copy takes
 * few calls, small beside the matrices. */
#define STAGING_MAX_BYTES ((uint64_t)64 << 20)
#define MAX_LANES         2
/* One task queues at most: A, a B panel and C0. */
#define MAX_TASK_UPLOADS  3

static inline int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

typedef struct shared {
    pthread_mutex_t lock;
    pthread_cond_t all_arrived;
    size_t n_workers, arrived;
    double t_start; /* when the last worker finished setting up */
    int64_t next_chunk, n_chunks;
    int64_t *home_next, *home_end; /* NUMA: per member, the chunks it takes first; NULL: one queue */
    pthread_cond_t b_changed;      /* a member's B became ready or unavailable, or a receiver is done */
    size_t b_receivers, b_done;    /* members that copy B from another, and those done with it */
    atomic_int aborted;            /* a member failed: nobody takes more work */
    gh_status status;              /* the first failure */
    char *error;
    size_t error_size;
} shared;

/* A stream (or, on the blocking path, none) and the buffers its tasks use. */
typedef struct lane {
    gh_stream *stream;    /* NULL on the blocking path */
    gh_buffer *a, *b, *c; /* b: this lane's B panel, only when B is streamed */
    int64_t a_chunk;      /* the chunk whose op(A) rows are in a; -1: none */
    uint64_t syncs;       /* synchronizations so far */
    /* Written by the device at the next synchronize. */
    double up_ms[MAX_TASK_UPLOADS];
    int n_up;
    const char *up_what[MAX_TASK_UPLOADS]; /* for the timeline */
    int64_t chunk;                         /* the task's chunk, for the timeline */
    double down_ms;
    int n_down;
    gh_gemm_timing timing;
    int n_gemm;
    gh_gemm_args args; /* the queued GEMM's arguments, kept as long as its timing */
} lane;

typedef struct worker {
    const gh_split_member *mb;
    const gh_split_problem *p;
    shared *sh;
    gh_split_member_stats *st; /* st->layout is this device's plan */
    int async;
    lane lanes[MAX_LANES];
    int n_lanes, next_lane;
    gh_buffer *b_whole;          /* resident B, stored layout, no padding */
    unsigned char *panel_loaded; /* per B panel: queued into b_whole */
    int *panel_lane;             /* the lane that queued it */
    uint64_t *panel_sync;        /* that lane's sync count when it did */
    int64_t panels_loaded;
    unsigned char *staging; /* blocking path: packing buffer */
    uint64_t staging_bytes;
    int staging_pinned; /* from the plugin's host_alloc */
    int failed;
    int started;
    double end_ms;
    pthread_t thread;
    size_t index;               /* in the members */
    struct worker *all;         /* every member's worker, for the peer copies of B */
    const gh_numa_place *place; /* where its thread goes; node -1: nowhere in particular */
    int b_source;               /* peer copies: the member it copies B from; -1: it uploads B itself */
    int b_tree;                 /* 1: B goes to it (or from it) in the peer tree */
    int b_state;                /* under sh->lock: 0 not yet, 1 B resident and complete, -1 never */
    int b_counted;              /* under sh->lock: counted in sh->b_done */
    void *registered[4];        /* host_register'ed matrices, to unregister after the product */
    int n_registered;
    int staging_registered; /* 1: staging is registered with the member's plugin */
    int tracing;            /* record events (gh_split_options.trace) */
    gh_split_event *events;
    size_t n_events, cap_events;
    int64_t chunk_now; /* the chunk being worked on, for events; -1: none */
} worker;

/* Rows of bytes on the host: a sub-matrix of one of the case's matrices. */
typedef struct host_block {
    unsigned char *host;
    uint64_t pitch;       /* bytes from one row to the next */
    uint64_t rows, width; /* width in bytes */
} host_block;

static inline unsigned char *element_at(const gh_matrix *m, int64_t i, int64_t j)
{
    return (unsigned char *)gh_matrix_data(m) + ((uint64_t)i * (uint64_t)m->ld + (uint64_t)j) * m->elem_size;
}

/* The member thread (split_member.c). */
void *gh_split_worker_main(void *arg);
/* Counts one worker in; the last one starts the clock and wakes the rest. */
void gh_split_arrive(shared *sh, int wait);
/* Records this member's failure (first one only) with the plugin's words. */
__attribute__((format(printf, 4, 5))) gh_status gh_split_fail(worker *w, gh_status status, int plugin_words,
                                                              const char *fmt, ...);
gh_status gh_split_lane_sync(worker *w, lane *l);
gh_status gh_split_load_whole_b(worker *w);

/* B once over the host link (split_peer.c). */
void gh_split_plan_b_copies(worker *w, size_t n, gh_split_b_copy mode, shared *sh);
gh_status gh_split_distribute_b(worker *w);
void gh_split_give_up_b(worker *w);
void gh_split_finish_b(worker *w);

/* The timeline's spans (split_trace.c): one on the member's host thread or
 * a lane (-1: the thread), from t0_ms for dur_ms. Does nothing without
 * tracing. */
void gh_split_trace(worker *w, int lane, const char *kind, const char *what, double t0_ms, double dur_ms, int64_t chunk,
                    int device_timed);
/* A lane's device-timed work, just synchronized at t_end_ms. */
void gh_split_trace_lane(worker *w, const lane *l, double t_end_ms);
/* Every member's events into the outcome (ownership moves). */
void gh_split_gather_events(worker *w, size_t n, gh_split_outcome *out);

/* Host memory registration (split_host.c): before the threads start and
 * after they end; each member's host_memory says how it reaches the
 * matrices. */
void gh_split_register_host(worker *w, size_t n);
void gh_split_unregister_host(worker *w, size_t n);
/* The blocking path's staging buffer likewise, from the member's own
 * thread, where no other member shares its context (under isolation, or
 * alone in its context); unregistered before it is freed. */
void gh_split_register_staging(worker *w);
void gh_split_unregister_staging(worker *w);

/* NUMA placement (split_numa.c). */
gh_numa_place *gh_split_plan_numa(worker *w, size_t n, gh_split_numa mode, shared *sh);
void gh_split_place_member(worker *w);

#endif
