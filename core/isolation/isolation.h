/* What core/run does with a worker's fate (isolation): the result's status
 * and detail, a fresh worker for the next case, and giving a backend up
 * after GH_GIVE_UP_AFTER failed results in a row. */
#ifndef GEMMHOST_ISOLATION_H
#define GEMMHOST_ISOLATION_H

#include "gemmhost/plugin.h"
#include "result.h"
#include "split.h"

#define GH_GIVE_UP_AFTER 3

/* A backend's (or split's) run of bad luck. */
typedef struct gh_streak {
    int failures;   /* crashed or timed-out results in a row (errors while restarting included) */
    char *given_up; /* why it is no longer called; NULL while it runs */
} gh_streak;

/* Before a run: 1 when the backend was given up, with r made an error that
 * says so (nothing is called). */
int gh_isolation_given_up(const gh_streak *st, gh_result *r);

/* After a run on `n` contexts (a split's members, or one): a fate of any of
 * them makes r crashed or timeout, with the fate and the worker's stderr
 * tail as its detail. Counts the streak; returns 1 when this result gave
 * the backend up (the caller writes a note with st->given_up). */
int gh_isolation_settle(gh_streak *st, const gh_plugin_api *const *apis, gh_plugin *const *ctxs, size_t n,
                        gh_result *r);

/* The same for a split: the fate of any member's worker. */
int gh_isolation_settle_members(gh_streak *st, const gh_split_member *members, size_t n, gh_result *r);

#endif
