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
#include "kept_outputs.h"
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

/* Starts sending fd (stdout or stderr, whose stream is flushed) into a
 * temporary file; -1 when it cannot (then fd is left as it is). */
static int divert_begin(FILE *stream, int fd, FILE **tmp, int *saved)
{
    fflush(stream);
    *tmp = tmpfile();
    *saved = dup(fd);
    if (*tmp && *saved >= 0 && dup2(fileno(*tmp), fd) >= 0) return 0;
    if (*tmp) fclose(*tmp);
    if (*saved >= 0) close(*saved);
    *tmp = NULL;
    return -1;
}

/* Puts fd back and returns what went into it (the caller's). */
static char *divert_end(FILE *stream, int fd, FILE *tmp, int saved)
{
    if (!tmp) return gh_strdup("");
    fflush(stream);
    dup2(saved, fd);
    close(saved);
    long n = ftell(tmp);
    char *text = gh_xmalloc(n > 0 ? (size_t)n + 1 : 1);
    rewind(tmp);
    size_t got = n > 0 ? fread(text, 1, (size_t)n, tmp) : 0;
    text[got] = '\0';
    fclose(tmp);
    return text;
}

/* Runs fn with stdout going into a string (*text, the caller's). */
static int capture_stdout(int (*fn)(void *), void *arg, char **text)
{
    FILE *tmp;
    int saved;
    divert_begin(stdout, STDOUT_FILENO, &tmp, &saved);
    int status = fn(arg);
    *text = divert_end(stdout, STDOUT_FILENO, tmp, saved);
    return status;
}

int gh_fleet_say_once(gh_fleet *f, int (*fn)(void *), void *arg)
{
    if (!f->active) return fn(arg);
    FILE *out_tmp, *err_tmp;
    int out_saved, err_saved;
    divert_begin(stdout, STDOUT_FILENO, &out_tmp, &out_saved);
    divert_begin(stderr, STDERR_FILENO, &err_tmp, &err_saved);
    int status = fn(arg);
    char *said_err = divert_end(stderr, STDERR_FILENO, err_tmp, err_saved);
    char *said_out = divert_end(stdout, STDOUT_FILENO, out_tmp, out_saved);
    /* Every rank's words to rank 0: "status\nstdout\x1estderr". */
    char err[1024], **all = NULL, *mine = gh_strdupf("%d\n%s\x1e%s", status, said_out, said_err);
    int rc = gh_fleet_gather_text(f, mine, &all, err, sizeof err), worst = status;
    free(mine);
    if (rc == 0 && f->rank == 0) {
        fputs(said_out, stdout);
        fputs(said_err, stderr);
        for (int r = 0; r < f->size; r++) {
            worst = gh_fleet_worse_status(worst, atoi(all[r]));
            const char *words = strchr(all[r], '\n') + 1;
            /* Another rank with other words (another command line, as MPMD launches give): those too. */
            if (r > 0 && strcmp(words, strchr(all[0], '\n') + 1) != 0) {
                const char *sep = strchr(words, '\x1e');
                fprintf(stderr, "gemmhost: rank %d said:\n%.*s%s", r, (int)(sep - words), words, sep + 1);
            }
        }
    }
    for (int r = 0; all && r < f->size; r++) free(all[r]);
    free(all);
    free(said_out);
    free(said_err);
    if (rc == 0) rc = gh_fleet_bcast_int(f, &worst, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "gemmhost: rank %d: %s\n", f->rank, err);
        gh_fleet_abort(f, EXIT_USAGE);
    }
    return worst;
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
    json_t **reports;       /* reports[r] for rank r */
    size_t results;         /* so far, over the ranks that reported */
    gh_kept_outputs others; /* the whole outputs the other ranks sent ([run] fleet_outputs_max) */
    int quiet, verbose, failed, got;
    char base[4096];
} listener;

/* The whole outputs rank `from` sends after its report. -1 when they could
 * not be received (the exchange is broken); bytes that do not unpack are
 * said and left out (those cases keep their fingerprints' distances). */
static int receive_outputs(listener *l, int from)
{
    char err[2048], *bytes;
    size_t size;
    if (gh_fleet_recv_bytes(l->f, from, &bytes, &size, err, sizeof err) != 0) {
        fprintf(stderr,
                "gemmhost: rank 0: rank %d's outputs: %s; the ranks' own files hold their results (gemmhost "
                "merge %s)\n",
                from, err, l->base);
        return -1;
    }
    if (gh_kept_outputs_unpack(&l->others, bytes, size, err, sizeof err) != 0)
        fprintf(stderr, "gemmhost: rank 0: rank %d's outputs: %s; its cases keep their fingerprints' distances\n", from,
                err);
    free(bytes);
    return 0;
}

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
        if (json_integer_value(json_object_get(rep, "outputs_bytes")) > 0 && receive_outputs(l, from) != 0) {
            l->failed = 1;
            json_decref(rep);
            break;
        }
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
static int fleet_report(listener *l, const char *own_report, const gh_fleet_outputs *outputs)
{
    char err[2048];
    json_decref(l->reports[0]);
    l->reports[0] = json_loads(own_report, 0, NULL);
    json_t *doc = gh_fleet_merge(l->reports, l->f->size);
    if (outputs) { /* rank 0's own outputs join the others', then the exact distances */
        char *bytes;
        size_t size;
        gh_kept_outputs_pack(outputs->kept, &bytes, &size);
        if (gh_kept_outputs_unpack(&l->others, bytes, size, err, sizeof err) != 0)
            fprintf(stderr, "gemmhost: rank 0: its own outputs: %s\n", err);
        free(bytes);
        gh_fleet_exact_agreement(doc, &l->others, outputs->run);
    }
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

/* The report with "outputs_bytes": how many bytes of outputs follow it. */
static char *with_outputs_size(char *report, size_t size)
{
    json_t *r = json_loads(report, 0, NULL);
    if (!r) return report;
    json_object_set_new(r, "outputs_bytes", json_integer((json_int_t)size));
    char *text = json_dumps(r, JSON_COMPACT);
    json_decref(r);
    if (!text) return report;
    free(report);
    return text;
}

int gh_fleet_run(gh_fleet *f, int (*run)(void *), void *arg, const char *prefix, int quiet, int verbose,
                 const gh_fleet_outputs *outputs)
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
        status = fleet_report(&l, report, outputs);
        free(l.reports);
        gh_kept_outputs_free(&l.others);
    } else {
        char *bytes = NULL;
        size_t size = 0;
        if (outputs) gh_kept_outputs_pack(outputs->kept, &bytes, &size);
        if (size) report = with_outputs_size(report, size);
        if (gh_fleet_send_report(f, report, err, sizeof err) != 0 ||
            (size && gh_fleet_send_bytes(f, bytes, size, err, sizeof err) != 0))
            fprintf(stderr, "gemmhost: rank %d: %s; its own files hold its results\n", f->rank, err);
        free(bytes);
    }
    free(report);
    if (gh_fleet_bcast_int(f, &status, err, sizeof err) != 0) fprintf(stderr, "gemmhost: rank %d: %s\n", f->rank, err);
    free(rank_prefix);
    free(base);
    return status;
}
