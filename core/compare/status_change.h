/* How a result's status changed from one file to another: worse (a
 * regression: pass -> FAIL, crashed, timeout, ERROR, unsupported), better
 * (unsupported -> pass) or another change between two bad statuses. */
#ifndef GEMMHOST_STATUS_CHANGE_H
#define GEMMHOST_STATUS_CHANGE_H

typedef enum gh_status_change {
    GH_STATUS_SAME,
    GH_STATUS_WORSE,
    GH_STATUS_BETTER,
    GH_STATUS_CHANGED /* neither: FAIL -> crashed, or an unknown status */
} gh_status_change;

gh_status_change gh_status_change_of(const char *before, const char *after);
const char *gh_status_change_name(gh_status_change c);

#endif
