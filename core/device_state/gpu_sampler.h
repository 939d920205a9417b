/* Sampling a GPU's state around the timed repetitions of one result:
 * begin before the first, rep_before/rep_after around each, end after the
 * last (it fills gh_result's gpu member). Each sample is taken between
 * repetitions, outside the kernel's device-clock interval, so the kernel's
 * time is untouched; no thread runs beside the kernel. */
#ifndef GEMMHOST_GPU_SAMPLER_H
#define GEMMHOST_GPU_SAMPLER_H

#include "result.h"

typedef struct gh_gpu_sampler gh_gpu_sampler;

/* For r's device (r->device; NULL for a split group): never NULL. `fraction`
 * is run.throttle_clock_fraction, `repeat` the timed repetitions. */
gh_gpu_sampler *gh_gpu_sampler_begin(const gh_result *r, double fraction, int repeat);
void gh_gpu_sampler_rep_before(gh_gpu_sampler *s);
void gh_gpu_sampler_rep_after(gh_gpu_sampler *s);
/* Fills r->gpu from the samples and r's timing (NULL: the repetitions
 * failed; nothing is filled) and frees the sampler. */
void gh_gpu_sampler_end(gh_gpu_sampler *s, gh_result *r);

#endif
