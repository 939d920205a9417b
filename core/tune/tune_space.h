/* A kernel's parameter space, as the tuner walks it. Per parameter the
 * values to try: the [backend]'s own list when it gives one (tile = 8, 16),
 * else every allowed value (a range: its ends, the default and the powers of
 * two between). The candidates, in search order: the default first (the
 * kernel's default where the values include it, else each list's first
 * value), then the rest in a random order of a fixed seed, so every rerun
 * walks the same order. A product of more than GH_TUNE_MAX_ENUMERATED
 * candidates is sampled instead: the default and GH_TUNE_SAMPLES - 1
 * distinct random others. */
#ifndef GEMMHOST_TUNE_SPACE_H
#define GEMMHOST_TUNE_SPACE_H

#include <stddef.h>
#include <stdint.h>
#include "config.h"
#include "gemmhost/plugin.h"

#define GH_TUNE_MAX_ENUMERATED 65536
#define GH_TUNE_SAMPLES        4096
#define GH_TUNE_SEED           1

typedef struct gh_tune_space {
    const gh_kernel_info *info;
    int64_t **values; /* per parameter, n_values[p] of them */
    size_t *n_values;
    double total;        /* candidates in the whole product */
    int64_t *candidates; /* n_candidates rows of info->n_params values, in search order */
    size_t n_candidates;
} gh_tune_space;

/* `bc` (NULL: none) may narrow a parameter to its listed values; `auto`
 * in a list means every allowed value. */
void gh_tune_space_build(gh_tune_space *s, const gh_kernel_info *info, const gh_backend_config *bc);
/* The i-th candidate in search order (info->n_params values). */
const int64_t *gh_tune_space_candidate(const gh_tune_space *s, size_t i);
/* "tile=16 work=4" */
void gh_tune_params_label(const gh_kernel_info *info, const int64_t *params, char *out, size_t size);
void gh_tune_space_free(gh_tune_space *s);

#endif
