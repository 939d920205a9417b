/* The comparison itself: every later file against the first (speed
 * verdicts, status changes, new and missing results) and the agreement of
 * outputs across all files, as one JSON document that --json prints and
 * the text and Markdown reports render. */
#ifndef GEMMHOST_RUNS_ANALYSIS_H
#define GEMMHOST_RUNS_ANALYSIS_H

#include <jansson.h>
#include <stddef.h>

#include "results_file.h"
#include "runs_match.h"

/* The document; *regressions: results whose status got worse or that are
 * SLOW. */
json_t *gh_compare_analyse(const gh_results_file *files, size_t n, const gh_matches *m, double threshold,
                           size_t *regressions);

#endif
