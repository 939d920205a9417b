/* Progress on stderr while a run goes: on a terminal one line rewritten in
 * place; elsewhere (a CI log) a plain line every few seconds with runs done,
 * runs in all and an estimate of the time left, also inside a long run (a
 * large `repeat`). Single-threaded: the run loop calls it. */
#ifndef GEMMHOST_PROGRESS_H
#define GEMMHOST_PROGRESS_H

#include <stddef.h>

typedef enum gh_progress_mode { GH_PROGRESS_OFF, GH_PROGRESS_TERMINAL, GH_PROGRESS_LOG } gh_progress_mode;

typedef struct gh_progress gh_progress;

/* interval_s: seconds between log lines (GEMMHOST_PROGRESS_INTERVAL overrides
 * it, so a test can ask for every step). Never NULL. */
gh_progress *gh_progress_start(gh_progress_mode mode, size_t total_runs, double interval_s);
/* Run number `done` (0-based) starts; `what` names it. */
void gh_progress_run(gh_progress *p, size_t done, const char *what);
/* Inside the current run: repetition `rep` (0-based, warm-up included) of `reps` starts. */
void gh_progress_repeat(gh_progress *p, long rep, long reps);
/* Before a line of output: a terminal's progress line is wiped first. */
void gh_progress_clear(gh_progress *p);
void gh_progress_finish(gh_progress *p);

#endif
