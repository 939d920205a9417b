/* fleet_rank.h: a rank's part in a fleet run. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "encode.h"
#include "fleet_rank.h"
#include "fleet_report.h"
#include "util.h"

int gh_fleet_agree(gh_fleet *f, int status, const char *message)
{
    if (!f->active) {
        if (*message) fprintf(stderr, "gemmhost: %s\n", message);
        return status;
    }
    char err[1024], **all = NULL;
    char *mine = gh_strdupf("%d\n%s", status, message);
    int rc = gh_fleet_gather_text(f, mine, &all, err, sizeof err);
    free(mine);
    int worst = status;
    if (rc == 0 && f->rank == 0) {
        worst = EXIT_PASS;
        for (int r = 0; r < f->size; r++) {
            char *text = strchr(all[r], '\n') + 1;
            worst = gh_fleet_worse_status(worst, atoi(all[r]));
            int first = 1;
            for (int q = 0; q < r && first; q++) first = strcmp(strchr(all[q], '\n') + 1, text) != 0;
            if (!*text || !first) continue;
            gh_sbuf ranks = {0};
            for (int q = r; q < f->size; q++)
                if (!strcmp(strchr(all[q], '\n') + 1, text)) gh_sb_printf(&ranks, "%s%d", q > r ? ", " : "", q);
            char *list = gh_sb_take(&ranks);
            fprintf(stderr, "gemmhost: %s %s: %s\n", strchr(list ? list : "", ',') ? "ranks" : "rank",
                    list ? list : "?", text);
            free(list);
        }
    }
    for (int r = 0; all && r < f->size; r++) free(all[r]);
    free(all);
    if (rc == 0) rc = gh_fleet_bcast_int(f, &worst, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "gemmhost: rank %d: %s\n", f->rank, err);
        gh_fleet_abort(f, EXIT_USAGE); /* the others wait in the same call: end the job */
    }
    return worst;
}

/* Runs fn with stdout going into a string (*text, the caller's). */
static int capture_stdout(int (*fn)(void *), void *arg, char **text)
{
    fflush(stdout);
    FILE *tmp = tmpfile();
    int saved = dup(STDOUT_FILENO);
    if (!tmp || saved < 0 || dup2(fileno(tmp), STDOUT_FILENO) < 0) {
        if (tmp) fclose(tmp);
        if (saved >= 0) close(saved);
        *text = gh_strdup("");
        return fn(arg);
    }
    int status = fn(arg);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    long n = ftell(tmp);
    *text = gh_xmalloc(n > 0 ? (size_t)n + 1 : 1);
    rewind(tmp);
    size_t got = n > 0 ? fread(*text, 1, (size_t)n, tmp) : 0;
    (*text)[got] = '\0';
    fclose(tmp);
    return status;
}

int gh_fleet_dry_run(gh_fleet *f, int (*dry_run)(void *), void *arg)
{
    char *text, err[1024], **all = NULL;
    int status = capture_stdout(dry_run, arg, &text);
    char *mine =
        gh_strdupf("== rank %d of %d on %s (local rank %d) ==\n%s", f->rank, f->size, f->host, f->local_rank, text);
    free(text);
    if (gh_fleet_gather_text(f, mine, &all, err, sizeof err) != 0) {
        fprintf(stderr, "gemmhost: rank %d: %s\n", f->rank, err);
        gh_fleet_abort(f, EXIT_USAGE);
    }
    free(mine);
    for (int r = 0; all && r < f->size; r++) {
        fputs(all[r], stdout);
        free(all[r]);
    }
    free(all);
    return gh_fleet_agree(f, status, "");
}

/* Rank 0's receiving of the other ranks' reports, as they come: in a
 * thread while rank 0 runs its own part (when MPI allows a second thread;
 * the main thread makes no MPI call meanwhile), else after it. */
typedef struct listener {
    gh_fleet *f;
    json_t **reports; /* reports[r] for rank r */
    size_t results;   /* so far, over the ranks that reported */
    int quiet, verbose, failed, got;
    char base[4096];
} listener;

