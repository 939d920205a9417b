/* Fleet files (a fleet's PREFIX.json, docs/fleet.md) in `gemmhost compare`:
 * their results pair rank by rank, so two files can be matched only when
 * both are fleets of one layout (ranks and their hosts), unless the options
 * say to ignore the hosts or the ranks. */
#ifndef GEMMHOST_FLEET_LAYOUT_H
#define GEMMHOST_FLEET_LAYOUT_H

#include <stddef.h>

#include "results_file.h"
#include "runs_match.h"

/* 0 when files[0..n) can be matched under o; else -1 with err naming the
 * two files, how their layouts differ and the option that matches them. */
int gh_fleet_layout_check(const gh_results_file *files, size_t n, const gh_match_options *o, char *err,
                          size_t err_size);

#endif
