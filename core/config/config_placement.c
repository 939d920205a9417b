/* The keys that place a [backend] or [split] on the ranks of an MPI job:
 * `ranks = 0, 2-5` and `hosts = gpu-node*, login?` (docs/fleet.md). Read
 * here for their form; core/fleet checks them against the job. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_check.h"
#include "util.h"

#define MAX_RANK 16777215LL /* far beyond any job; keeps the ranges' arithmetic in int */

#ifdef GEMMHOST_WITH_MPI
/* "3" or "2-5" into r. -1 when it is neither. */
static int parse_range(const char *item, gh_rank_range *r)
{
    char *copy = gh_strdup(item), *dash = strchr(copy + (copy[0] == '-'), '-');
    if (dash) *dash = '\0';
    uint64_t a, b;
    int ok = cfg_parse_uint64(ini_trim(copy), &a) == 0 && (!dash || cfg_parse_uint64(ini_trim(dash + 1), &b) == 0);
    free(copy);
    if (!ok) return -1;
    if (!dash) b = a;
    if (a > (uint64_t)MAX_RANK || b > (uint64_t)MAX_RANK || b < a) return -1;
    r->first = (int64_t)a;
    r->last = (int64_t)b;
    return 0;
}

static int get_ranks(loader *ld, const section *s, const entry *e, gh_placement *p)
{
    char **items;
    size_t n;
    if (cfg_get_list(ld, s, e, &items, &n) != 0) return -1;
    free(p->ranks);
    p->ranks = gh_xmalloc((n ? n : 1) * sizeof *p->ranks);
    p->n_ranks = n;
    p->ranks_origin = cfg_origin_of(ld, e);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        if (parse_range(items[i], &p->ranks[i]) != 0)
            rc = ini_fail_key(ld, s, e,
                              "\"%s\" is not a rank (a number from 0, or a range such as 2-5 with the smaller first)",
                              ini_show(ld, items[i]));
    ini_free_strings(items, n);
    return rc;
}

#endif

int cfg_placement_key(loader *ld, const section *s, const entry *e, gh_placement *p)
{
    int is_ranks = strcmp(e->key, "ranks") == 0;
    if (!is_ranks && strcmp(e->key, "hosts") != 0) return 1;
#ifndef GEMMHOST_WITH_MPI
    (void)p;
    return ini_fail_key(ld, s, e,
                        "gemmhost was built without MPI (no MPI found at build time, or GEMMHOST_MPI=OFF), so it runs "
                        "as one rank and cannot place a section on ranks or hosts: remove this key, or rebuild with "
                        "libopenmpi-dev installed (docs/fleet.md)");
#else
    if (is_ranks) return get_ranks(ld, s, e, p);
    ini_free_strings(p->hosts, p->n_hosts);
    p->hosts = NULL;
    p->hosts_origin = cfg_origin_of(ld, e);
    return cfg_get_list(ld, s, e, &p->hosts, &p->n_hosts);
#endif
}

void gh_placement_free(gh_placement *p)
{
    free(p->ranks);
    ini_free_strings(p->hosts, p->n_hosts);
    memset(p, 0, sizeof *p);
}
