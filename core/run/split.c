/* One GEMM over several devices: planning what each device holds
 * (split_plan.c), then one host thread per device (split_member.c) taking row
 * chunks from a shared queue, B sent once over the host link and on by peer
 * copies (split_peer.c), threads placed on their devices' NUMA nodes
 * (split_numa.c). This file runs the whole product: it checks the members,
 * starts the threads and gathers the outcome.
 *
 * A device runs a chunk as one or more tasks. A task uploads what its GEMM
 * needs that the device does not hold yet (the chunk's rows of op(A), a
 * panel of op(B), C0 when beta != 0), runs the GEMM and downloads its block
 * of C. With streams, tasks alternate between two lanes (a stream and its own
 * buffer set each), so one lane's uploads run while the other's GEMM does.
 * Streams run in order, so a lane's buffers are safe to reuse; the only data
 * shared between lanes is the resident B, and a GEMM that reads a panel of it
 * queued on the other lane first waits for that lane. */
#define _POSIX_C_SOURCE 200809L
#include "split.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_arith.h"
#include "split_internal.h"
#include "util.h"

/* ---- the whole product ----------------------------------------------------- */

/* Everything that can be known wrong before a thread starts: kernel dtypes
 * and each device's layout. */
static gh_status check_members(const gh_split_member *members, size_t n, int64_t panel, uint64_t mem_limit,
                               const gh_split_problem *p, gh_split_outcome *out)
{
    const gh_split_shape shape = {p->dtype, p->m, p->n, p->k, p->types};
    for (size_t i = 0; i < n; i++) {
        const gh_split_member *mb = &members[i];
        gh_split_member_stats *st = &out->members[i];
        st->streams = gh_split_member_has_streams(mb);
        const gh_case_types *t = &p->types;
        if (t->explicit_types && !gh_kernel_offers(mb->kernel_info, mb->abi_minor, t)) {
            snprintf(st->error, sizeof st->error,
                     "kernel %s of plugin %s lists no type combination A %s x B %s -> C %s", mb->kernel_info->name,
                     mb->api->name, gh_dtype_name(t->a), gh_dtype_name(t->b), gh_dtype_name(t->c));
            snprintf(out->error, sizeof out->error, "member %s/%d: %s", mb->backend, mb->device, st->error);
            return out->status = GH_UNSUPPORTED;
        }
        if (!t->explicit_types && !(mb->kernel_info->dtypes & GH_DTYPE_BIT(p->dtype))) {
            snprintf(st->error, sizeof st->error, "kernel %s of plugin %s has no %s", mb->kernel_info->name,
                     mb->api->name, gh_dtype_name(p->dtype));
            snprintf(out->error, sizeof out->error, "member %s/%d: %s", mb->backend, mb->device, st->error);
            return out->status = GH_UNSUPPORTED;
        }
        char why[512];
        uint64_t limit = gh_split_member_limit(mb, mem_limit);
        if (gh_split_plan_layout(&shape, panel, limit, st->streams ? 2 : 1, &st->layout, why, sizeof why) != 0) {
            memset(&st->layout, 0, sizeof st->layout);
            snprintf(st->error, sizeof st->error, "%s", why);
            snprintf(out->error, sizeof out->error, "member %s/%d: %s", mb->backend, mb->device, why);
            return out->status = GH_OUT_OF_MEMORY;
        }
    }
    return GH_OK;
}

/* The highest power of two <= n (n >= 1). */
gh_status gh_split_run(const gh_split_member *members, size_t n_members, const gh_split_options *opt,
                       const gh_split_problem *p, gh_split_outcome *out)
{
    const int64_t panel = opt->panel;
    const uint64_t mem_limit = opt->mem_limit;
    out->status = GH_OK;
    out->error[0] = '\0';
    out->wall_ms = 0;
    out->events = NULL;
    out->n_events = 0;
    memset(out->members, 0, n_members * sizeof *out->members);
    for (size_t i = 0; i < n_members; i++) out->members[i].numa_node = -1;
    if (n_members == 0) {
        snprintf(out->error, sizeof out->error, "a split needs at least one member");
        return out->status = GH_INVALID_ARGUMENT;
    }
    if (check_members(members, n_members, panel, mem_limit, p, out) != GH_OK) return out->status;

    shared sh = {.n_workers = n_members,
                 .n_chunks = out->members[0].layout.n_chunks,
                 .status = GH_OK,
                 .error = out->error,
                 .error_size = sizeof out->error};
    pthread_mutex_init(&sh.lock, NULL);
    pthread_cond_init(&sh.all_arrived, NULL);
    pthread_cond_init(&sh.b_changed, NULL);
    atomic_init(&sh.aborted, 0);
    worker *workers = gh_xcalloc(n_members, sizeof *workers);
    for (size_t i = 0; i < n_members; i++) {
        workers[i] = (worker){.mb = &members[i], .p = p, .sh = &sh, .st = &out->members[i], .index = i, .all = workers};
        workers[i].async = workers[i].st->streams;
        workers[i].tracing = opt->trace;
        workers[i].chunk_now = -1;
    }
    gh_numa_place *places = gh_split_plan_numa(workers, n_members, opt->numa, &sh);
    gh_split_plan_b_copies(workers, n_members, opt->b_copy, &sh);
    gh_split_register_host(workers, n_members);
    for (size_t i = 0; i < n_members; i++) {
        worker *w = &workers[i];
        w->started = pthread_create(&w->thread, NULL, gh_split_worker_main, w) == 0;
        if (!w->started) {
            gh_split_fail(w, GH_ERROR, 0, "could not start its host thread");
            gh_split_give_up_b(w);
            gh_split_arrive(&sh, 0);
        }
    }
    double end = 0;
    for (size_t i = 0; i < n_members; i++) {
        if (!workers[i].started) continue;
        pthread_join(workers[i].thread, NULL);
        if (workers[i].end_ms > end) end = workers[i].end_ms;
    }
    gh_split_unregister_host(workers, n_members);
    gh_split_gather_events(workers, n_members, out);
    out->wall_ms = end > sh.t_start ? end - sh.t_start : 0;
    out->status = sh.status;
    free(workers);
    free(places);
    free(sh.home_next);
    free(sh.home_end);
    pthread_cond_destroy(&sh.b_changed);
    pthread_cond_destroy(&sh.all_arrived);
    pthread_mutex_destroy(&sh.lock);
    return out->status;
}
