/* Progress lines; see progress.h. */
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>

#include "util.h"

struct gh_progress {
    gh_progress_mode mode;
    size_t total, done;
    double start_ms, last_ms, interval_ms;
    double fraction; /* of the current run, from its repeats */
    char what[160];
    char repeat[64]; /* " (repeat 10 of 1000)" inside a long run */
};

gh_progress *gh_progress_start(gh_progress_mode mode, size_t total_runs, double interval_s)
{
    gh_progress *p = gh_xcalloc(1, sizeof *p);
    const char *env = getenv("GEMMHOST_PROGRESS_INTERVAL");
    if (env && *env) interval_s = atof(env);
    p->mode = mode;
    p->total = total_runs;
    p->interval_ms = interval_s * 1000.0;
    p->start_ms = p->last_ms = gh_now_ms();
    return p;
}

/* "1h02m", "3m10s", "42s" */
static void format_duration(double ms, char *out, size_t size)
{
    long s = (long)(ms / 1000.0 + 0.5);
    if (s >= 3600) snprintf(out, size, "%ldh%02ldm", s / 3600, s / 60 % 60);
    else if (s >= 60) snprintf(out, size, "%ldm%02lds", s / 60, s % 60);
    else snprintf(out, size, "%lds", s);
}

static void show(gh_progress *p, int force)
{
    double now = gh_now_ms();
    if (p->mode == GH_PROGRESS_OFF || (!force && now - p->last_ms < p->interval_ms)) return;
    p->last_ms = now;
    double done = (double)p->done + p->fraction;
    char left[48] = "";
    if (done > 0 && p->total > 0) {
        char t[24];
        format_duration((now - p->start_ms) / done * ((double)p->total - done), t, sizeof t);
        snprintf(left, sizeof left, ", about %s left", t);
    }
    if (p->mode == GH_PROGRESS_TERMINAL) {
        fprintf(stderr, "\r\033[K[%zu/%zu%s] %s%s", p->done, p->total, left, p->what, p->repeat);
    } else {
        fprintf(stderr, "gemmhost: progress %zu/%zu runs (%.0f%%)%s: %s%s\n", p->done, p->total,
                p->total ? 100.0 * done / (double)p->total : 100.0, left, p->what, p->repeat);
    }
    fflush(stderr);
}

void gh_progress_run(gh_progress *p, size_t done, const char *what)
{
    p->done = done;
    p->fraction = 0;
    p->repeat[0] = '\0';
    snprintf(p->what, sizeof p->what, "%s", what);
    /* A terminal line costs nothing to rewrite; a log line waits its turn. */
    show(p, p->mode == GH_PROGRESS_TERMINAL);
}

void gh_progress_repeat(gh_progress *p, long rep, long reps)
{
    if (p->mode != GH_PROGRESS_LOG || reps <= 0) return;
    p->fraction = (double)rep / (double)reps;
    snprintf(p->repeat, sizeof p->repeat, " (repetition %ld of %ld)", rep + 1, reps);
    show(p, 0);
}

void gh_progress_clear(gh_progress *p)
{
    if (p->mode == GH_PROGRESS_TERMINAL) fputs("\r\033[K", stderr); /* a table row never lands after it */
}

void gh_progress_finish(gh_progress *p)
{
    gh_progress_clear(p);
    free(p);
}
