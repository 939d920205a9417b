/* Which rank runs what (docs/fleet.md): the `ranks` and `hosts` keys of each
 * [backend] and [split] checked against the job, and the config cut down to
 * what this rank runs. No MPI here: the job is its size and host names. */
#ifndef GEMMHOST_PLACEMENT_H
#define GEMMHOST_PLACEMENT_H

#include <stddef.h>
#include "config.h"

/* Whether a section placed by p runs on `rank` at `host`. */
int gh_placement_matches(const gh_placement *p, int rank, const char *host);

/* Every section's ranks and hosts against a job of `size` ranks on
 * hosts[rank]: a rank past the job, a host pattern that matches no rank, or
 * both keys with no rank in common. -1 with err naming the section, its
 * file:line and the ranks there are. */
int gh_placement_check(const gh_config *cfg, int size, char *const *hosts, char *err, size_t err_size);

/* Cuts cfg down to the sections placed on this rank (with the members of a
 * split placed here, which then run only in the split) and points each
 * `devices = local_rank` at local_rank. When a section was taken out,
 * *backends gets the --backend filter this rank runs (the caller's): the
 * sections placed here that `filter` (the command line's, NULL for none)
 * names; else NULL, and `filter` stands. Returns 0 when this rank has
 * nothing to run (idle), else non-zero. */
size_t gh_placement_apply(gh_config *cfg, int rank, const char *host, int local_rank, const char *filter,
                          char **backends);

#endif
