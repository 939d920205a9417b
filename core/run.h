/* Executes a plan: for each case, every instance, device and kernel variant
 * runs on the same inputs; results are verified, compared and reported as
 * they arrive. */
#ifndef GEMMHOST_RUN_H
#define GEMMHOST_RUN_H

#include <stddef.h>
#include "config.h"
#include "plan.h"
#include "progress.h"
#include "report.h"
#include "resume.h"

typedef struct gh_run_summary {
    size_t passed, failed, unsupported, errors, unchecked, cancelled;
    size_t crashed, timeouts; /* results whose worker died or overran (isolation) */
    size_t requested_not_run; /* unsupported or errored results of requested backends */
} gh_run_summary;

/* Progress goes to stderr in the given mode. Returns nothing; the summary
 * decides the exit status. With `resume` (NULL: none), each result it holds
 * is reported again as it was, not run (a case partly in it runs its other
 * results, and those it holds again for the agreement only). Stops early,
 * the result in progress `cancelled`, when cancel.h says so. */
/* --resume: every final result in the file must be one this plan makes
 * (else it would be dropped). Returns 0, or -1 with err naming one that is
 * not, and the file. */
int gh_run_check_resume(const gh_plan *plan, const gh_resume *resume, const char *path, char *err, size_t err_size);

void gh_run_plan(const gh_config *cfg, gh_plan *plan, const gh_resume *resume, gh_report *report,
                 gh_progress_mode progress, gh_run_summary *summary);

#endif
