/* The [backend NAME] and [split NAME] sections: their keys parsed into
 * gh_backend_config and gh_split_config, and each split's members checked to
 * be [backend] sections. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config_check.h"
#include "loader.h"
#include "util.h"

/* -- [backend NAME] -- */

/* devices: "all", "hardware", "0, 2" or a name substring; the planner reads
 * it, so the list is kept as one string "0,2". */
static int get_devices(loader *ld, const section *s, const entry *e, char **out)
{
    char **items;
    size_t n;
    if (cfg_get_list(ld, s, e, &items, &n) != 0) return -1;
    size_t len = 1;
    for (size_t i = 0; i < n; i++) len += strlen(items[i]) + 1;
    free(*out);
    *out = gh_xrealloc(NULL, len);
    (*out)[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (i) strcat(*out, ",");
        strcat(*out, items[i]);
    }
    ini_free_strings(items, n);
    return 0;
}

/* Any other key: a kernel parameter or plugin option, checked by the planner. */
static int add_raw_key(loader *ld, const section *s, const entry *e, gh_backend_config *b)
{
    gh_raw_key *k = ini_push(&b->keys, &b->n_keys, sizeof(gh_raw_key));
    k->name = gh_strdup(e->key);
    k->origin = cfg_origin_of(ld, e);
    return cfg_get_list(ld, s, e, &k->values, &k->n_values);
}

static int backend_key(loader *ld, const section *s, const entry *e, gh_backend_config *b)
{
    if (strcmp(e->key, "plugin") == 0) {
        if (cfg_get_nonempty(ld, s, e, "a plugin name such as cpu, or a path to its .so", &b->plugin) != 0) return -1;
        if (gh_plugin_names_file(b->plugin)) cfg_resolve_in_config_dir(ld, e, &b->plugin);
        return 0;
    }
    if (strcmp(e->key, "devices") == 0) {
        b->devices_origin = cfg_origin_of(ld, e);
        if (strcmp(e->value, "local_rank") == 0) {
            b->local_rank_devices = 1;
            free(b->devices);
            b->devices = gh_strdup("0"); /* one rank alone is local rank 0; core/fleet sets it under MPI */
            return 0;
        }
        b->local_rank_devices = 0;
        return get_devices(ld, s, e, &b->devices);
    }
    int placed = cfg_placement_key(ld, s, e, &b->place);
    if (placed <= 0) return placed;
    if (strcmp(e->key, "kernels") == 0) return cfg_get_unique_list(ld, s, e, &b->kernels, &b->n_kernels);
    if (strcmp(e->key, "timeout") == 0) {
        b->has_timeout = 1;
        return cfg_get_timeout(ld, s, e, &b->timeout);
    }
    if (strcmp(e->key, "tune") == 0) return cfg_get_yes_no(ld, s, e, &b->tune);
    if (strcmp(e->key, "tune_budget") == 0) return cfg_get_tune_budget(ld, s, e, &b->tune_budget);
    return add_raw_key(ld, s, e, b);
}

int cfg_check_backend(loader *ld, const section *s, gh_config *cfg)
{
    gh_backend_config *b = ini_push(&cfg->backends, &cfg->n_backends, sizeof(gh_backend_config));
    b->name = gh_strdup(s->name);
    b->origin = (gh_origin){ld->file, s->line};
    b->tune_budget = NAN;
    for (size_t i = 0; i < s->n_entries; i++)
        if (backend_key(ld, s, &s->entries[i], b) != 0) return -1;
    if (!b->plugin) b->plugin = gh_strdup(s->name);
    if (!b->devices) b->devices = gh_strdup("all");
    return 0;
}

/* -- [split NAME] -- */

static const char *const split_key_names[] = {"backends", "panel",  "mem_limit", "kernel",
                                              "numa",     "b_copy", "ranks",     "hosts"};
/* In the order of gh_split_numa and gh_split_b_copy (split.h). */
static const char *const numa_names[] = {"auto", "off"};
static const char *const b_copy_names[] = {"auto", "host", "peer"};

static int split_key(loader *ld, const section *s, const entry *e, gh_split_config *sp)
{
    if (strcmp(e->key, "backends") == 0) return cfg_get_unique_list(ld, s, e, &sp->backends, &sp->n_backends);
    if (strcmp(e->key, "panel") == 0) return cfg_get_int(ld, s, e, 1, MAX_DIM, &sp->panel);
    if (strcmp(e->key, "mem_limit") == 0) return cfg_get_mem_limit(ld, s, e, &sp->mem_limit);
    if (strcmp(e->key, "kernel") == 0) return cfg_get_string(ld, s, e, &sp->kernel);
    int placed = cfg_placement_key(ld, s, e, &sp->place);
    if (placed <= 0) return placed;
    const char *v;
    if (strcmp(e->key, "numa") == 0)
        return cfg_get_single(ld, s, e, &v) != 0 ? -1
                                                 : cfg_get_choice(ld, s, e, v, "a NUMA mode", numa_names, 2, &sp->numa);
    if (strcmp(e->key, "b_copy") == 0)
        return cfg_get_single(ld, s, e, &v) != 0
                   ? -1
                   : cfg_get_choice(ld, s, e, v, "a way to copy B", b_copy_names, 3, &sp->b_copy);
    char allowed[128];
    ini_join_names(split_key_names, 8, allowed, sizeof allowed);
    return ini_fail_key(ld, s, e, "unknown key (allowed: %s)", allowed);
}

int cfg_check_split(loader *ld, const section *s, gh_config *cfg)
{
    gh_split_config *sp = ini_push(&cfg->splits, &cfg->n_splits, sizeof(gh_split_config));
    sp->name = gh_strdup(s->name);
    sp->origin = (gh_origin){ld->file, s->line};
    sp->panel = 2048;
    for (size_t i = 0; i < s->n_entries; i++)
        if (split_key(ld, s, &s->entries[i], sp) != 0) return -1;
    if (!sp->backends)
        return ini_fail_line(ld, s->line, "[split %s]: missing key backends (the [backend] sections to split over)",
                             s->name);
    if (!sp->kernel) sp->kernel = gh_strdup("");
    return 0;
}

/* Members may be defined after the split, so this runs last. */
int cfg_check_split_members(loader *ld, const gh_config *cfg)
{
    for (size_t i = 0; i < cfg->n_splits; i++) {
        const gh_split_config *sp = &cfg->splits[i];
        for (size_t j = 0; j < sp->n_backends; j++) {
            if (ini_find_section(ld, SEC_BACKEND, sp->backends[j])) continue;
            const char *names[64] = {NULL};
            size_t n = 0;
            for (size_t b = 0; b < cfg->n_backends && n < 64; b++) names[n++] = cfg->backends[b].name;
            char have[512];
            ini_join_names(names, n, have, sizeof have);
            const section *s = ini_find_section(ld, SEC_SPLIT, sp->name);
            return ini_fail_key(ld, s, ini_find_entry(s, "backends"), "\"%s\" is not a [backend] section in %s (%s%s)",
                                ini_show(ld, sp->backends[j]), ld->file, n ? "backends: " : "there are none", have);
        }
    }
    return 0;
}
