/* fleet_comm.h over MPI. Every call's status is checked and turned into
 * MPI's own words (MPI_Error_string): MPI_COMM_WORLD returns errors rather
 * than aborting the job, so a rank can say what failed. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fleet_comm.h"
#include "util.h"

enum { TAG_REPORT_SIZE = 4301, TAG_REPORT = 4302, TAG_BYTES_SIZE = 4303, TAG_BYTES = 4304, HOST_MAX = 256 };
#define BYTES_PIECE ((size_t)1 << 30) /* MPI counts are int */

static MPI_Comm node_comm = MPI_COMM_NULL;

/* 0 when rc is MPI_SUCCESS, else -1 with "what: MPI's message". */
static int mpi_check(int rc, const char *what, char *err, size_t err_size)
{
    if (rc == MPI_SUCCESS) return 0;
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) snprintf(text, sizeof text, "MPI error %d", rc);
    snprintf(err, err_size, "%s failed: %s", what, text);
    return -1;
}

/* A pause between polls: a rank that waits for others must not spin a core
 * that a rank still timing its kernels on this node would use (a blocking
 * MPI call busy-polls in Open MPI). From 1 ms up to 20 ms. */
static void pause_a_little(int *round)
{
    long ms = *round < 20 ? 1 + *round : 20;
    struct timespec t = {0, ms * 1000000L};
    nanosleep(&t, NULL);
    (*round)++;
}

/* Waits for a non-blocking call without spinning. */
static int wait_gently(MPI_Request *req, MPI_Status *st, const char *what, char *err, size_t err_size)
{
    int done = 0, round = 0;
    for (;;) {
        if (mpi_check(MPI_Test(req, &done, st ? st : MPI_STATUS_IGNORE), what, err, err_size) != 0) return -1;
        if (done) return 0;
        pause_a_little(&round);
    }
}

/* Whether a launcher started this process as a rank: Open MPI's mpirun,
 * PMIx (srun --mpi=pmix, Open MPI 4+) or PMI-1/2 (srun --mpi=pmi2, MPICH's
 * Hydra). Started alone, gemmhost does not call MPI at all: a singleton
 * MPI_Init would start Open MPI's runtime for each of the many gemmhost
 * processes a test suite runs at once. */
