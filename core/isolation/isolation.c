/* Fates into results; see isolation.h. */
#define _GNU_SOURCE
#include "isolation.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proxy.h"
#include "util.h"

int gh_isolation_given_up(const gh_streak *st, gh_result *r)
{
    if (!st->given_up) return 0;
    r->status = GH_RESULT_ERROR;
    snprintf(r->detail, sizeof r->detail, "not run: %s", st->given_up);
    return 1;
}

int gh_isolation_settle(gh_streak *st, const gh_plugin_api *const *apis, gh_plugin *const *ctxs, size_t n, gh_result *r)
{
    gh_fate fate, first = {0};
    for (size_t i = 0; i < n; i++)
        if (gh_proxy_take_fate(apis[i], ctxs[i], &fate) && first.kind == GH_FATE_NONE) first = fate;
    if (first.kind != GH_FATE_NONE) {
        r->status = first.kind == GH_FATE_TIMEOUT ? GH_RESULT_TIMEOUT : GH_RESULT_CRASHED;
        if (first.tail[0])
            snprintf(r->detail, sizeof r->detail, "%s; the worker's stderr ended with:\n%s", first.what, first.tail);
        else snprintf(r->detail, sizeof r->detail, "%s", first.what);
        r->repeats = 0; /* no timing survives a dead worker */
    }
    /* A result that did not settle (an error, e.g. restarting after a crash)
     * extends a streak but does not start one. */
    int bad = first.kind != GH_FATE_NONE || (st->failures > 0 && r->status == GH_RESULT_ERROR);
    st->failures = bad ? st->failures + 1 : 0;
    if (st->failures < GH_GIVE_UP_AFTER || st->given_up) return 0;
    st->given_up = gh_strdupf(
        "given up after %d failed results in a row (crashed, timed out or could not restart; "
        "the last: %s)",
        st->failures, gh_result_status_name(r->status));
    return 1;
}

int gh_isolation_settle_members(gh_streak *st, const gh_split_member *members, size_t n, gh_result *r)
{
    const gh_plugin_api **apis = gh_xcalloc(n + 1, sizeof *apis);
    gh_plugin **ctxs = gh_xcalloc(n + 1, sizeof *ctxs);
    for (size_t i = 0; i < n; i++) {
        apis[i] = members[i].api;
        ctxs[i] = members[i].ctx;
    }
    int gave_up = gh_isolation_settle(st, apis, ctxs, n, r);
    free(apis);
    free(ctxs);
    return gave_up;
}
