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

/* One case's inputs and reference, drawn and built as a run does for case
 * `index` (the seed stream): for measuring outside a plan (the tuner). NULL
 * when out of host memory. */
typedef struct gh_case_data gh_case_data;
gh_case_data *gh_case_data_new(const gh_run_config *run, int index, gh_shape shape, gh_dtype dtype, gh_trans trans);
void gh_case_data_free(gh_case_data *cd);

/* One kernel variant (no `auto` parameters) on one device of an instance, on
 * a prepared case, measured and verified as a run does; r gets the result,
 * not reported. A worker's fate settles into r (crashed, timeout) through
 * `streak`, the caller's. */
void gh_run_measure(const gh_run_config *run, gh_instance *inst, int device, const gh_kernel_variant *v,
                    gh_case_data *cd, gh_streak *streak, gh_progress *progress, gh_result *r);

void gh_run_plan(const gh_config *cfg, gh_plan *plan, const gh_resume *resume, gh_report *report,
                 gh_progress_mode progress, gh_run_summary *summary);

#endif
