/* How many timed repetitions a result takes: repeat = N runs exactly N;
 * repeat = auto stops once the relative interquartile range of the times so
 * far reaches target_spread (after min_repeat), or at max_repeat, or once
 * the timed runs took max_time. */
#ifndef GEMMHOST_REPEAT_POLICY_H
#define GEMMHOST_REPEAT_POLICY_H

#include "config.h"

/* The relative interquartile range (Q3 - Q1) / median of n times (linear
 * interpolation between order statistics); 0 for n < 2 or a median of 0. */
double gh_relative_iqr(const double *times, int n);

/* Whether repeat = auto may stop after `done` timed runs whose times are
 * `times`, `elapsed_s` seconds of wall clock after the first began. Always 0
 * for repeat = N (the loop runs run->repeat). */
int gh_repeat_enough(const gh_run_config *run, const double *times, int done, double elapsed_s);

#endif
