/* See tune_space.h. */
#include "tune_space.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"

static int compare_int64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* Sorted, each once; returns the new count. */
static size_t sort_unique(int64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, compare_int64);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (kept == 0 || v[kept - 1] != v[i]) v[kept++] = v[i];
    return kept;
}

/* Every allowed value; a range as its ends, the default and the powers of two between. */
static size_t allowed_values(const gh_param_info *p, int64_t **out)
{
    if (p->n_allowed > 0) {
        *out = gh_xcalloc(p->n_allowed, sizeof **out);
        memcpy(*out, p->allowed, p->n_allowed * sizeof **out);
        return sort_unique(*out, p->n_allowed);
    }
    int64_t *v = gh_xcalloc(67, sizeof *v);
    size_t n = 0;
    v[n++] = p->min_value;
    v[n++] = p->max_value;
    v[n++] = p->default_value;
    for (int bit = 0; bit < 63; bit++) {
        int64_t pow2 = (int64_t)1 << bit;
        if (pow2 > p->min_value && pow2 < p->max_value) v[n++] = pow2;
    }
    *out = v;
    return sort_unique(v, n);
}

static const gh_raw_key *find_key(const gh_backend_config *bc, const char *name)
{
    for (size_t i = 0; bc && i < bc->n_keys; i++)
        if (strcmp(bc->keys[i].name, name) == 0) return &bc->keys[i];
    return NULL;
}

/* The config's list when it has one without `auto` (the planner checked each value). */
static size_t listed_values(const gh_raw_key *key, int64_t **out)
{
    for (size_t i = 0; i < key->n_values; i++)
        if (strcasecmp(key->values[i], "auto") == 0) return 0;
    *out = gh_xcalloc(key->n_values, sizeof **out);
    size_t n = 0;
    for (size_t i = 0; i < key->n_values; i++)
        if (gh_parse_int64(key->values[i], &(*out)[n]) == 0) n++;
    return n;
}

/* splitmix64: small, and the same sequence on every machine. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int64_t *row(const gh_tune_space *s, size_t i)
{
    return s->candidates + i * s->info->n_params;
}

static void swap_rows(gh_tune_space *s, size_t i, size_t j, int64_t *tmp)
{
    const size_t bytes = s->info->n_params * sizeof *tmp;
    memcpy(tmp, row(s, i), bytes);
    memcpy(row(s, i), row(s, j), bytes);
    memcpy(row(s, j), tmp, bytes);
}

static int rows_equal(const gh_tune_space *s, size_t i, const int64_t *params)
{
    return memcmp(row(s, i), params, s->info->n_params * sizeof *params) == 0;
}

/* The first candidate: the kernel's default where the values include it. */
static void default_params(const gh_tune_space *s, int64_t *out)
{
    for (size_t p = 0; p < s->info->n_params; p++) {
        out[p] = s->values[p][0];
        for (size_t i = 0; i < s->n_values[p]; i++)
            if (s->values[p][i] == s->info->params[p].default_value) out[p] = s->values[p][i];
    }
}

static void enumerate_all(gh_tune_space *s)
{
    const size_t np = s->info->n_params, n = (size_t)s->total;
    s->candidates = gh_xcalloc(n * (np ? np : 1), sizeof *s->candidates);
    s->n_candidates = n;
    for (size_t c = 0; c < n; c++) {
        size_t rest = c;
        for (size_t p = 0; p < np; p++) {
            row(s, c)[p] = s->values[p][rest % s->n_values[p]];
            rest /= s->n_values[p];
        }
    }
}

static void sample(gh_tune_space *s, uint64_t *rng)
{
    const size_t np = s->info->n_params;
    s->candidates = gh_xcalloc((size_t)GH_TUNE_SAMPLES * np, sizeof *s->candidates);
    int64_t *draw = gh_xcalloc(np, sizeof *draw);
    default_params(s, row(s, 0));
    s->n_candidates = 1;
    for (size_t tries = 0; s->n_candidates < GH_TUNE_SAMPLES && tries < 16 * (size_t)GH_TUNE_SAMPLES; tries++) {
        for (size_t p = 0; p < np; p++) draw[p] = s->values[p][next_random(rng) % s->n_values[p]];
        int seen = 0;
        for (size_t i = 0; i < s->n_candidates && !seen; i++) seen = rows_equal(s, i, draw);
        if (!seen) memcpy(row(s, s->n_candidates++), draw, np * sizeof *draw);
    }
    free(draw);
}

void gh_tune_space_build(gh_tune_space *s, const gh_kernel_info *info, const gh_backend_config *bc)
{
    memset(s, 0, sizeof *s);
    s->info = info;
    const size_t np = info->n_params;
    s->values = gh_xcalloc(np ? np : 1, sizeof *s->values);
    s->n_values = gh_xcalloc(np ? np : 1, sizeof *s->n_values);
    s->total = 1;
    for (size_t p = 0; p < np; p++) {
        const gh_raw_key *key = find_key(bc, info->params[p].name);
        s->n_values[p] = key ? listed_values(key, &s->values[p]) : 0;
        if (s->n_values[p] == 0) {
            free(s->values[p]);
            s->n_values[p] = allowed_values(&info->params[p], &s->values[p]);
        } else {
            s->n_values[p] = sort_unique(s->values[p], s->n_values[p]);
        }
        s->total *= (double)s->n_values[p];
    }
    uint64_t rng = GH_TUNE_SEED;
    if (s->total > GH_TUNE_MAX_ENUMERATED) {
        sample(s, &rng);
    } else {
        enumerate_all(s);
        int64_t *tmp = gh_xcalloc(np ? np : 1, sizeof *tmp);
        default_params(s, tmp);
        for (size_t i = 0; i < s->n_candidates; i++)
            if (rows_equal(s, i, tmp)) {
                swap_rows(s, 0, i, tmp);
                break;
            }
        /* Fisher-Yates over the rest */
        for (size_t i = s->n_candidates; i > 2; i--) {
            size_t j = 1 + (size_t)(next_random(&rng) % (i - 1));
            swap_rows(s, i - 1, j, tmp);
        }
        free(tmp);
    }
}

const int64_t *gh_tune_space_candidate(const gh_tune_space *s, size_t i)
{
    return row(s, i);
}

void gh_tune_params_label(const gh_kernel_info *info, const int64_t *params, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t p = 0; p < info->n_params; p++) {
        int n =
            snprintf(out + used, size - used, "%s%s=%lld", p ? " " : "", info->params[p].name, (long long)params[p]);
        if (n < 0 || used + (size_t)n >= size) break;
        used += (size_t)n;
    }
}

void gh_tune_space_free(gh_tune_space *s)
{
    for (size_t p = 0; s->info && p < s->info->n_params; p++) free(s->values[p]);
    free(s->values);
    free(s->n_values);
    free(s->candidates);
    memset(s, 0, sizeof *s);
}