static void *listen_for_reports(void *arg)
{
    listener *l = arg;
    char err[2048];
    for (l->got = 1; l->got < l->f->size; l->got++) {
        int from = -1;
        char *text = NULL;
        if (gh_fleet_recv_report(l->f, &from, &text, err, sizeof err) != 0) {
            fprintf(stderr, "gemmhost: rank 0: %s; the ranks' own files hold their results (gemmhost merge %s)\n", err,
                    l->base);
            l->failed = 1;
            break;
        }
        json_t *rep = from > 0 && from < l->f->size ? json_loads(text, 0, NULL) : NULL;
        free(text);
        if (!rep) continue;
        json_decref(l->reports[from]);
        l->reports[from] = rep;
        size_t n = json_array_size(json_object_get(json_object_get(rep, "doc"), "results"));
        l->results += n;
        if (!l->quiet)
            fprintf(stderr,
                    "gemmhost fleet: rank %d (%s) done, exit %lld, %zu results; %d of %d ranks done, %zu results so "
                    "far (from the others)\n",
                    from, l->f->hosts[from], (long long)json_integer_value(json_object_get(rep, "status")), n,
                    l->got + 1, l->f->size, l->results);
    }
    return NULL;
}

/* Rank 0: the fleet report from every rank's, and its file. Returns the
 * fleet's exit status. */
static int fleet_report(listener *l, const char *own_report)
{
    char err[2048];
    json_decref(l->reports[0]);
    l->reports[0] = json_loads(own_report, 0, NULL);
    json_t *doc = gh_fleet_merge(l->reports, l->f->size);
    if (!l->quiet) printf("\n");
    int status = gh_fleet_print(doc, stdout, l->quiet, l->verbose);
    if (l->failed) status = gh_fleet_worse_status(status, EXIT_VERIFY_FAILED);
    char *path = gh_strdupf("%s.json", l->base);
    if (gh_fleet_write(doc, path, err, sizeof err) != 0) {
        fprintf(stderr, "gemmhost: %s\n", err);
        status = gh_fleet_worse_status(status, EXIT_NOT_RUN);
    } else {
        printf("fleet results: %s (per rank: %s.rank-N.json)\n", path, l->base);
    }
    free(path);
    json_decref(doc);
    return status;
}

static int run_nothing(void *arg)
{
    (void)arg;
    return EXIT_PASS;
}

int gh_fleet_run(gh_fleet *f, int (*run)(void *), void *arg, const char *prefix, int quiet, int verbose)
{
    char *base = gh_fleet_prefix(prefix), *rank_prefix = gh_fleet_rank_prefix(prefix, f->rank);
    listener l = {.f = f, .quiet = quiet, .verbose = verbose};
    snprintf(l.base, sizeof l.base, "%s", base);
    pthread_t thread;
    int listening = 0;
    if (f->rank == 0) {
        l.reports = calloc((size_t)f->size, sizeof *l.reports);
        listening = f->size > 1 && f->threads && pthread_create(&thread, NULL, listen_for_reports, &l) == 0;
    }
    char *ignored;
    int status = capture_stdout(run ? run : run_nothing, arg, &ignored); /* the table is rank 0's, for the fleet */
    free(ignored);
    /* Exit 2: this run wrote nothing; the files there are another run's. */
    char *json = status == EXIT_USAGE ? NULL : gh_strdupf("%s.json", rank_prefix);
    char *log = status == EXIT_USAGE ? NULL : gh_strdupf("%s.jsonl", rank_prefix);
    char *report = gh_fleet_rank_report(
        f->rank, f->host, f->local_rank, f->size, status, !run,
        status == EXIT_USAGE ? "its run stopped before any result (exit 2; its message is on stderr)" : NULL, json,
        log);
    free(json);
    free(log);
    char err[1024];
    if (f->rank == 0) {
        if (listening) pthread_join(thread, NULL);
        else listen_for_reports(&l);
        status = fleet_report(&l, report);
        free(l.reports);
    } else if (gh_fleet_send_report(f, report, err, sizeof err) != 0) {
        fprintf(stderr, "gemmhost: rank %d: %s; its own files hold its results\n", f->rank, err);
    }
    free(report);
    if (gh_fleet_bcast_int(f, &status, err, sizeof err) != 0) fprintf(stderr, "gemmhost: rank %d: %s\n", f->rank, err);
    free(rank_prefix);
    free(base);
    return status;
}
