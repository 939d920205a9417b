/* The results as JUnit XML (the Ant/Jenkins shape: testsuites, testsuite,
 * testcase with failure, error or skipped), so CI systems show them
 * natively. Like the JSON, the file is rewritten whole at the report's
 * checkpoints (report.c) and at close, through a temp file: a killed run
 * leaves a valid document. tests/report/junit.xsd is its schema. */
#ifndef GEMMHOST_JUNIT_H
#define GEMMHOST_JUNIT_H

#include <stddef.h>
#include "result.h"

typedef struct gh_junit gh_junit;

typedef struct gh_junit_info {
    const char *path;
    const char *timestamp; /* ISO 8601 UTC, when the run started */
    const char *hostname;
    const char *version; /* gemmhost's version and git commit */
    const char *commit;
    const char *experiment; /* experiment.h; NULL or "": none */
} gh_junit_info;

/* Writes nothing yet (see gh_junit_write). NULL, with err, when out of memory. */
gh_junit *gh_junit_open(const gh_junit_info *info, char *err, size_t err_size);
/* One testcase: classname "backend.kernel[params] on device", name "f32 nn
 * 37x53x29", time the median kernel seconds; FAIL is a failure, ERROR an
 * error, unsupported, unchecked and cancelled are skipped, each with its reason. */
int gh_junit_result(gh_junit *j, const gh_result *res, char *err, size_t err_size);
/* A line in the suite's system-out (the run's notes). */
int gh_junit_note(gh_junit *j, const char *text, char *err, size_t err_size);
/* Writes the document as it stands; adds its size to *written (NULL: not
 * counted). 0, or -1 with err. NULL is fine. */
int gh_junit_write(gh_junit *j, size_t *written, char *err, size_t err_size);
/* The run was cancelled: the last version says so and is not complete. */
void gh_junit_cancelled(gh_junit *j);
/* Writes the last version, marked complete, and frees; NULL is fine. */
int gh_junit_close(gh_junit *j, size_t *written, char *err, size_t err_size);
/* Frees without writing (the file stays as last written). */
void gh_junit_free(gh_junit *j);

#endif
