/* B over the host link once: which member copies B from which (a doubling
 * tree inside one plugin context), and each member's wait for and copy of
 * its source's B by copy_peer, falling back to the host when refused. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include "split_internal.h"
#include "util.h"

/* ---- B once over the host link: peer copies --------------------------------- */

static void set_b_state(worker *w, int state)
{
    pthread_mutex_lock(&w->sh->lock);
    if (w->b_state == 0) w->b_state = state;
    pthread_cond_broadcast(&w->sh->b_changed);
    pthread_mutex_unlock(&w->sh->lock);
}

/* A receiver is done with its source's B (copied, refused or never had it). */
static void b_received(worker *w)
{
    pthread_mutex_lock(&w->sh->lock);
    if (!w->b_counted) {
        w->b_counted = 1;
        w->sh->b_done++;
        pthread_cond_broadcast(&w->sh->b_changed);
    }
    pthread_mutex_unlock(&w->sh->lock);
}

/* B resident and whole before the first chunk: from its source member by
 * copy_peer, or from the host (the tree's root, or when the copy is refused
 * or the source has no B). */
gh_status gh_split_distribute_b(worker *w)
{
    const gh_split_member *mb = w->mb;
    if (w->b_source >= 0) {
        worker *src = &w->all[w->b_source];
        double t0 = gh_now_ms();
        pthread_mutex_lock(&w->sh->lock);
        while (src->b_state == 0) pthread_cond_wait(&w->sh->b_changed, &w->sh->lock);
        int state = src->b_state;
        pthread_mutex_unlock(&w->sh->lock);
        w->st->wait_ms += gh_now_ms() - t0;
        if (state == 1) {
            t0 = gh_now_ms();
            gh_status s = mb->api->copy_peer(mb->ctx, src->b_whole, 0, w->b_whole, 0, w->st->layout.b_bytes);
            double ms = gh_now_ms() - t0;
            b_received(w);
            if (s == GH_OK) {
                char size[32];
                gh_split_format_bytes(w->st->layout.b_bytes, size, sizeof size);
                snprintf(w->st->b_path, sizeof w->st->b_path, "peer from %s/%d (%s in %.3f ms, %.1f GB/s)",
                         src->mb->backend, src->mb->device, size, ms,
                         ms > 0 ? (double)w->st->layout.b_bytes / ms / 1e6 : 0.0);
                w->st->b_peer = 1;
                for (int64_t j = 0; j < w->st->layout.n_panels; j++) w->panel_loaded[j] = 1;
                w->panels_loaded = w->st->layout.n_panels;
                set_b_state(w, 1);
                return GH_OK;
            }
            if (s != GH_UNSUPPORTED)
                return gh_split_fail(w, s, 1, "copying B from member %s/%d (copy_peer)", src->mb->backend,
                                     src->mb->device);
            const char *words = mb->api->last_error(mb->ctx);
            snprintf(w->st->b_path, sizeof w->st->b_path, "host: copy_peer from %s/%d refused: %s", src->mb->backend,
                     src->mb->device, *words ? words : "(the plugin gave no reason)");
        } else {
            b_received(w);
            snprintf(w->st->b_path, sizeof w->st->b_path, "host: member %s/%d, its source, has no B to copy",
                     src->mb->backend, src->mb->device);
        }
    }
    if (gh_split_load_whole_b(w) != GH_OK || (w->async && gh_split_lane_sync(w, &w->lanes[0]) != GH_OK))
        return GH_ERROR;
    set_b_state(w, 1);
    return GH_OK;
}

/* Before its buffers go: a member that never had B says so, and every
 * receiver has finished with the B it copies from. */
void gh_split_give_up_b(worker *w)
{
    if (!w->b_tree) return;
    set_b_state(w, -1);
    if (w->b_source >= 0) b_received(w);
}

void gh_split_finish_b(worker *w)
{
    if (!w->b_tree) return;
    gh_split_give_up_b(w);
    pthread_mutex_lock(&w->sh->lock);
    while (w->sh->b_done < w->sh->b_receivers) pthread_cond_wait(&w->sh->b_changed, &w->sh->lock);
    pthread_mutex_unlock(&w->sh->lock);
}

static size_t high_bit(size_t n)
{
    size_t h = 1;
    while (h <= n / 2) h *= 2;
    return h;
}

/* Which member gets B from which. Members of one plugin context that keep
 * B resident and offer copy_peer form a group; in it, the k-th (k >= 1)
 * copies from the (k - high_bit(k))-th, so B crosses the host link once and
 * the copies double each round. Everyone else uploads B, and says why. */
void gh_split_plan_b_copies(worker *w, size_t n, gh_split_b_copy mode, shared *sh)
{
    size_t *pos = gh_xcalloc(n, sizeof *pos), *root = gh_xcalloc(n, sizeof *root);
    for (size_t i = 0; i < n; i++) {
        const gh_split_member *mb = w[i].mb;
        gh_split_member_stats *st = w[i].st;
        w[i].b_source = -1;
        root[i] = i;
        if (!st->layout.b_resident) {
            snprintf(st->b_path, sizeof st->b_path, "host: B streams through in panels");
            continue;
        }
        if (mode == GH_SPLIT_B_HOST) {
            snprintf(st->b_path, sizeof st->b_path, "host (b_copy = host)");
            continue;
        }
        if (mb->isolated) {
            snprintf(st->b_path, sizeof st->b_path,
                     "host: each member runs in a worker process of its own (isolation): peer copies need "
                     "isolation = none");
            continue;
        }
        if (!gh_split_member_has_copy_peer(mb)) {
            snprintf(st->b_path, sizeof st->b_path, "host: plugin %s has no copy_peer (ABI minor 3)", mb->api->name);
            continue;
        }
        snprintf(st->b_path, sizeof st->b_path, "host");
        for (size_t j = 0; j < i; j++) {
            if (w[j].mb->api != mb->api || !w[j].st->layout.b_resident || !gh_split_member_has_copy_peer(w[j].mb))
                continue;
            if (w[j].mb->ctx != mb->ctx) {
                snprintf(st->b_path, sizeof st->b_path,
                         "host: its [backend] is not that of member %s/%d (peer copies are between devices of one "
                         "plugin context: list them in one [backend])",
                         w[j].mb->backend, w[j].mb->device);
                continue;
            }
            root[i] = root[j];
            for (size_t q = 0; q < i; q++) pos[i] += root[q] == root[i];
            snprintf(st->b_path, sizeof st->b_path, "host");
            break;
        }
        if (pos[i] == 0) continue;
        size_t want = pos[i] - high_bit(pos[i]);
        for (size_t q = 0; q < i; q++)
            if (root[q] == root[i] && pos[q] == want) w[i].b_source = (int)q;
        w[i].b_tree = w[w[i].b_source].b_tree = 1;
        sh->b_receivers++;
    }
    for (size_t i = 0; i < n; i++)
        if (w[i].b_tree && w[i].b_source < 0)
            snprintf(w[i].st->b_path, sizeof w[i].st->b_path, "host, then on to the others by copy_peer");
    free(pos);
    free(root);
}