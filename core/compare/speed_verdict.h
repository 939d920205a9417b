/* The speed verdict of one matched pair, as nvbench_compare gives it: the
 * ratio of median kernel times, and SAME unless the change is beyond the
 * threshold and the two sides' [min, max] ranges do not overlap (then the
 * spread cannot explain it). */
#ifndef GEMMHOST_SPEED_VERDICT_H
#define GEMMHOST_SPEED_VERDICT_H

#include <stddef.h>

typedef enum gh_speed_verdict { GH_SPEED_NA, GH_SPEED_SAME, GH_SPEED_FAST, GH_SPEED_SLOW } gh_speed_verdict;

typedef struct gh_timing {
    double min, median, max; /* milliseconds; NAN when not measured */
} gh_timing;

/* The verdict of `now` against `base`; *ratio = now.median / base.median
 * (NAN for NA: a side has no positive median). threshold: 0.05 for 5%. */
gh_speed_verdict gh_speed_verdict_of(gh_timing base, gh_timing now, double threshold, double *ratio);
const char *gh_speed_verdict_name(gh_speed_verdict v);

/* The summary of a comparison's verdicts. */
typedef struct gh_speed_summary {
    size_t same, fast, slow, na;
    double log_ratio_sum; /* over the timed pairs (same + fast + slow) */
} gh_speed_summary;

void gh_speed_summary_add(gh_speed_summary *s, gh_speed_verdict v, double ratio);
/* The geometric mean of the timed pairs' ratios; NAN when none. */
double gh_speed_summary_geomean(const gh_speed_summary *s);

#endif
