/* One GEMM over several devices, through the plugin ABI only.
 *
 * Rows of op(A) and C are cut into chunks of `panel` rows; the member devices
 * (one host thread each) take chunks from a shared queue, so a faster device
 * does more. For its chunk a device computes every column of C, with op(B)
 * either resident (uploaded once, when it fits in the device's memory limit)
 * or streamed through in column panels of `panel` columns. Panels need not
 * divide the sizes.
 *
 * A plugin that offers the ABI minor-1 stream functions gets two streams and
 * two buffer sets, so the uploads for the next task overlap the current
 * GEMM; any other plugin is driven through the blocking calls, with
 * sub-matrices packed on the host into a staging buffer.
 *
 * Knows nothing of configs or reports: core/plan builds the members, core/run
 * turns the outcome into a result. */
#ifndef GEMMHOST_SPLIT_H
#define GEMMHOST_SPLIT_H

#include <stddef.h>
#include <stdint.h>
#include "gemmhost/plugin.h"
#include "config.h"
#include "data.h"

/* One device of one backend instance, and the kernel it runs. Pointers are
 * borrowed: they must outlive every call that is given the member. */
typedef struct gh_split_member {
    const char *backend; /* the [backend] section, for messages */
    const gh_plugin_api *api;
    uint32_t abi_minor; /* negotiated with the plugin */
    gh_plugin *ctx;
    int device;
    int kernel;
    const gh_kernel_info *kernel_info;
    const int64_t *params;    /* kernel_info->n_params values */
    const char *params_label; /* "tile=16", or "" */
    int isolated;             /* 1: ctx is a worker process of its own (isolation): no peer copies */
} gh_split_member;

/* 1 when the member's plugin offers every minor-1 stream function. */
int gh_split_member_has_streams(const gh_split_member *mb);
/* 1 when it offers copy_peer (ABI minor 3). */
int gh_split_member_has_copy_peer(const gh_split_member *mb);
/* 1 when it offers host_alloc and host_free. */
int gh_split_member_has_host_alloc(const gh_split_member *mb);
/* A host allocator using the member's host_alloc (pinned memory). The member
 * must outlive every matrix allocated with it. Returns 0, or -1 when the
 * plugin has no host_alloc. */
int gh_split_host_allocator(const gh_split_member *mb, gh_host_allocator *out);
/* The device memory the member may use: mem_limit when not 0, else 90% of
 * what the device reports, else no limit (UINT64_MAX). */
uint64_t gh_split_member_limit(const gh_split_member *mb, uint64_t mem_limit);

/* ---- planning: what a device holds ---- */

typedef struct gh_split_shape {
    gh_dtype dtype;
    int64_t m, n, k;
    gh_case_types types; /* an 8-bit case's (explicit_types): B and C in their own element sizes */
} gh_split_shape;

typedef struct gh_split_layout {
    int64_t chunk_rows;    /* rows of op(A) and C per chunk: panel, or M when smaller */
    int64_t panel_cols;    /* columns of op(B) and C per panel: panel, or N when smaller */
    int64_t n_chunks;      /* ceil(M / chunk_rows) */
    int64_t n_panels;      /* ceil(N / panel_cols) */
    int b_resident;        /* 1: the whole of B stays on the device, uploaded once */
    int full_width;        /* 1: once B is resident, one GEMM per chunk over all N */
    int depth;             /* buffer sets: 2 overlaps transfers with the GEMM, 1 does not */
    uint64_t a_bytes;      /* one chunk of op(A) */
    uint64_t b_bytes;      /* the whole of B (resident), or one panel (streamed) */
    uint64_t c_bytes;      /* one chunk of C (full width) or one tile */
    uint64_t device_bytes; /* everything the device allocates: <= the limit */
} gh_split_layout;

/* Picks the layout for one device: B resident when it fits, then double
 * buffering (max_depth 2) before single, full-width C before tiles; B
 * streamed in panels only when resident B does not fit. limit: bytes
 * (UINT64_MAX for none). Returns 0, or -1 when not even one chunk, one B
 * panel and one C tile fit: err then gives the sizes and the largest panel
 * that would fit. */
int gh_split_plan_layout(const gh_split_shape *shape, int64_t panel, uint64_t limit, int max_depth,
                         gh_split_layout *out, char *err, size_t err_size);
/* "1.50 GiB", "488 B": for messages. */
void gh_split_format_bytes(uint64_t bytes, char *buf, size_t size);
/* "B resident, full-width C, 2 buffer sets, 16 chunks of 2048 rows, 5.00 GiB on the device". */
void gh_split_layout_describe(const gh_split_layout *lay, char *buf, size_t size);

/* ---- running ---- */

