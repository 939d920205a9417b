/* gemmhost's own command, run as one rank of an MPI job when launched as
 * one, else alone (docs/fleet.md). It calls MPI through fleet_comm.h, so it
 * goes into the gemmhost executable with fleet_rank.c, not into the core
 * library. */
#ifndef GEMMHOST_FLEET_COMMAND_H
#define GEMMHOST_FLEET_COMMAND_H

/* gemmhost as one rank of an MPI job when launched as one, else alone: the
 * command line through to the run. Returns the exit status. */
int gh_fleet_command(int argc, char **argv);

/* Under MPI, this rank as its results files' head says it:
 * {"rank", "size", "host", "local_rank"}; NULL alone or outside the
 * command. */
const char *gh_fleet_command_head(void);

#endif
