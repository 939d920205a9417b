/* `gemmhost merge PREFIX [--output OUT]`: the fleet report built from the
 * files the ranks wrote as they went (PREFIX.rank-N.json and .jsonl), for a
 * job that died before rank 0 could gather them. The job's size comes from
 * the files' heads, so a rank that left no file is named missing. */
#define _GNU_SOURCE
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fleet_report.h"
#include "util.h"

static int file_exists(const char *path)
{
    return access(path, F_OK) == 0;
}

/* The rank numbers that have a file at PREFIX.rank-*.json or .jsonl; the largest + 1 in *seen. */
static void scan_ranks(const char *base, int *seen)
{
    char *pattern = gh_strdupf("%s.rank-*.json*", base);
    glob_t g;
    *seen = 0;
    if (glob(pattern, 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++) {
            const char *tail = g.gl_pathv[i] + strlen(base) + strlen(".rank-");
            int r = atoi(tail);
            if (r + 1 > *seen) *seen = r + 1;
        }
        globfree(&g);
    }
    free(pattern);
}

int gh_fleet_merge_main(int argc, char **argv)
{
    const char *prefix = NULL, *output = NULL;
    int verbose = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--output") && i + 1 < argc) output = argv[++i];
        else if (!strncmp(argv[i], "--output=", 9)) output = argv[i] + 9;
        else if (!strcmp(argv[i], "--verbose")) verbose = 1;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf(
                "usage: gemmhost merge PREFIX [--output OUT] [--verbose]\n"
                "  the fleet report from the per-rank files PREFIX.rank-N.json(l) of an MPI run (docs/fleet.md),\n"
                "  written to OUT.json (default PREFIX.json); --verbose: every case's groups of identical outputs\n");
            return EXIT_PASS;
        } else if (argv[i][0] == '-' || prefix) {
            fprintf(
                stderr,
                "gemmhost merge: unexpected argument %s (usage: gemmhost merge PREFIX [--output OUT] [--verbose])\n",
                argv[i]);
            return EXIT_USAGE;
        } else prefix = argv[i];
    }
    if (!prefix) {
        fprintf(stderr, "gemmhost merge: missing PREFIX (usage: gemmhost merge PREFIX [--output OUT] [--verbose])\n");
        return EXIT_USAGE;
    }
    char *base = gh_fleet_prefix(prefix);
    int size = 0;
    scan_ranks(base, &size);
    if (size == 0) {
        fprintf(stderr, "gemmhost merge: no per-rank results files %s.rank-N.json or .jsonl\n", base);
        free(base);
        return EXIT_USAGE;
    }
    json_t **reports = calloc((size_t)size, sizeof *reports);
    char *experiment = NULL; /* the lowest rank's with a document: every rank's must be the same */
    int first_rank = -1;
    for (int r = 0; r < size; r++) {
        char *json = gh_strdupf("%s.rank-%d.json", base, r), *log = gh_strdupf("%s.rank-%d.jsonl", base, r);
        if (file_exists(json) || file_exists(log)) {
            char *text = gh_fleet_rank_report(r, "", -1, size, -1, 0, NULL, json, log);
            json_t *rep = json_loads(text, 0, NULL);
            free(text);
            json_t *doc = json_object_get(rep, "doc");
            const char *exp = json_string_value(json_object_get(doc, "experiment"));
            if (doc && !experiment) experiment = gh_strdup(exp ? exp : "");
            else if (doc && strcmp(experiment, exp ? exp : "") != 0) { /* an earlier job's file left at the prefix */
                json_object_set_new(rep, "why",
                                    json_sprintf("%s is of another experiment than rank %d's (another "
                                                 "config or selection): left out",
                                                 json, first_rank));
                json_object_del(rep, "doc");
                doc = NULL;
            }
            if (doc && first_rank < 0) first_rank = r;
            json_t *head = json_object_get(doc, "fleet");
            json_object_del(rep, "status"); /* unknown: the results say */
            json_object_del(rep, "local_rank");
            json_object_del(rep, "host");
            if (!doc && !json_object_get(rep, "why"))
                json_object_set_new(rep, "why", json_sprintf("%s and %s cannot be read", json, log));
            int job = (int)json_integer_value(json_object_get(head, "size"));
            if (job > size) { /* ranks past the last file: their reports are NULL */
                reports = realloc(reports, (size_t)job * sizeof *reports);
                memset(reports + size, 0, (size_t)(job - size) * sizeof *reports);
                size = job;
            }
            reports[r] = rep;
        }
        free(json);
        free(log);
    }
    json_t *fleet = gh_fleet_merge(reports, size);
    free(reports);
    free(experiment);
    char *out = gh_strdupf("%s.json", output ? output : base);
    char err[2048];
    int status = gh_fleet_print(fleet, stdout, 0, verbose);
    if (gh_fleet_write(fleet, out, err, sizeof err) != 0) {
        fprintf(stderr, "gemmhost merge: %s\n", err);
        status = gh_fleet_worse_status(status, EXIT_NOT_RUN);
    } else {
        printf("fleet results: %s\n", out);
    }
    json_decref(fleet);
    free(out);
    free(base);
    return status;
}
