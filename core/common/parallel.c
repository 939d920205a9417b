/* See parallel.h. */
#define _POSIX_C_SOURCE 200809L
#include "parallel.h"

#include <pthread.h>
#include <unistd.h>

typedef struct span_job {
    pthread_t thread;
    gh_span_fn fn;
    void *ctx;
    int64_t begin, end;
    int part;
} span_job;

static void *span_job_run(void *arg)
{
    span_job *job = arg;
    job->fn(job->ctx, job->begin, job->end, job->part);
    return NULL;
}

int gh_parallel_threads(int requested)
{
    long n = requested > 0 ? requested : sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) return 1;
    return n > GH_PARALLEL_MAX ? GH_PARALLEL_MAX : (int)n;
}

void gh_parallel_spans(int64_t n, int parts, gh_span_fn fn, void *ctx)
{
    if (parts > GH_PARALLEL_MAX) parts = GH_PARALLEL_MAX;
    if (parts > n) parts = (int)n;
    if (parts < 1) parts = 1;
    span_job jobs[GH_PARALLEL_MAX];
    int started[GH_PARALLEL_MAX] = {0};
    for (int p = 0; p < parts; p++) {
        jobs[p] = (span_job){.fn = fn, .ctx = ctx, .begin = n * p / parts, .end = n * (p + 1) / parts, .part = p};
        if (p > 0) started[p] = pthread_create(&jobs[p].thread, NULL, span_job_run, &jobs[p]) == 0;
    }
    span_job_run(&jobs[0]);
    for (int p = 1; p < parts; p++) {
        if (started[p]) pthread_join(jobs[p].thread, NULL);
        else span_job_run(&jobs[p]);
    }
}
