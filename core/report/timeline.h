/* --timeline FILE: each split's run as a Chrome trace (the JSON that
 * chrome://tracing and ui.perfetto.dev open): one process per run of a
 * split (warm-up or timed), one track per member's host thread and per
 * stream, a span per upload, GEMM, download and wait, on the host clock. */
#ifndef GEMMHOST_TIMELINE_H
#define GEMMHOST_TIMELINE_H

#include <stddef.h>
#include "split.h"

/* Starts the process-wide timeline for `path` (checked as an output: a
 * regular file or nothing yet). Returns 0, or -1 with err. */
int gh_timeline_start(const char *path, char *err, size_t err_size);
/* 1 while a timeline is being recorded. */
int gh_timeline_active(void);
/* One run of a split: `label` names it ("split four, case 3: 64x64x64 f32 nn,
 * timed run 2"); members name the tracks. Copies what it needs. */
void gh_timeline_add_split(const char *label, const gh_split_member *members, size_t n_members,
                           const gh_split_event *events, size_t n_events);
/* Writes the file (through the output guard) and ends the timeline.
 * Returns 0 (also when none was started), or -1 with err. */
int gh_timeline_finish(char *err, size_t err_size);

#endif
