/* repeat = auto's stopping rule (repeat_policy.h). */
#include <stdlib.h>
#include <string.h>

#include "repeat_policy.h"
#include "util.h"

static int ascending(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The q-quantile of sorted values, interpolated between neighbours. */
static double quantile(const double *sorted, int n, double q)
{
    double pos = q * (n - 1);
    int lo = (int)pos;
    if (lo >= n - 1) return sorted[n - 1];
    return sorted[lo] + (pos - lo) * (sorted[lo + 1] - sorted[lo]);
}

double gh_relative_iqr(const double *times, int n)
{
    if (n < 2) return 0;
    double *sorted = gh_xcalloc((size_t)n, sizeof *sorted);
    memcpy(sorted, times, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, ascending);
    double median = quantile(sorted, n, 0.5);
    double iqr = quantile(sorted, n, 0.75) - quantile(sorted, n, 0.25);
    free(sorted);
    return median > 0 ? iqr / median : 0;
}

int gh_repeat_enough(const gh_run_config *run, const double *times, int done, double elapsed_s)
{
    if (!run->repeat_auto) return 0;
    if (done >= run->max_repeat) return 1;
    if (done < run->min_repeat) return 0;
    if (elapsed_s >= run->max_time) return 1;
    return done >= 2 && gh_relative_iqr(times, done) <= run->target_spread;
}
