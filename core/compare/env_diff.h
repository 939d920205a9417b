/* What differs between the results files' environments (gemmhost version
 * and commit, host, settings, devices' names and drivers), and whether the
 * files can be compared at all (the seed draws the inputs). */
#ifndef GEMMHOST_ENV_DIFF_H
#define GEMMHOST_ENV_DIFF_H

#include <jansson.h>
#include <stddef.h>

#include "results_file.h"

/* A JSON array of {"what": ..., "values": [one string per file]}, only the
 * items whose values differ. */
json_t *gh_env_diff(const gh_results_file *files, size_t n);

/* -1 with err when a setting that changes results (the seed) differs. */
int gh_env_check_comparable(const gh_results_file *files, size_t n, char *err, size_t err_size);

#endif
