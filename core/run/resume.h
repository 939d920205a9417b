/* --resume: the results JSON (or record log) of an earlier run at the same
 * --output, read back (jansson) so that a run that was stopped (a signal, a crash, a
 * SIGKILL) continues where it stopped. Every result there with a final
 * status is reported again as it was and not run; cancelled ones run again.
 * A file written with other settings (seed, alpha, beta, ld_pad, ...) is
 * refused: its results would not mean the same. */
#ifndef GEMMHOST_RESUME_H
#define GEMMHOST_RESUME_H

#include <stddef.h>
#include "config.h"
#include "report.h"
#include "result.h"

typedef struct gh_resume gh_resume;

/* The run settings that change results, as one JSON object: the report
 * stores it as "settings", and --resume compares it. NULL when out of memory. */
char *gh_resume_settings_json(const gh_config *cfg);

/* Reads the results JSON at `json_path`, or, when it is not complete, the
 * record log at `log_path` (result_log.h: newer; NULL: none). Returns 0 with
 * *out set, or with *out NULL when neither exists (nothing to resume); -1
 * with err when they cannot be read (a log's line in the middle that is not
 * a record: err names the file and the line), are not a gemmhost results
 * file, or the settings differ from `settings_json` (err names the setting
 * and both values). */
int gh_resume_load(const char *json_path, const char *log_path, const char *settings_json, gh_resume **out, char *err,
                   size_t err_size);
void gh_resume_free(gh_resume *r);

/* An earlier result, as it was reported, with what its row needs. */
typedef struct gh_resumed {
    gh_result result; /* strings point into the loaded file */
    gh_device_info device;
    /* A split's result: its entry in the "splits" list. */
    int has_split;
    double wall_ms;
    gh_report_split_member *members;
    size_t n_members;
    int found; /* a key of the plan found it */
} gh_resumed;

/* What identifies a result: who ran it on which case. */
typedef struct gh_result_key {
    int case_index;
    const char *backend;
    int device_index; /* -1 for a split */
    const char *device_name;
    const char *kernel, *params;
    gh_dtype dtype;
    int trans_a, trans_b;
    int64_t m, n, k;
    gh_case_types types; /* an 8-bit case's B and C types and scales are part of what it is */
} gh_result_key;

/* The earlier result of this key with a final status, or NULL (none, or it
 * was cancelled). */
const gh_resumed *gh_resume_find(const gh_resume *r, const gh_result_key *key);
/* The first final result of the file that no key of this run's plan finds
 * (each gh_resume_find that finds a result marks it), or NULL: a file with
 * one is not this run's, and resuming it would drop that result. */
const gh_result *gh_resume_first_unfound(const gh_resume *r);
/* The earlier agreement entry of a case, or NULL. */
const gh_agreement *gh_resume_agreement(const gh_resume *r, int case_index);
/* Results with a final status the file holds, and those it holds cancelled. */
size_t gh_resume_final_count(const gh_resume *r);
size_t gh_resume_cancelled_count(const gh_resume *r);

#endif
