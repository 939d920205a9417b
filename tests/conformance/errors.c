/* last_error(): per calling thread, for any ctx, "" before the thread's
 * first failure, never NULL. Threads hand over with semaphores: each step
 * waits for the one before it, never for a time. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>

#include "conformance.h"

typedef struct fresh_probe {
    const conformance *c;
    const char *null_ctx; /* what last_error answered, before any other call */
} fresh_probe;

static void *probe_fresh_thread(void *arg)
{
    fresh_probe *p = arg;
    p->null_ctx = p->c->api->last_error(NULL);
    return NULL;
}

void conf_check_fresh_errors(const conformance *c)
{
    const char *e = c->api->last_error(NULL);
    CHECK(e && !e[0], "errors.fresh: on the host's thread before any failure, last_error(NULL) is \"\" (got %s%s%s)",
          e ? "\"" : "NULL", e ? e : "", e ? "\"" : "");
    fresh_probe p = {c, NULL};
    pthread_t t;
    if (pthread_create(&t, NULL, probe_fresh_thread, &p) != 0) {
        check_skip("errors.fresh_thread: could not start a thread");
        return;
    }
    pthread_join(t, NULL);
    CHECK(p.null_ctx && !p.null_ctx[0], "errors.fresh_thread: on a new thread, last_error(NULL) is \"\" (got %s%s%s)",
          p.null_ctx ? "\"" : "NULL", p.null_ctx ? p.null_ctx : "", p.null_ctx ? "\"" : "");
}

/* Thread 1 fails first and keeps its text; thread 2 then starts, must see
 * "" and fails its own way; thread 1 must still read its own text. */
typedef struct pair {
    const conformance *c;
    sem_t one_failed, two_done;
    char one_first[512], one_again[512];
    gh_status one_status;
    char two_fresh[512], two_null[512], two_ctx[512];
    int two_fresh_null;
    gh_status two_status;
} pair;

static void copy_text(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src ? src : "(NULL)");
}

static void *thread_one(void *arg)
{
    pair *p = arg;
    gh_buffer *buf = NULL;
    p->one_status = p->c->api->buffer_alloc(p->c->ctx, -1, 64, &buf); /* no device -1 */
    copy_text(p->one_first, sizeof p->one_first, p->c->api->last_error(p->c->ctx));
    sem_post(&p->one_failed);
    sem_wait(&p->two_done);
    copy_text(p->one_again, sizeof p->one_again, p->c->api->last_error(p->c->ctx));
    return NULL;
}

static void *thread_two(void *arg)
{
    pair *p = arg;
    const char *fresh = p->c->api->last_error(p->c->ctx);
    p->two_fresh_null = fresh == NULL;
    copy_text(p->two_fresh, sizeof p->two_fresh, fresh);
    const gh_option_value bogus = {"conformance-thread-two", "1"};
    gh_plugin *ctx = NULL;
    p->two_status = p->c->api->open(&bogus, 1, &ctx);
    if (p->two_status == GH_OK) p->c->api->close(ctx);
    copy_text(p->two_null, sizeof p->two_null, p->c->api->last_error(NULL));
    copy_text(p->two_ctx, sizeof p->two_ctx, p->c->api->last_error(p->c->ctx));
    return NULL;
}

void conf_check_thread_errors(const conformance *c)
{
    pair p = {.c = c};
    sem_init(&p.one_failed, 0, 0);
    sem_init(&p.two_done, 0, 0);
    pthread_t one, two;
    if (pthread_create(&one, NULL, thread_one, &p) != 0) {
        check_skip("errors.per_thread: could not start a thread");
        return;
    }
    sem_wait(&p.one_failed);
    int two_started = pthread_create(&two, NULL, thread_two, &p) == 0;
    if (two_started) pthread_join(two, NULL);
    sem_post(&p.two_done);
    pthread_join(one, NULL);
    sem_destroy(&p.one_failed);
    sem_destroy(&p.two_done);
    if (!two_started) {
        check_skip("errors.per_thread: could not start a second thread");
        return;
    }

    CHECK(p.one_status != GH_OK && p.one_first[0],
          "errors.set: a refused buffer_alloc (device -1) sets a non-empty last_error (got %s, \"%s\")",
          conf_status_name(p.one_status), p.one_first);
    CHECK(!p.two_fresh_null && !p.two_fresh[0],
          "errors.per_thread: a thread that has not failed reads \"\" while another thread's failure stands "
          "(got \"%s\")",
          p.two_fresh);
    CHECK(
        strcmp(p.one_again, p.one_first) == 0,
        "errors.per_thread: a thread still reads its own failure after another thread failed (had \"%s\", then \"%s\")",
        p.one_first, p.one_again);
    CHECK(p.two_status == GH_INVALID_ARGUMENT && p.two_null[0] && strcmp(p.two_null, p.two_ctx) == 0,
          "errors.any_ctx: after a failed open, last_error(NULL) and last_error(ctx) give the same text "
          "(\"%s\" vs \"%s\")",
          p.two_null, p.two_ctx);
}