typedef struct gh_split_problem {
    gh_dtype dtype;
    int trans_a, trans_b;
    int64_t m, n, k;
    double alpha, beta;
    const gh_matrix *a, *b; /* as the case holds them (guards, ld) */
    const gh_matrix *c0;    /* read when beta != 0 */
    gh_matrix *c;           /* M x N: only its matrix area is written */
    gh_case_types types;    /* an 8-bit case's B and C types and scales (explicit_types); else zero */
} gh_split_problem;

/* How the members' host threads and memory are placed (NUMA). */
typedef enum gh_split_numa {
    GH_SPLIT_NUMA_AUTO = 0, /* where a member's device has a known node: its thread on that node's CPUs, its
                               home chunks' rows of A and C moved there (core/numa) */
    GH_SPLIT_NUMA_OFF = 1   /* threads and memory where the system puts them */
} gh_split_numa;

/* How a resident B reaches each member. */
typedef enum gh_split_b_copy {
    GH_SPLIT_B_AUTO = 0, /* peer where the plugin offers copy_peer and it works, else host */
    GH_SPLIT_B_HOST = 1, /* every member uploads its own B from host memory */
    GH_SPLIT_B_PEER = 2  /* as auto, and each member that cannot says why in its b_path */
} gh_split_b_copy;

typedef struct gh_split_options {
    int64_t panel;      /* rows of op(A) and C per chunk, columns of op(B) per panel */
    uint64_t mem_limit; /* per device; 0: 90% of what it reports */
    gh_split_numa numa;
    gh_split_b_copy b_copy;
    int trace; /* 1: record each member's transfers, GEMMs and waits in the outcome's events */
} gh_split_options;

/* One span of a member's time (gh_split_options.trace), by the host clock
 * (gh_now_ms). On the blocking path and for waits, the host saw the span.
 * Work queued on a stream is timed by the device and reported at the
 * synchronize: its span is drawn ending when that synchronize returned, in
 * stream order, so it is the latest the work can have run. */
typedef struct gh_split_event {
    size_t member;    /* index in the members */
    int lane;         /* the stream (0, 1), or -1: the member's host thread */
    const char *kind; /* "upload", "gemm", "download" or "wait" */
    const char *what; /* "rows of A", "a panel of B", "B", "C0", "C", "stream 0", "the chunk queue", ... */
    double t0_ms, dur_ms;
    int64_t chunk;    /* the chunk it belongs to, -1: none */
    int device_timed; /* 1: dur_ms is the device's, placed as above */
} gh_split_event;

typedef struct gh_split_member_stats {
    gh_split_layout layout;
    int64_t chunks;                /* row chunks taken from the queue */
    int64_t gemms;                 /* GEMM calls (a chunk is one, or one per panel) */
    double compute_ms;             /* kernel time, by the device's clock */
    double upload_ms, download_ms; /* device clock on streams; host clock (packing included) when blocking */
    double wait_ms;                /* blocked on stream_synchronize or on the queue */
    uint64_t bytes_up, bytes_down;
    int streams;           /* 1: minor-1 streams, 0: blocking calls */
    int numa_node;         /* the node its host thread ran on; -1: none (numa_note says why) */
    char numa_note[384];   /* "thread on node 1 (16 CPUs); A and C of its 8 home chunks on node 1", or why not */
    int b_peer;            /* 1: its resident B came from another member by copy_peer */
    char b_path[512];      /* "host", "peer from gpu0/0", "host: copy_peer refused: ..." */
    char host_memory[384]; /* "pinned (cuMemHostRegister)", "imported (...)", "pageable: why" */
    char error[512];       /* why this member failed; "" when it did not */
} gh_split_member_stats;

typedef struct gh_split_outcome {
    gh_status status;               /* GH_OK, or the first failure's status */
    char error[768];                /* the first failure: member, what, the plugin's words */
    double wall_ms;                 /* first upload to last download, every member */
    gh_split_member_stats *members; /* n entries, given by the caller */
    gh_split_event *events;         /* with trace: n_events spans, in no order; the caller frees it */
    size_t n_events;
} gh_split_outcome;

/* Computes p->c = alpha op(A) op(B) + beta C0 over the members. Returns the
 * outcome's status. A member that fails stops every member from taking more
 * chunks; all of them drain their queued work and free what they allocated
 * before this returns.
 *
 * With NUMA placement, the chunks are first dealt out in contiguous home
 * ranges, one per member; a member takes its own first, then the last ones
 * of the member with the most left, so a faster device still does more.
 * With peer copies, the members of one plugin context that keep B resident
 * get it in a binary tree: the first uploads it from the host, then each
 * member that has it copies it to the next (1 -> 2, then 2 -> 4, ...). */
gh_status gh_split_run(const gh_split_member *members, size_t n_members, const gh_split_options *opt,
                       const gh_split_problem *p, gh_split_outcome *out);

#endif
