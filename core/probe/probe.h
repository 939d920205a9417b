/* gemmhost probe: an arithmetic fingerprint of each selected kernel and
 * dtype, measured with small crafted GEMMs (core/probe/probe_cases.c) under
 * the same isolation as a run, compared with what each kernel declares.
 * docs/probe.md has the cases and their limits. */
#ifndef GEMMHOST_PROBE_H
#define GEMMHOST_PROBE_H

#include "config.h"
#include "plan.h"

typedef struct gh_probe_options {
    const char *json_path; /* --output PREFIX: PREFIX.json gets the JSON; NULL: none */
    int json_stdout;       /* --json: the JSON on stdout instead of the table */
    int quiet;             /* --quiet: no table, the totals line only */
} gh_probe_options;

/* Probes every instance, device, kernel variant and dtype the plan selects.
 * Returns the exit status: 0 every finding agrees with its declaration; 1 a
 * mismatch, or a case crashed or hung; 3 nothing could be probed (or the
 * JSON could not be written). */
int gh_probe(const gh_config *cfg, const gh_plan *plan, const gh_probe_options *o);

#endif
