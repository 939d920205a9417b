/* Status changes; see status_change.h. */
#include "status_change.h"

#include <string.h>

/* Lower is better; -1 for a status this gemmhost does not know. A result
 * that ran and passed is best; one that ran unchecked, one that did not
 * run by design (unsupported), a plugin error, then the failures. */
static int rank_of(const char *status)
{
    static const struct {
        const char *name;
        int rank;
    } ranks[] = {{"pass", 0}, {"unchecked", 1}, {"unsupported", 2}, {"ERROR", 3},
                 {"FAIL", 4}, {"crashed", 4},   {"timeout", 4}};
    for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++)
        if (strcmp(status, ranks[i].name) == 0) return ranks[i].rank;
    return -1;
}

gh_status_change gh_status_change_of(const char *before, const char *after)
{
    if (strcmp(before, after) == 0) return GH_STATUS_SAME;
    int b = rank_of(before), a = rank_of(after);
    if (a < 0 || b < 0 || a == b) return GH_STATUS_CHANGED;
    return a > b ? GH_STATUS_WORSE : GH_STATUS_BETTER;
}

const char *gh_status_change_name(gh_status_change c)
{
    switch (c) {
    case GH_STATUS_SAME: return "same";
    case GH_STATUS_WORSE: return "worse";
    case GH_STATUS_BETTER: return "better";
    case GH_STATUS_CHANGED: return "changed";
    }
    return "?";
}
