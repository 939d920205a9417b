/* The split's timeline (gh_split_options.trace): each member's spans kept
 * in its own array (no lock: one thread per member), gathered after the
 * threads end. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "split_internal.h"
#include "util.h"

void gh_split_trace(worker *w, int lane, const char *kind, const char *what, double t0_ms, double dur_ms, int64_t chunk,
                    int device_timed)
{
    if (!w->tracing) return;
    if (w->n_events == w->cap_events) {
        w->cap_events = w->cap_events ? 2 * w->cap_events : 64;
        w->events = gh_xrealloc(w->events, w->cap_events * sizeof *w->events);
    }
    w->events[w->n_events++] =
        (gh_split_event){w->index, lane, kind, what, t0_ms, dur_ms > 0 ? dur_ms : 0, chunk, device_timed};
}

void gh_split_trace_lane(worker *w, const lane *l, double t_end_ms)
{
    if (!w->tracing) return;
    const int self = (int)(l - w->lanes);
    /* Stream order is uploads, GEMM, download: laid out backwards from the end. */
    double t = t_end_ms;
    if (l->n_down) {
        t -= l->down_ms;
        gh_split_trace(w, self, "download", "C", t, l->down_ms, l->chunk, 1);
    }
    if (l->n_gemm) {
        t -= l->timing.kernel_ms;
        gh_split_trace(w, self, "gemm", "", t, l->timing.kernel_ms, l->chunk, 1);
    }
    for (int i = l->n_up - 1; i >= 0; i--) {
        t -= l->up_ms[i];
        gh_split_trace(w, self, "upload", l->up_what[i] ? l->up_what[i] : "", t, l->up_ms[i], l->chunk, 1);
    }
}

void gh_split_gather_events(worker *w, size_t n, gh_split_outcome *out)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++) total += w[i].n_events;
    out->events = total ? gh_xcalloc(total, sizeof *out->events) : NULL;
    out->n_events = 0;
    for (size_t i = 0; i < n; i++) {
        if (w[i].n_events) memcpy(out->events + out->n_events, w[i].events, w[i].n_events * sizeof *w[i].events);
        out->n_events += w[i].n_events;
        free(w[i].events);
        w[i].events = NULL;
        w[i].n_events = w[i].cap_events = 0;
    }
}
