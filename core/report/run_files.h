/* The files one gemmhost invocation writes (results CSV and JSON, JUnit, the
 * tuning report, the tune cache, and the lock files beside them), checked
 * together before anything runs: each a regular file or nothing yet, no two
 * the same file (output_guard.h); then locked for the whole run, results
 * and tuning alike, so a second run aiming at them is refused
 * (output_lock.h). */
#ifndef GEMMHOST_RUN_FILES_H
#define GEMMHOST_RUN_FILES_H

#include <stddef.h>
#include "output_lock.h"
#include "report.h"

typedef struct gh_run_files_spec {
    const gh_report_options *report; /* its prefix and junit_path */
    int results;                     /* the results files and JUnit are written (not with --tune) */
    int tuning;                      /* the tuning report and the tune cache are written */
    const char *tune_cache;          /* the tune cache's path when tuning; NULL: none known */
} gh_run_files_spec;

/* The locks a run holds: on PREFIX.lock and JUNIT.lock. */
typedef struct gh_run_files {
    gh_output_lock *locks[2];
} gh_run_files;

/* The check alone (--dry-run). Returns 0, or -1 with err naming the file. */
int gh_run_files_check(const gh_run_files_spec *s, char *err, size_t err_size);

/* The check, then the locks. Returns 0 (release `held` at the end), or -1
 * with err (nothing held). */
int gh_run_files_hold(const gh_run_files_spec *s, gh_run_files *held, char *err, size_t err_size);

/* Lets the locks go and removes their files. Returns 0, or -1 with err. */
int gh_run_files_release(gh_run_files *held, char *err, size_t err_size);

#endif
