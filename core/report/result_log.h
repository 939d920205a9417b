/* The record log beside the results JSON: PREFIX.jsonl, JSON Lines, one
 * record per line, appended and flushed as it arrives, so that the cost of a
 * result is its own size and a run killed at any moment leaves every record
 * before the one being written (whose line may be cut).
 *
 * The first line is the run's head; each later line one record:
 *   {"record":"head","value":{"gemmhost":{...},"host":...,"experiment":...,"settings":{...},...}}
 *   {"record":"plugin"|"device"|"result"|"agreement"|"split","value":{...}}
 *   {"record":"note","value":"text"}
 *   {"record":"end","value":{"complete":true,"cancelled":false,"end":"..."}}
 * result_log_read.h reads it back as the document the JSON holds. */
#ifndef GEMMHOST_RESULT_LOG_H
#define GEMMHOST_RESULT_LOG_H

#include <stddef.h>
#include <stdint.h>

typedef struct gh_result_log gh_result_log;

/* Creates the log at `path` and writes the head (`head_json`: one JSON
 * object on one line). Staged (a resumed run, whose earlier log it
 * replaces): the lines go to PATH.tmp until gh_result_log_commit renames it
 * over PATH, so the earlier log stays whole until the new one holds as much.
 * NULL, with err naming the file, when it cannot. */
gh_result_log *gh_result_log_open(const char *path, const char *head_json, int staged, char *err, size_t err_size);
/* One record: `kind` as above, `value_json` its value (one line). 0, or -1
 * with err. */
int gh_result_log_append(gh_result_log *l, const char *kind, const char *value_json, char *err, size_t err_size);
/* A staged log takes the place of the earlier one (nothing for one that is not). */
int gh_result_log_commit(gh_result_log *l, char *err, size_t err_size);
/* Bytes written so far. */
uint64_t gh_result_log_bytes(const gh_result_log *l);
/* Closes (committing a staged log first); NULL is fine. 0, or -1 with err. */
int gh_result_log_close(gh_result_log *l, char *err, size_t err_size);
/* Closes without committing: a staged log is removed. */
void gh_result_log_abandon(gh_result_log *l);

#endif
