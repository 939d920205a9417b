/* Fingerprints of a case's inputs; see input_guard.h. */
#include "input_guard.h"

#include <stdio.h>
#include <string.h>

#include "parallel.h"

enum { HASH_PART_BYTES = 64 << 20 }; /* below this a thread costs more than it saves */

static const uint64_t P1 = 0x9E3779B185EBCA87ull, P2 = 0xC2B2AE3D27D4EB4Full;

static uint64_t rotl(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

/* Each step is a bijection of the lane for a fixed word and of the word for
 * a fixed lane, so a changed word always changes its lane's end state. */
static uint64_t hash_serial(const unsigned char *p, size_t n)
{
    uint64_t v[4] = {P1 + P2, P2, 0, (uint64_t)0 - P1};
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (int l = 0; l < 4; l++) {
            uint64_t w;
            memcpy(&w, p + i + 8 * (size_t)l, 8);
            v[l] = rotl(v[l] + w * P2, 31) * P1;
        }
    uint64_t h = rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18) + (uint64_t)n;
    for (; i < n; i++) h = rotl(h ^ (p[i] * P1), 11) * P2;
    h ^= h >> 33;
    h *= P2;
    h ^= h >> 29;
    return h;
}

typedef struct hash_job {
    const unsigned char *p;
    size_t n, part_bytes;
    uint64_t parts[GH_PARALLEL_MAX];
} hash_job;

static void hash_parts(void *ctx, int64_t begin, int64_t end, int part)
{
    (void)part;
    hash_job *job = ctx;
    for (int64_t i = begin; i < end; i++) {
        size_t from = (size_t)i * job->part_bytes;
        size_t len = job->n - from < job->part_bytes ? job->n - from : job->part_bytes;
        job->parts[i] = hash_serial(job->p + from, len);
    }
}

uint64_t gh_input_hash(const void *p, size_t n)
{
    if (n <= HASH_PART_BYTES) return hash_serial(p, n);
    /* Parts depend on n alone, so the same bytes always hash the same. */
    hash_job job = {.p = p, .n = n};
    size_t n_parts = GH_PARALLEL_MAX;
    job.part_bytes = (n + n_parts - 1) / n_parts;
    if (job.part_bytes < HASH_PART_BYTES) job.part_bytes = HASH_PART_BYTES;
    n_parts = (n + job.part_bytes - 1) / job.part_bytes;
    gh_parallel_spans((int64_t)n_parts, gh_parallel_threads(0), hash_parts, &job);
    return hash_serial((const unsigned char *)job.parts, n_parts * sizeof job.parts[0]);
}

static uint64_t storage_hash(const gh_matrix *m)
{
    return gh_input_hash(m->storage, gh_matrix_storage_bytes(m));
}

void gh_input_guard_watch(gh_input_guard *g, const char *name, gh_matrix *m)
{
    if (g->n == GH_INPUT_GUARD_MAX) return; /* sized for a case's inputs */
    g->in[g->n++] = (gh_guarded_input){name, m, storage_hash(m), 0};
}

void gh_input_guard_seal(gh_input_guard *g)
{
    for (size_t i = 0; i < g->n; i++) {
        g->in[i].hash = storage_hash(g->in[i].m);
        g->in[i].changed = 0;
    }
}

size_t gh_input_guard_check(gh_input_guard *g, char *changed, size_t size)
{
    size_t n = 0, written = 0;
    for (size_t i = 0; i < g->n; i++) {
        g->in[i].changed = storage_hash(g->in[i].m) != g->in[i].hash;
        n += (size_t)g->in[i].changed;
    }
    if (size) changed[0] = '\0';
    for (size_t i = 0, k = 0; i < g->n && size; i++) {
        if (!g->in[i].changed) continue;
        const char *sep = k == 0 ? "" : k + 1 == n ? " and " : ", ";
        int w = snprintf(changed + written, size - written, "%s%s", sep, g->in[i].name);
        if (w < 0 || (size_t)w >= size - written) break;
        written += (size_t)w;
        k++;
    }
    return n;
}

int gh_input_guard_reset(gh_input_guard *g)
{
    for (size_t i = 0; i < g->n; i++) {
        gh_matrix *m = g->in[i].m;
        if (!g->in[i].changed) continue;
        gh_matrix fresh;
        if (gh_matrix_alloc(&fresh, m->dtype, m->rows, m->cols, m->ld, m->guard) != 0) return -1;
        memcpy(m->storage, fresh.storage, gh_matrix_storage_bytes(m));
        gh_matrix_free(&fresh);
    }
    return 0;
}
