/* Names of result statuses, shared by the table, CSV and JSON. */
#include "result.h"

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
