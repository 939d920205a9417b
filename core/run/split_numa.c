/* NUMA placement of a split: where each member's thread goes, the chunks
 * dealt out in home ranges, and each member's thread pinned and its home
 * rows of A and C moved to its device's node. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>

#include "split_internal.h"
#include "util.h"

/* ---- NUMA placement --------------------------------------------------------- */

/* Rows row0..row1 of a matrix stored by rows: their bytes, from row0's first. */
static void move_rows(const gh_matrix *m, int64_t row0, int64_t row1, int node, int *moved, char *why, size_t size)
{
    size_t bytes = (size_t)(row1 - row0) * (size_t)m->ld * m->elem_size;
    if (*moved && gh_numa_move(element_at(m, row0, 0), bytes, node, why, size) != 0) *moved = 0;
}

/* Its thread on its device's node's CPUs, then the rows of A (when stored by
 * rows) and C of its home chunks moved to that node. Before the clock. */
void gh_split_place_member(worker *w)
{
    gh_split_member_stats *st = w->st;
    char why[256];
    st->numa_node = -1;
    if (!w->place) {
        snprintf(st->numa_note, sizeof st->numa_note, "not placed: numa = off");
        return;
    }
    if (w->place->node < 0) {
        snprintf(st->numa_note, sizeof st->numa_note, "not placed: %s", w->place->why);
        return;
    }
    if (gh_numa_pin_thread(&w->place->cpus, why, sizeof why) != 0) {
        snprintf(st->numa_note, sizeof st->numa_note, "not placed: node %d, but %s", w->place->node, why);
        return;
    }
    st->numa_node = w->place->node;
    int n = snprintf(st->numa_note, sizeof st->numa_note, "thread on node %d (%d CPU%s)", w->place->node,
                     w->place->n_cpus, w->place->n_cpus == 1 ? "" : "s");
    char *rest = st->numa_note + n;
    size_t rest_size = sizeof st->numa_note - (size_t)n;
    const int64_t c0 = w->sh->home_next[w->index], c1 = w->sh->home_end[w->index], rows = st->layout.chunk_rows;
    if (c1 <= c0) {
        snprintf(rest, rest_size, "; no home chunk");
        return;
    }
    const int64_t r0 = c0 * rows, r1 = min64(c1 * rows, w->p->m);
    int moved = 1;
    move_rows(w->p->c, r0, r1, w->place->node, &moved, why, sizeof why);
    if (!w->p->trans_a) move_rows(w->p->a, r0, r1, w->place->node, &moved, why, sizeof why);
    const char *what = w->p->trans_a ? "C" : "A and C";
    if (!moved) {
        snprintf(rest, rest_size, "; %s of its %lld home chunks not moved: %s", what, (long long)(c1 - c0), why);
        return;
    }
    int at = gh_numa_node_of(element_at(w->p->c, r0, 0), why, sizeof why);
    if (at < 0)
        snprintf(rest, rest_size, "; %s of its %lld home chunks moved, where to unknown: %s", what,
                 (long long)(c1 - c0), why);
    else
        snprintf(rest, rest_size, "; %s of its %lld home chunks on node %d%s", what, (long long)(c1 - c0), at,
                 at == w->place->node ? "" : " (the kernel did not move them: page-locked memory stays)");
}

/* NUMA: where each member's thread goes, and the chunks dealt out in home
 * ranges when any member has a node. */
gh_numa_place *gh_split_plan_numa(worker *w, size_t n, gh_split_numa mode, shared *sh)
{
    if (mode == GH_SPLIT_NUMA_OFF) return NULL;
    gh_numa_place *places = gh_xcalloc(n, sizeof *places);
    const char *root = gh_numa_sysfs_root();
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        gh_numa_place_device(root, w[i].mb->api->device_info(w[i].mb->ctx, w[i].mb->device), &places[i]);
        w[i].place = &places[i];
        any |= places[i].node >= 0;
    }
    if (any) {
        sh->home_next = gh_xcalloc(n, sizeof *sh->home_next);
        sh->home_end = gh_xcalloc(n, sizeof *sh->home_end);
        for (size_t i = 0; i < n; i++) {
            sh->home_next[i] = sh->n_chunks * (int64_t)i / (int64_t)n;
            sh->home_end[i] = sh->n_chunks * (int64_t)(i + 1) / (int64_t)n;
        }
    }
    return places;
}
