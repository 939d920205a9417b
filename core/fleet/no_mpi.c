/* fleet_comm.h without MPI: gemmhost is one rank. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fleet_comm.h"
#include "util.h"

int gh_fleet_init(gh_fleet *f, int *argc, char ***argv, char *err, size_t err_size)
{
    (void)argc, (void)argv, (void)err, (void)err_size;
    memset(f, 0, sizeof *f);
    f->size = 1;
    if (gethostname(f->host, sizeof f->host) != 0) snprintf(f->host, sizeof f->host, "unknown");
    f->host[sizeof f->host - 1] = '\0';
    f->hosts = gh_xmalloc(sizeof *f->hosts);
    f->hosts[0] = gh_strdup(f->host);
    return 0;
}

void gh_fleet_finalize(gh_fleet *f)
{
    for (int r = 0; f->hosts && r < f->size; r++) free(f->hosts[r]);
    free(f->hosts);
    f->hosts = NULL;
}

void gh_fleet_abort(gh_fleet *f, int status)
{
    (void)f;
    exit(status);
}

int gh_fleet_gather_text(gh_fleet *f, const char *mine, char ***all, char *err, size_t err_size)
{
    (void)f, (void)err, (void)err_size;
    *all = gh_xmalloc(sizeof **all);
    (*all)[0] = gh_strdup(mine);
    return 0;
}

int gh_fleet_max_int(gh_fleet *f, int *value, char *err, size_t err_size)
{
    (void)f, (void)value, (void)err, (void)err_size;
    return 0;
}

int gh_fleet_bcast_int(gh_fleet *f, int *value, char *err, size_t err_size)
{
    (void)f, (void)value, (void)err, (void)err_size;
    return 0;
}

int gh_fleet_send_report(gh_fleet *f, const char *text, char *err, size_t err_size)
{
    (void)f, (void)text;
    snprintf(err, err_size, "one rank: nothing to send to");
    return -1;
}

int gh_fleet_recv_report(gh_fleet *f, int *from, char **text, char *err, size_t err_size)
{
    (void)f, (void)from, (void)text;
    snprintf(err, err_size, "one rank: nothing to receive");
    return -1;
}

int gh_fleet_send_bytes(gh_fleet *f, const char *bytes, size_t size, char *err, size_t err_size)
{
    (void)f, (void)bytes, (void)size;
    snprintf(err, err_size, "one rank: nothing to send to");
    return -1;
}

int gh_fleet_recv_bytes(gh_fleet *f, int from, char **bytes, size_t *size, char *err, size_t err_size)
{
    (void)f, (void)from, (void)bytes, (void)size;
    snprintf(err, err_size, "one rank: nothing to receive");
    return -1;
}
