/* Shared by the report tests: sample results and a device (checks come from tests/check.h). */
#ifndef GEMMHOST_TEST_REPORT_FIXTURES_H
#define GEMMHOST_TEST_REPORT_FIXTURES_H

#include <stdio.h>
#include "result.h"

#include "../check.h"

extern const char *tricky_detail; /* quotes, a comma and a line break */

gh_device_info sample_device(void);
gh_result pass_result(const gh_device_info *dev, int case_index);
/* A wrong result: NaN and Inf in the numbers, tricky_detail as its reason. */
gh_result fail_result(const gh_device_info *dev);
/* Declined before running: no verify, no timing, no device (a split group). */
gh_result unsupported_result(void);
/* The whole of a file, NUL-terminated; NULL when it cannot be read. */
char *read_file(const char *path);
/* A stream's whole text (rewound first), malloc'd. */
char *read_stream(FILE *f);
/* Lines of text that start with `start`. */
int count_lines_starting(const char *text, const char *start);

#endif
