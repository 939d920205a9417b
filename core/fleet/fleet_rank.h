/* A rank's part in a fleet run (docs/fleet.md): each stage's outcome agreed
 * on by every rank, the dry run and the run, and rank 0 gathering the
 * others' reports. fleet_command.c calls these with its dry run and run; they
 * call MPI through fleet_comm.h, so this file goes into the gemmhost
 * executable with mpi_comm.c or no_mpi.c, not into the core library. */
#ifndef GEMMHOST_FLEET_RANK_H
#define GEMMHOST_FLEET_RANK_H

#include "fleet_comm.h"

/* One stage's outcome on every rank: rank 0 prints each message once,
 * naming the ranks it came from, and every rank gets the worst status (so
 * all go on, or all stop, together). Not active: the message and status. */
int gh_fleet_agree(gh_fleet *f, int status, const char *message);

/* fn(arg) on every rank (the command line's parsing), with what it prints
 * held back: rank 0 prints its own words once, another rank's only where
 * they differ from rank 0's. Every rank gets the worst status. Not active:
 * fn(arg) as it is. */
int gh_fleet_say_once(gh_fleet *f, int (*fn)(void *), void *arg);

/* --dry-run under MPI: dry_run(arg) on every rank with its stdout taken,
 * printed by rank 0 in rank order. Returns the worst status. */
int gh_fleet_dry_run(gh_fleet *f, int (*dry_run)(void *), void *arg);

/* The run under MPI: run(arg) (this rank's run, into PREFIX.rank-N.*, its
 * stdout set aside; NULL for an idle rank), this rank's report to rank 0,
 * and on rank 0 the fleet report (PREFIX.json and the terminal; only the
 * totals when quiet, each case's agreement groups when verbose). `prefix` is the run's output. Every rank returns the
 * fleet's exit status. */
/* `outputs` (NULL: none, [run] fleet_outputs_max = 0): the whole outputs
 * this rank's run kept, sent to rank 0 after its report, and the run's
 * settings, for rank 0's exact distances across the ranks. */
typedef struct gh_fleet_outputs {
    struct gh_kept_outputs *kept;
    const struct gh_run_config *run;
} gh_fleet_outputs;
int gh_fleet_run(gh_fleet *f, int (*run)(void *), void *arg, const char *prefix, int quiet, int verbose,
                 const gh_fleet_outputs *outputs);

#endif
