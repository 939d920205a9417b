/* The C plugin's worker threads; see pool.h.
 *
 * One run at a time (run_lock). A run bumps `generation` and wakes every
 * thread; helper i runs part i + 1 when that part exists, and the run waits
 * until `pending`, the helpers' parts of this run not yet done, is zero. A
 * helper with no part in a run just notes the generation: the next run
 * cannot start before every part of this one is done, so no helper can
 * miss a run it has a part in. */
#define _POSIX_C_SOURCE 200809L
#include "pool.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

typedef struct helper {
    cpu_pool *pool;
    int part;
    unsigned long seen; /* the last run it has looked at */
    pthread_t thread;
} helper;

struct cpu_pool {
    int width;
    pthread_mutex_t run_lock; /* held for a whole run */
    pthread_mutex_t lock;     /* guards everything below */
    pthread_cond_t wake;      /* helpers: a new run, or stop */
    pthread_cond_t done;      /* the run: pending reached zero */
    helper *helpers;          /* width - 1 of them */
    int started;              /* helpers whose thread runs */
    unsigned long generation;
    int n_parts;
    cpu_pool_fn fn;
    void *arg;
    int pending;
    int failed;
    int stopping;
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *helper_main(void *arg)
{
    helper *h = arg;
    cpu_pool *pool = h->pool;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->stopping && pool->generation == h->seen) pthread_cond_wait(&pool->wake, &pool->lock);
        if (pool->stopping) break;
        h->seen = pool->generation;
        if (h->part >= pool->n_parts) continue;
        cpu_pool_fn fn = pool->fn;
        void *job = pool->arg;
        pthread_mutex_unlock(&pool->lock);
        int rc = fn(job, h->part);
        pthread_mutex_lock(&pool->lock);
        if (rc != 0) pool->failed = 1;
        if (--pool->pending == 0) pthread_cond_signal(&pool->done);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

/* Asks the started helpers to stop and joins them. */
static void stop_helpers(cpu_pool *pool)
{
    pthread_mutex_lock(&pool->lock);
    pool->stopping = 1;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (int i = 0; i < pool->started; i++) pthread_join(pool->helpers[i].thread, NULL);
    pool->started = 0;
    pool->stopping = 0;
}

/* At the first run, under run_lock and before the run begins. A helper
 * starts from the generation before that run, however late its thread gets
 * going, so it cannot miss its part. 0, or pthread_create's error with no
 * helper left running. */
static int start_helpers(cpu_pool *pool)
{
    for (int i = pool->started; i < pool->width - 1; i++) {
        pool->helpers[i] = (helper){.pool = pool, .part = i + 1, .seen = pool->generation};
        int rc = pthread_create(&pool->helpers[i].thread, NULL, helper_main, &pool->helpers[i]);
        if (rc != 0) {
            stop_helpers(pool);
            return rc;
        }
        pool->started++;
    }
    return 0;
}

cpu_pool *cpu_pool_create(int width)
{
    if (width < 1) width = 1;
    cpu_pool *pool = calloc(1, sizeof *pool);
    if (!pool) return NULL;
    pool->width = width;
    pool->helpers = width > 1 ? calloc((size_t)width - 1, sizeof *pool->helpers) : NULL;
    if (width > 1 && !pool->helpers) {
        free(pool);
        return NULL;
    }
    pthread_mutex_init(&pool->run_lock, NULL);
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->wake, NULL);
    pthread_cond_init(&pool->done, NULL);
    return pool;
}

int cpu_pool_run(cpu_pool *pool, int n_parts, cpu_pool_fn fn, void *arg, double *elapsed_ms)
{
    if (n_parts < 1 || n_parts > pool->width) return EINVAL;
    pthread_mutex_lock(&pool->run_lock);
    if (pool->started < pool->width - 1) {
        int rc = start_helpers(pool);
        if (rc != 0) {
            pthread_mutex_unlock(&pool->run_lock);
            return rc;
        }
    }
    double start = now_ms();
    pthread_mutex_lock(&pool->lock);
    pool->generation++;
    pool->n_parts = n_parts;
    pool->fn = fn;
    pool->arg = arg;
    pool->pending = n_parts - 1;
    pool->failed = 0;
    if (n_parts > 1) pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);

    int failed = fn(arg, 0) != 0;

    pthread_mutex_lock(&pool->lock);
    while (pool->pending > 0) pthread_cond_wait(&pool->done, &pool->lock);
    failed |= pool->failed;
    pthread_mutex_unlock(&pool->lock);
    if (elapsed_ms) *elapsed_ms = now_ms() - start;
    pthread_mutex_unlock(&pool->run_lock);
    return failed ? -1 : 0;
}

void cpu_pool_destroy(cpu_pool *pool)
{
    if (!pool) return;
    stop_helpers(pool);
    pthread_cond_destroy(&pool->done);
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->lock);
    pthread_mutex_destroy(&pool->run_lock);
    free(pool->helpers);
    free(pool);
}
