/* How much host memory a case needs, and how much the machine has, so a run
 * too large says so before it starts instead of allocating until killed. */
#ifndef GEMMHOST_HOST_MEMORY_H
#define GEMMHOST_HOST_MEMORY_H

#include <stdint.h>
#include "config.h"
#include "plan.h"

/* Bytes one case holds at its peak: A, B, C0 and the C each run starts
 * from, the output and its repeat scratch, one copy of C per distinct output
 * (estimated as one per backend instance or split, `n_outputs`), and the f64
 * reference and bounds when the whole reference is computed. */
uint64_t gh_case_host_bytes(const gh_run_config *run, gh_shape shape, gh_dtype dtype, size_t n_outputs);
/* MemAvailable from /proc/meminfo; 0 when unknown. */
uint64_t gh_host_bytes_available(void);
/* The largest case's host memory against what the machine has: 0 when it
 * fits (or the machine does not say), -1 with err naming the case and both
 * numbers (and how to override the check), 1 with the same words when
 * run.memory_check = warn lets it run anyway (a case whose byte count
 * overflows is refused whatever the setting). With `show`, prints the
 * estimate for each size and dtype. */
int gh_check_host_memory(const gh_config *cfg, const gh_plan *plan, int show, char *err, size_t size);

#endif
