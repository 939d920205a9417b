/* One loop cut across threads: the core's large loops (seeded fills, the f64
 * reference, Freivalds' products) each write only their own outputs, so the
 * results do not depend on how many threads ran them. */
#ifndef GEMMHOST_PARALLEL_H
#define GEMMHOST_PARALLEL_H

#include <stdint.h>

/* Most parts a loop is cut into. */
#define GH_PARALLEL_MAX 256

/* Called once per part with [begin, end) of the loop and the part's number. */
typedef void (*gh_span_fn)(void *ctx, int64_t begin, int64_t end, int part);

/* Calls fn on `parts` consecutive spans of [0, n) (parts clamped to 1..n and
 * GH_PARALLEL_MAX): part 0 on the caller, each other on a thread of its own,
 * or inline when a thread cannot start. Returns when all are done. */
void gh_parallel_spans(int64_t n, int parts, gh_span_fn fn, void *ctx);

/* Threads to use: `requested`, or every online CPU when it is 0. */
int gh_parallel_threads(int requested);

#endif
