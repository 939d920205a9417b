/* gemmhost compare --junit FILE: the comparison as JUnit XML for a CI
 * system. One testsuite per later file against A; one testcase per matched
 * result, a <failure> when it regressed (its status got worse, it is SLOW, or
 * its output moved beyond its error bound), with the reason. */
#ifndef GEMMHOST_COMPARE_JUNIT_H
#define GEMMHOST_COMPARE_JUNIT_H

#include <jansson.h>
#include <stddef.h>

/* Writes the document `doc` (runs_analysis.h's) to path, whole or not at all.
 * Returns 0, or -1 with err naming the file and why. */
int gh_compare_junit_write(const json_t *doc, const char *path, char *err, size_t err_size);

#endif
