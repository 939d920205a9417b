/* What a run is an experiment of: the config as run (file text plus --set
 * overrides) and the selection (--backend, --kernel, --device), as one
 * hash. Stored as "experiment" in the results JSON and the record log, so a
 * second run at the same output can tell its own earlier results (replaced,
 * or continued by --resume) from another experiment's (kept unless
 * --overwrite). */
#ifndef GEMMHOST_EXPERIMENT_H
#define GEMMHOST_EXPERIMENT_H

#include <stddef.h>

/* "fnv1a64:" and 16 hex digits; the caller frees. NULLs count as "". */
char *gh_experiment_id(const char *config_text, const char *backends, const char *kernels, const char *devices);

/* What is at an output already. */
typedef struct gh_earlier_run {
    int exists;       /* the JSON or the log is there */
    int readable;     /* one of them reads as gemmhost's results */
    char *experiment; /* NULL: none recorded (an older gemmhost) */
    int complete;
    size_t n_results;
    char why[512]; /* when not readable: why */
} gh_earlier_run;

/* Reads the results JSON, or the record log when the JSON is missing,
 * unreadable or incomplete (the log is then the newer). */
void gh_earlier_run_read(const char *json_path, const char *log_path, gh_earlier_run *out);
void gh_earlier_run_free(gh_earlier_run *e);

/* The experiment and completeness a JUnit file of gemmhost's records in its
 * properties: 0, or -1 when it has none (or cannot be read). *experiment is
 * the caller's. */
int gh_junit_experiment(const char *path, char **experiment, int *complete);

#endif
