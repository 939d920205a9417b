/* Names of result statuses, shared by the table, CSV and JSON. */
#include "result.h"

#include <stdio.h>

#include "data.h"

const char *gh_result_status_name(gh_result_status s)
{
    switch (s) {
    case GH_RESULT_PASS: return "pass";
    case GH_RESULT_FAIL: return "FAIL"; /* upper case: must catch the eye */
    case GH_RESULT_UNSUPPORTED: return "unsupported";
    case GH_RESULT_ERROR: return "ERROR";
    case GH_RESULT_UNCHECKED: return "unchecked"; /* never "pass": nothing compared the values */
    case GH_RESULT_CRASHED: return "crashed";
    case GH_RESULT_TIMEOUT: return "timeout";
    case GH_RESULT_CANCELLED: return "cancelled";
    }
    return "unknown";
}

int gh_result_status_ran(gh_result_status s)
{
    return s == GH_RESULT_PASS || s == GH_RESULT_FAIL || s == GH_RESULT_UNCHECKED;
}

const char *gh_result_types_label(const gh_result *r, char *buf, size_t size)
{
    const gh_case_types *t = &r->types;
    if (!t->explicit_types) {
        snprintf(buf, size, "%s", gh_dtype_name(r->dtype));
        return buf;
    }
    char b[16] = "", scales[96] = "";
    if (t->b != t->a) snprintf(b, sizeof b, " x %s", gh_dtype_name(t->b));
    if (t->scale_a != 1.0 || t->scale_b != 1.0 || t->scale_c != 1.0)
        snprintf(scales, sizeof scales, " scales %g,%g,%g", t->scale_a, t->scale_b, t->scale_c);
    snprintf(buf, size, "%s%s->%s%s", gh_dtype_name(t->a), b, gh_dtype_name(t->c), scales);
    return buf;
}
