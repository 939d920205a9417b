/* Outputs compared through their fingerprints (fingerprint.h): a matched
 * result whose output moved beyond its error bound against the baseline (a
 * regression), and per case the largest difference between the groups of
 * bit-identical outputs across all files, in units of the bound. */
#ifndef GEMMHOST_OUTPUT_DIFF_H
#define GEMMHOST_OUTPUT_DIFF_H

#include <jansson.h>
#include <stddef.h>

#include "results_file.h"
#include "runs_match.h"

/* A result's output against the baseline's: NULL when both are
 * bit-identical, either lacks a fingerprint or did not run; else
 * {"diff_in_bounds", "i", "j", "base_value", "other_value", "bound",
 * "beyond_bound"}: beyond_bound (a regression) when the largest difference
 * at the shared positions exceeds one bound. */
json_t *gh_output_change_json(const gh_rf_result *base, const gh_rf_result *other);

/* Adds to each entry of `agreement` (agreement_json's, one per case, "case"
 * its label) with more than one group "max_diff_in_bounds" and "worst" (the
 * two results that differ by it), or "fingerprints": false when no two
 * groups could be compared. */
void gh_output_agreement_diffs(json_t *agreement, const gh_results_file *files, const gh_matches *m);

#endif