static int launched_under_mpi(void)
{
    const char *opt = getenv("GEMMHOST_MPI");
    if (opt && strcmp(opt, "0") == 0) return 0;
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

static void one_rank(gh_fleet *f)
{
    f->size = 1;
    f->hosts = gh_xmalloc(sizeof *f->hosts);
    f->hosts[0] = gh_strdup(f->host);
}

int gh_fleet_init(gh_fleet *f, int *argc, char ***argv, char *err, size_t err_size)
{
    memset(f, 0, sizeof *f);
    if (gethostname(f->host, sizeof f->host) != 0) snprintf(f->host, sizeof f->host, "unknown");
    f->host[HOST_MAX - 1] = '\0';
    if (!launched_under_mpi()) {
        one_rank(f);
        return 0;
    }
    int provided = MPI_THREAD_SINGLE;
    if (mpi_check(MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread", err, err_size) !=
        0) {
        one_rank(f);
        return -1;
    }
    f->active = 1;
    f->threads = provided >= MPI_THREAD_SERIALIZED; /* rank 0 listens for the others while it runs */
    char *all = NULL;
    int rc =
        mpi_check(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler", err, err_size);
    if (rc == 0) rc = mpi_check(MPI_Comm_rank(MPI_COMM_WORLD, &f->rank), "MPI_Comm_rank", err, err_size);
    if (rc == 0) rc = mpi_check(MPI_Comm_size(MPI_COMM_WORLD, &f->size), "MPI_Comm_size", err, err_size);
    if (rc == 0)
        rc = mpi_check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, f->rank, MPI_INFO_NULL, &node_comm),
                       "MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)", err, err_size);
    if (rc == 0) rc = mpi_check(MPI_Comm_rank(node_comm, &f->local_rank), "MPI_Comm_rank (node)", err, err_size);
    if (rc == 0) {
        all = gh_xmalloc((size_t)f->size * HOST_MAX);
        rc = mpi_check(MPI_Allgather(f->host, HOST_MAX, MPI_CHAR, all, HOST_MAX, MPI_CHAR, MPI_COMM_WORLD),
                       "MPI_Allgather (host names)", err, err_size);
    }
    if (rc != 0) {
        free(all);
        return -1;
    }
    f->hosts = gh_xmalloc((size_t)f->size * sizeof *f->hosts);
    for (int r = 0; r < f->size; r++) f->hosts[r] = gh_strdupf("%.*s", HOST_MAX - 1, all + (size_t)r * HOST_MAX);
    free(all);
    return 0;
}

void gh_fleet_finalize(gh_fleet *f)
{
    for (int r = 0; f->hosts && r < f->size; r++) free(f->hosts[r]);
    free(f->hosts);
    f->hosts = NULL;
    if (!f->active) return;
    char err[512];
    if (node_comm != MPI_COMM_NULL) MPI_Comm_free(&node_comm);
    if (mpi_check(MPI_Finalize(), "MPI_Finalize", err, sizeof err) != 0)
        fprintf(stderr, "gemmhost: rank %d: %s\n", f->rank, err);
    f->active = 0;
}

void gh_fleet_abort(gh_fleet *f, int status)
{
    if (f->active) MPI_Abort(MPI_COMM_WORLD, status);
    exit(status);
}

int gh_fleet_gather_text(gh_fleet *f, const char *mine, char ***all, char *err, size_t err_size)
{
    *all = NULL;
    if (!f->active) {
        *all = gh_xmalloc(sizeof **all);
        (*all)[0] = gh_strdup(mine);
        return 0;
    }
    int len = (int)strlen(mine) + 1, *lens = NULL, *offsets = NULL;
    char *buf = NULL;
    if (f->rank == 0) lens = gh_xmalloc((size_t)f->size * sizeof *lens);
    if (mpi_check(MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Gather (text sizes)", err,
                  err_size) != 0) {
        free(lens);
        return -1;
    }
    if (f->rank == 0) {
        offsets = gh_xmalloc((size_t)f->size * sizeof *offsets);
        int total = 0;
        for (int r = 0; r < f->size; r++) offsets[r] = total, total += lens[r];
        buf = gh_xmalloc((size_t)total);
    }
    int rc = mpi_check(MPI_Gatherv(mine, len, MPI_CHAR, buf, lens, offsets, MPI_CHAR, 0, MPI_COMM_WORLD),
                       "MPI_Gatherv (text)", err, err_size);
    if (rc == 0 && f->rank == 0) {
        *all = gh_xmalloc((size_t)f->size * sizeof **all);
        for (int r = 0; r < f->size; r++) (*all)[r] = gh_strdup(buf + offsets[r]);
    }
    free(lens);
    free(offsets);
    free(buf);
    return rc;
}

int gh_fleet_max_int(gh_fleet *f, int *value, char *err, size_t err_size)
{
    if (!f->active) return 0;
    int in = *value;
    MPI_Request req;
    if (mpi_check(MPI_Iallreduce(&in, value, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req), "MPI_Iallreduce (max)", err,
                  err_size) != 0)
        return -1;
    return wait_gently(&req, NULL, "MPI_Iallreduce (max)", err, err_size);
}

int gh_fleet_bcast_int(gh_fleet *f, int *value, char *err, size_t err_size)
{
    if (!f->active) return 0;
    MPI_Request req;
    if (mpi_check(MPI_Ibcast(value, 1, MPI_INT, 0, MPI_COMM_WORLD, &req), "MPI_Ibcast", err, err_size) != 0) return -1;
    return wait_gently(&req, NULL, "MPI_Ibcast", err, err_size);
}

/* Sizes go first as a 64-bit count: a report may pass 2 GiB in no case we
 * run, but the count says so rather than wrapping. */
int gh_fleet_send_report(gh_fleet *f, const char *text, char *err, size_t err_size)
{
    uint64_t len = strlen(text) + 1;
    if (len > INT32_MAX) {
        snprintf(err, err_size, "a rank's report of %llu bytes is too large to send", (unsigned long long)len);
        return -1;
    }
    (void)f;
    MPI_Request req[2];
    if (mpi_check(MPI_Isend(&len, 1, MPI_UINT64_T, 0, TAG_REPORT_SIZE, MPI_COMM_WORLD, &req[0]),
                  "MPI_Isend (report size)", err, err_size) != 0)
        return -1;
    if (mpi_check(MPI_Isend(text, (int)len, MPI_CHAR, 0, TAG_REPORT, MPI_COMM_WORLD, &req[1]), "MPI_Isend (report)",
                  err, err_size) != 0) {
        wait_gently(&req[0], NULL, "MPI_Isend (report size)", err, err_size);
        return -1;
    }
    if (wait_gently(&req[0], NULL, "MPI_Isend (report size)", err, err_size) != 0) return -1;
    return wait_gently(&req[1], NULL, "MPI_Isend (report)", err, err_size);
}

int gh_fleet_recv_report(gh_fleet *f, int *from, char **text, char *err, size_t err_size)
{
    (void)f;
    uint64_t len = 0;
    MPI_Status st;
    int ready = 0, round = 0;
    while (!ready) { /* polled, not blocking: see pause_a_little */
        if (mpi_check(MPI_Iprobe(MPI_ANY_SOURCE, TAG_REPORT_SIZE, MPI_COMM_WORLD, &ready, &st), "MPI_Iprobe", err,
                      err_size) != 0)
            return -1;
        if (!ready) pause_a_little(&round);
    }
    if (mpi_check(MPI_Recv(&len, 1, MPI_UINT64_T, st.MPI_SOURCE, TAG_REPORT_SIZE, MPI_COMM_WORLD, &st),
                  "MPI_Recv (report size)", err, err_size) != 0)
        return -1;
    *from = st.MPI_SOURCE;
    if (len == 0 || len > INT32_MAX) {
        snprintf(err, err_size, "rank %d announced a report of %llu bytes", *from, (unsigned long long)len);
        return -1;
    }
    *text = gh_xmalloc(len);
    MPI_Request req;
    if (mpi_check(MPI_Irecv(*text, (int)len, MPI_CHAR, *from, TAG_REPORT, MPI_COMM_WORLD, &req), "MPI_Irecv (report)",
                  err, err_size) != 0 ||
        wait_gently(&req, NULL, "MPI_Irecv (report)", err, err_size) != 0) {
        free(*text);
        *text = NULL;
        return -1;
    }
    (*text)[len - 1] = '\0';
    return 0;
}

int gh_fleet_send_bytes(gh_fleet *f, const char *bytes, size_t size, char *err, size_t err_size)
{
    (void)f;
    uint64_t len = size;
    MPI_Request req;
    if (mpi_check(MPI_Isend(&len, 1, MPI_UINT64_T, 0, TAG_BYTES_SIZE, MPI_COMM_WORLD, &req), "MPI_Isend (outputs size)",
                  err, err_size) != 0 ||
        wait_gently(&req, NULL, "MPI_Isend (outputs size)", err, err_size) != 0)
        return -1;
    for (size_t at = 0; at < size; at += BYTES_PIECE) {
        int piece = (int)(size - at < BYTES_PIECE ? size - at : BYTES_PIECE);
        if (mpi_check(MPI_Isend(bytes + at, piece, MPI_BYTE, 0, TAG_BYTES, MPI_COMM_WORLD, &req), "MPI_Isend (outputs)",
                      err, err_size) != 0 ||
            wait_gently(&req, NULL, "MPI_Isend (outputs)", err, err_size) != 0)
            return -1;
    }
    return 0;
}

int gh_fleet_recv_bytes(gh_fleet *f, int from, char **bytes, size_t *size, char *err, size_t err_size)
{
    (void)f;
    uint64_t len = 0;
    MPI_Request req;
    *bytes = NULL;
    *size = 0;
    if (mpi_check(MPI_Irecv(&len, 1, MPI_UINT64_T, from, TAG_BYTES_SIZE, MPI_COMM_WORLD, &req),
                  "MPI_Irecv (outputs size)", err, err_size) != 0 ||
        wait_gently(&req, NULL, "MPI_Irecv (outputs size)", err, err_size) != 0)
        return -1;
    if (len > SIZE_MAX / 2) {
        snprintf(err, err_size, "rank %d announced %llu bytes of outputs", from, (unsigned long long)len);
        return -1;
    }
    char *buf = malloc(len ? (size_t)len : 1);
    if (!buf) {
        snprintf(err, err_size, "out of memory for rank %d's %llu bytes of outputs", from, (unsigned long long)len);
        return -1;
    }
    for (size_t at = 0; at < len; at += BYTES_PIECE) {
        int piece = (int)(len - at < BYTES_PIECE ? len - at : BYTES_PIECE);
        if (mpi_check(MPI_Irecv(buf + at, piece, MPI_BYTE, from, TAG_BYTES, MPI_COMM_WORLD, &req),
                      "MPI_Irecv (outputs)", err, err_size) != 0 ||
            wait_gently(&req, NULL, "MPI_Irecv (outputs)", err, err_size) != 0) {
            free(buf);
            return -1;
        }
    }
    *bytes = buf;
    *size = (size_t)len;
    return 0;
}
