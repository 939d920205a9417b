/* The ranks of an MPI job, as gemmhost uses them (docs/fleet.md): who this
 * rank is, where every rank runs, and text sent to rank 0. Implemented by
 * mpi_comm.c (linked into the gemmhost executable when built with MPI) or
 * no_mpi.c (one rank). Only the parent process calls these: the plugin
 * workers are spawned with exec (core/isolation) and never touch MPI. */
#ifndef GEMMHOST_FLEET_COMM_H
#define GEMMHOST_FLEET_COMM_H

#include <stddef.h>

typedef struct gh_fleet {
    int active;     /* 1: launched under mpirun/srun (more than this one process may run) */
    int rank, size; /* 0 and 1 when not active */
    int local_rank; /* the rank's index among the ranks of its node (shared-memory communicator) */
    int threads;    /* MPI may be called from a second thread, one at a time (MPI_THREAD_SERIALIZED) */
    char host[256]; /* this rank's host name */
    char **hosts;   /* every rank's host name, size entries */
} gh_fleet;

/* Joins the MPI job when the environment says one launched this process
 * (OMPI_COMM_WORLD_SIZE, PMIX_RANK or PMI_RANK; GEMMHOST_MPI=0 opts out),
 * else fills f as one rank without calling MPI. -1 with err (MPI's words). */
int gh_fleet_init(gh_fleet *f, int *argc, char ***argv, char *err, size_t err_size);
/* Leaves the job (MPI_Finalize); frees f. */
void gh_fleet_finalize(gh_fleet *f);
/* Ends the whole job at once (MPI_Abort) with status: when a rank cannot go on
 * and the others would wait for it forever. */
void gh_fleet_abort(gh_fleet *f, int status);

/* Rank 0 gets every rank's `mine` (*all: size strings, the caller's, each
 * freed with free and the array too); other ranks get *all = NULL. */
int gh_fleet_gather_text(gh_fleet *f, const char *mine, char ***all, char *err, size_t err_size);
/* Every rank gets the largest `value` of all ranks. */
int gh_fleet_max_int(gh_fleet *f, int *value, char *err, size_t err_size);
/* Every rank gets rank 0's *value. */
int gh_fleet_bcast_int(gh_fleet *f, int *value, char *err, size_t err_size);
/* A rank's report, sent to rank 0 (not by rank 0 itself). */
int gh_fleet_send_report(gh_fleet *f, const char *text, char *err, size_t err_size);
/* On rank 0: the next report to arrive from any rank (*from its rank,
 * *text the caller's). */
int gh_fleet_recv_report(gh_fleet *f, int *from, char **text, char *err, size_t err_size);
/* A rank's kept outputs ([run] fleet_outputs_max) to rank 0, after its
 * report (which says how many bytes follow); sent in pieces under 1 GiB. */
int gh_fleet_send_bytes(gh_fleet *f, const char *bytes, size_t size, char *err, size_t err_size);
/* On rank 0: the bytes rank `from` sent (*bytes the caller's). */
int gh_fleet_recv_bytes(gh_fleet *f, int from, char **bytes, size_t *size, char *err, size_t err_size);

#endif
