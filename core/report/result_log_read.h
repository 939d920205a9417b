/* The record log (result_log.h) read back as the document the results JSON
 * holds: the head's members, "complete", "cancelled", "time" and the lists
 * "plugins", "devices", "results", "agreement", "splits" and "notes".
 * A final line cut by a kill is left out; any other line that is not a
 * record is an error naming the file and the line. */
#ifndef GEMMHOST_RESULT_LOG_READ_H
#define GEMMHOST_RESULT_LOG_READ_H

#include <jansson.h>
#include <stddef.h>

/* Returns 0 with *doc (the caller's, json_decref), -1 with err. */
int gh_result_log_load(const char *path, json_t **doc, char *err, size_t err_size);

/* Whether a results JSON and a log document are of one run (the same start
 * time and experiment), so the log may stand in for a JSON that is behind. */
int gh_result_log_same_run(const json_t *json_doc, const json_t *log_doc);

#endif
