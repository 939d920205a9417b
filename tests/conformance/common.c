/* Status names and the refusal verdicts every group uses. */
#include <stdio.h>

#include "conformance.h"

const char *conf_status_name(gh_status s)
{
    switch (s) {
    case GH_OK: return "GH_OK";
    case GH_ERROR: return "GH_ERROR";
    case GH_UNSUPPORTED: return "GH_UNSUPPORTED";
    case GH_NO_DEVICE: return "GH_NO_DEVICE";
    case GH_OUT_OF_MEMORY: return "GH_OUT_OF_MEMORY";
    case GH_INVALID_ARGUMENT: return "GH_INVALID_ARGUMENT";
    case GH_VERSION_MISMATCH: return "GH_VERSION_MISMATCH";
    }
    return "an unknown status";
}

const char *conf_outcome(const conformance *c, gh_status s)
{
    static char text[1024];
    if (s == GH_OK) return "GH_OK";
    snprintf(text, sizeof text, "%s: %s", conf_status_name(s), conf_error(c));
    return text;
}

const char *conf_error(const conformance *c)
{
    const char *e = c->api->last_error(c->ctx);
    return e ? e : "(NULL)";
}

int conf_expect2(const conformance *c, const char *id, gh_status got, gh_status want1, gh_status want2,
                 const char *what)
{
    const char *e = conf_error(c);
    char wanted[64];
    snprintf(wanted, sizeof wanted, "%s%s%s", conf_status_name(want1), want2 != want1 ? " or " : "",
             want2 != want1 ? conf_status_name(want2) : "");
    if (got != want1 && got != want2)
        return check_verdict(0, "%s: %s: got %s, wanted %s (last_error: \"%s\")", id, what, conf_status_name(got),
                             wanted, got == GH_OK ? "" : e);
    if (got != GH_OK && !e[0])
        return check_verdict(0, "%s: %s -> %s, but last_error is empty (every refusal says why)", id, what,
                             conf_status_name(got));
    return check_verdict(1, "%s: %s -> %s%s%s%s", id, what, conf_status_name(got), got == GH_OK ? "" : " (\"",
                         got == GH_OK ? "" : e, got == GH_OK ? "" : "\")");
}

int conf_expect(const conformance *c, const char *id, gh_status got, gh_status want, const char *what)
{
    return conf_expect2(c, id, got, want, want, what);
}
