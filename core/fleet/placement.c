/* placement.h: sections placed on ranks and hosts. */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"
#include "encode.h"
#include "util.h"

static int rank_listed(const gh_placement *p, int rank)
{
    for (size_t i = 0; i < p->n_ranks; i++)
        if (rank >= p->ranks[i].first && rank <= p->ranks[i].last) return 1;
    return 0;
}

static int host_matches(const gh_placement *p, const char *host)
{
    for (size_t i = 0; i < p->n_hosts; i++)
        if (fnmatch(p->hosts[i], host, 0) == 0) return 1;
    return 0;
}

int gh_placement_matches(const gh_placement *p, int rank, const char *host)
{
    return (!p->ranks || rank_listed(p, rank)) && (!p->hosts || host_matches(p, host));
}

/* "0-2 (3 ranks on a, b)": the job as a message shows it. */
static void describe_job(int size, char *const *hosts, char *out, size_t size_out)
{
    gh_sbuf b = {0};
    gh_sb_printf(&b, "the job has %d rank%s (0-%d) on ", size, size == 1 ? "" : "s", size - 1);
    int shown = 0;
    for (int r = 0; r < size && shown < 8; r++) {
        int seen = 0;
        for (int q = 0; q < r && !seen; q++) seen = strcmp(hosts[q], hosts[r]) == 0;
        if (seen) continue;
        gh_sb_printf(&b, "%s%s", shown ? ", " : "", hosts[r]);
        shown++;
    }
    char *text = gh_sb_take(&b);
    snprintf(out, size_out, "%s", text ? text : "");
    free(text);
}

static int check_one(const char *kind, const char *name, const gh_placement *p, int size, char *const *hosts, char *err,
                     size_t err_size)
{
    char job[512], at[512];
    describe_job(size, hosts, job, sizeof job);
    for (size_t i = 0; i < p->n_ranks; i++) {
        if (p->ranks[i].last < size) continue;
        char what[64];
        if (p->ranks[i].first == p->ranks[i].last) snprintf(what, sizeof what, "%lld", (long long)p->ranks[i].first);
        else snprintf(what, sizeof what, "%lld-%lld", (long long)p->ranks[i].first, (long long)p->ranks[i].last);
        snprintf(err, err_size, "%s: [%s %s] ranks = %s: no such rank: %s",
                 gh_origin_format(&p->ranks_origin, at, sizeof at), kind, name, what, job);
        return -1;
    }
    for (size_t i = 0; i < p->n_hosts; i++) {
        int any = 0;
        for (int r = 0; r < size && !any; r++) any = fnmatch(p->hosts[i], hosts[r], 0) == 0;
        if (any) continue;
        snprintf(err, err_size, "%s: [%s %s] hosts = %s matches no rank's host: %s",
                 gh_origin_format(&p->hosts_origin, at, sizeof at), kind, name, p->hosts[i], job);
        return -1;
    }
    int any = 0;
    for (int r = 0; r < size && !any; r++) any = gh_placement_matches(p, r, hosts[r]);
    if (!any) {
        snprintf(err, err_size, "%s: [%s %s]: no rank is both in its ranks and on one of its hosts: %s",
                 gh_origin_format(&p->hosts_origin, at, sizeof at), kind, name, job);
        return -1;
    }
    return 0;
}

int gh_placement_check(const gh_config *cfg, int size, char *const *hosts, char *err, size_t err_size)
{
    for (size_t i = 0; i < cfg->n_backends; i++)
        if (check_one("backend", cfg->backends[i].name, &cfg->backends[i].place, size, hosts, err, err_size) != 0)
            return -1;
    for (size_t i = 0; i < cfg->n_splits; i++)
        if (check_one("split", cfg->splits[i].name, &cfg->splits[i].place, size, hosts, err, err_size) != 0) return -1;
    return 0;
}

static int in_filter(const char *filter, const char *name)
{
    if (!filter) return 1;
    char *copy = gh_strdup(filter), *save = NULL;
    int found = 0;
    for (char *t = strtok_r(copy, ",", &save); t && !found; t = strtok_r(NULL, ",", &save)) {
        while (*t == ' ') t++;
        size_t n = strlen(t);
        while (n && t[n - 1] == ' ') n--;
        found = strlen(name) == n && strncmp(t, name, n) == 0;
    }
    free(copy);
    return found;
}

/* gh_config_free's part for one backend or split section taken out (the
 * other NULL), through a config that holds only it. */
static void free_taken_out(gh_backend_config *b, gh_split_config *sp)
{
    gh_config one = {0};
    one.backends = b ? gh_xmalloc(sizeof *b) : NULL;
    one.n_backends = b ? 1 : 0;
    if (b) one.backends[0] = *b;
    one.splits = sp ? gh_xmalloc(sizeof *sp) : NULL;
    one.n_splits = sp ? 1 : 0;
    if (sp) one.splits[0] = *sp;
    gh_config_free(&one);
}

static int member_of_kept_split(const gh_config *cfg, const char *backend)
{
    for (size_t i = 0; i < cfg->n_splits; i++)
        for (size_t j = 0; j < cfg->splits[i].n_backends; j++)
            if (strcmp(cfg->splits[i].backends[j], backend) == 0) return 1;
    return 0;
}

/* Whether `name` is an item of the comma list `list`. */
static int listed(const char *list, const char *name)
{
    return in_filter(list, name);
}

size_t gh_placement_apply(gh_config *cfg, int rank, const char *host, int local_rank, const char *filter,
                          char **backends)
{
    *backends = NULL;
    gh_sbuf list = {0};
    size_t placed = 0, kept = 0;
    int narrowed = 0;
    for (size_t i = 0; i < cfg->n_splits; i++) {
        gh_split_config *sp = &cfg->splits[i];
        if (gh_placement_matches(&sp->place, rank, host)) {
            if (!filter || listed(filter, sp->name)) gh_sb_printf(&list, "%s%s", placed++ ? "," : "", sp->name);
            cfg->splits[kept++] = *sp;
        } else {
            free_taken_out(NULL, sp);
        }
    }
    cfg->n_splits = kept;
    kept = 0;
    for (size_t i = 0; i < cfg->n_backends; i++) {
        gh_backend_config *b = &cfg->backends[i];
        int here = gh_placement_matches(&b->place, rank, host);
        if (!here && !member_of_kept_split(cfg, b->name)) {
            free_taken_out(b, NULL);
            narrowed = 1; /* a --backend naming it is another rank's business */
            continue;
        }
        if (here && (!filter || listed(filter, b->name))) gh_sb_printf(&list, "%s%s", placed++ ? "," : "", b->name);
        if (!here) narrowed = 1; /* kept for a split only */
        if (b->local_rank_devices) {
            free(b->devices);
            b->devices = gh_strdupf("%d", local_rank);
        }
        cfg->backends[kept++] = *b;
    }
    cfg->n_backends = kept;
    char *names = gh_sb_take(&list);
    if (narrowed && placed) *backends = names;
    else free(names);
    if (cfg->auto_backends) return 1;
    /* Nothing removed: the command line's filter stands as it is, its unknown names refused by the planner. */
    return narrowed ? placed : 1;
}
