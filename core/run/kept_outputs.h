/* Whole outputs kept for exact distances across the ranks of a fleet run
 * ([run] fleet_outputs_max, docs/fleet.md): each rank keeps every distinct
 * output (by hash) of the cases whose output is at most that size, packs
 * them into bytes for rank 0, and rank 0 measures the distances between
 * them with the case's reference, as the single-machine agreement does. */
#ifndef GEMMHOST_KEPT_OUTPUTS_H
#define GEMMHOST_KEPT_OUTPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "compare.h"
#include "config.h"
#include "data.h"
#include "verify.h"

typedef struct gh_kept_output {
    int case_index;
    gh_dtype dtype; /* the case's (A's) */
    gh_trans trans;
    gh_shape shape;
    uint64_t hash;
    gh_arith arith;  /* the loosest its members declare */
    gh_matrix value; /* owned */
} gh_kept_output;

typedef struct gh_kept_outputs {
    gh_kept_output *items;
    size_t n;
} gh_kept_outputs;

/* Keeps the case's distinct outputs (cmp's groups) of at most max_bytes,
 * each once; a hash kept already loosens its arithmetic only. */
void gh_kept_outputs_add_case(gh_kept_outputs *kept, const gh_compare *cmp, int case_index, const gh_case_inputs *in,
                              uint64_t max_bytes);
/* The kept output of that case and hash, or NULL. */
const gh_kept_output *gh_kept_outputs_find(const gh_kept_outputs *kept, int case_index, uint64_t hash);
/* All of them as bytes (this machine's byte order: the ranks of one job
 * share it). *size 0 when none. The caller frees *bytes. */
void gh_kept_outputs_pack(const gh_kept_outputs *kept, char **bytes, size_t *size);
/* Adds what another rank packed; -1 with err when the bytes are not whole. */
int gh_kept_outputs_unpack(gh_kept_outputs *kept, const char *bytes, size_t size, char *err, size_t err_size);
void gh_kept_outputs_free(gh_kept_outputs *kept);

/* The agreement of outputs computed anywhere (cmp, each group an output)
 * for one case, measured against the case's reference drawn again from
 * run's seed: out's groups, max_diff_in_bounds and worst, as the run's own
 * agreement gives them. -1 when out of memory for the case. */
int gh_kept_case_agreement(const gh_run_config *run, int case_index, gh_shape shape, gh_dtype dtype, gh_trans trans,
                           gh_compare *cmp, gh_agreement *out);

#endif
