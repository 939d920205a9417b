/* How each member reaches the host matrices (ABI minor 4): memory from its
 * own plugin's host_alloc is pinned already; other memory (shared memory
 * under isolation, malloc'ed memory) is registered with the member's plugin
 * before the clock starts (pinned by CUDA, imported by Vulkan) and
 * unregistered after the product. A member that cannot register reaches it
 * as pageable memory, and its row says why. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "split_internal.h"

static int has_host_register(const gh_split_member *mb)
{
    const gh_plugin_api *api = mb->api;
    return mb->abi_minor >= 4 && GH_HAS_MEMBER(api, gh_plugin_api, host_unregister) && api->host_register &&
           api->host_unregister;
}

/* 1 when m's storage came from the host_alloc of mb's own context. */
static int from_own_host_alloc(const gh_matrix *m, const gh_split_member *mb)
{
    gh_host_allocator own;
    if (!m->allocator.alloc || gh_split_host_allocator(mb, &own) != 0 || m->allocator.alloc != own.alloc) return 0;
    const gh_split_member *owner = m->allocator.user;
    return owner && owner->api == mb->api && owner->ctx == mb->ctx;
}

/* The matrices a member touches: the inputs it reads, then C. */
static size_t used_matrices(const gh_split_problem *p, const gh_matrix **out, const char **names, int *read_only)
{
    size_t n = 0;
    out[n] = p->a, names[n] = "A", read_only[n++] = 1;
    out[n] = p->b, names[n] = "B", read_only[n++] = 1;
    if (p->beta != 0) out[n] = p->c0, names[n] = "C0", read_only[n++] = 1;
    out[n] = p->c, names[n] = "C", read_only[n++] = 0;
    return n;
}

static void register_member(worker *w)
{
    const gh_split_member *mb = w->mb;
    char *note = w->st->host_memory;
    const size_t note_size = sizeof w->st->host_memory;
    const gh_matrix *m[4];
    const char *names[4];
    int read_only[4];
    size_t n = used_matrices(w->p, m, names, read_only), own = 0;
    for (size_t i = 0; i < n; i++) own += !mb->isolated && from_own_host_alloc(m[i], mb);
    if (own == n) {
        snprintf(note, note_size, "from its plugin's host_alloc (page-locked where the API has it)");
        return;
    }
    if (!has_host_register(mb)) {
        snprintf(note, note_size, "pageable: plugin %s has no host_register (ABI minor 4)", mb->api->name);
        return;
    }
    /* Members of one in-process context share its registrations. */
    for (size_t j = 0; j < w->index; j++) {
        const worker *o = &w->all[j];
        if (o->mb->api == mb->api && o->mb->ctx == mb->ctx) {
            snprintf(note, note_size, "%s", o->st->host_memory);
            return;
        }
    }
    const char *how = NULL;
    char refused[256] = "", names_ok[16] = "", names_bad[16] = "";
    for (size_t i = 0; i < n; i++) {
        if (!mb->isolated && from_own_host_alloc(m[i], mb)) continue;
        const char *this_how = NULL;
        /* Under isolation the worker reads the inputs through a read-only view. */
        uint32_t flags = mb->isolated && read_only[i] ? GH_HOST_REGISTER_READ_ONLY : 0;
        void *ptr = m[i]->storage;
        gh_status s = mb->api->host_register(mb->ctx, ptr, gh_matrix_storage_bytes(m[i]), flags, &this_how);
        char *list = s == GH_OK ? names_ok : names_bad;
        snprintf(list + strlen(list), 16 - strlen(list), "%s%s", *list ? ", " : "", names[i]);
        if (s == GH_OK) {
            how = this_how ? this_how : "registered";
            w->registered[w->n_registered++] = ptr;
        } else if (!refused[0]) {
            snprintf(refused, sizeof refused, "%s", mb->api->last_error(mb->ctx));
        }
    }
    if (!names_bad[0]) snprintf(note, note_size, "%s", how);
    else if (!names_ok[0]) snprintf(note, note_size, "pageable: %s", refused);
    else snprintf(note, note_size, "%s %s; %s pageable: %s", names_ok, how, names_bad, refused);
}

void gh_split_register_host(worker *w, size_t n)
{
    for (size_t i = 0; i < n; i++) register_member(&w[i]);
}

void gh_split_unregister_host(worker *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (int r = 0; r < w[i].n_registered; r++)
            if (w[i].mb->api->host_unregister(w[i].mb->ctx, w[i].registered[r]) != GH_OK)
                fprintf(stderr, "gemmhost: split member %s/%d: host_unregister: %s\n", w[i].mb->backend,
                        w[i].mb->device, w[i].mb->api->last_error(w[i].mb->ctx));
        w[i].n_registered = 0;
    }
}

/* 1 when another member uses the same in-process context. */
static int shares_context(const worker *w)
{
    const size_t n = w->sh->n_workers;
    for (size_t j = 0; j < n; j++)
        if (j != w->index && w->all[j].mb->api == w->mb->api && w->all[j].mb->ctx == w->mb->ctx) return 1;
    return 0;
}

void gh_split_register_staging(worker *w)
{
    const gh_split_member *mb = w->mb;
    /* In process, host_alloc's staging is the plugin's own (pinned) memory. */
    if (!w->staging || !has_host_register(mb) || (!mb->isolated && (w->staging_pinned || shares_context(w)))) return;
    const char *how = NULL;
    /* Under isolation the worker reads uploads through the read-only view and
     * writes downloads through the read-write one: both are registered. */
    gh_status s = mb->api->host_register(mb->ctx, w->staging, w->staging_bytes, 0, &how);
    if (s == GH_OK && mb->isolated)
        mb->api->host_register(mb->ctx, w->staging, w->staging_bytes, GH_HOST_REGISTER_READ_ONLY, &how);
    w->staging_registered = s == GH_OK;
}

void gh_split_unregister_staging(worker *w)
{
    if (!w->staging_registered) return;
    if (w->mb->api->host_unregister(w->mb->ctx, w->staging) != GH_OK)
        fprintf(stderr, "gemmhost: split member %s/%d: host_unregister of its staging buffer: %s\n", w->mb->backend,
                w->mb->device, w->mb->api->last_error(w->mb->ctx));
    w->staging_registered = 0;
}
