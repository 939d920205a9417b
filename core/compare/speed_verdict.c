/* Speed verdicts; see speed_verdict.h. */
#include "speed_verdict.h"

#include <math.h>

static int measured(gh_timing t)
{
    return isfinite(t.median) && t.median > 0;
}

/* A side without a range (one repeat, an older row) stands for its median. */
static void range_of(gh_timing t, double *lo, double *hi)
{
    *lo = isfinite(t.min) && t.min > 0 && t.min <= t.median ? t.min : t.median;
    *hi = isfinite(t.max) && t.max >= t.median ? t.max : t.median;
}

gh_speed_verdict gh_speed_verdict_of(gh_timing base, gh_timing now, double threshold, double *ratio)
{
    if (!measured(base) || !measured(now)) {
        *ratio = NAN;
        return GH_SPEED_NA;
    }
    *ratio = now.median / base.median;
    double base_lo, base_hi, now_lo, now_hi;
    range_of(base, &base_lo, &base_hi);
    range_of(now, &now_lo, &now_hi);
    int overlap = now_lo <= base_hi && base_lo <= now_hi;
    if (overlap || fabs(*ratio - 1) <= threshold) return GH_SPEED_SAME;
    return *ratio > 1 ? GH_SPEED_SLOW : GH_SPEED_FAST;
}

const char *gh_speed_verdict_name(gh_speed_verdict v)
{
    switch (v) {
    case GH_SPEED_SAME: return "SAME";
    case GH_SPEED_FAST: return "FAST";
    case GH_SPEED_SLOW: return "SLOW";
    case GH_SPEED_NA: break;
    }
    return "n/a";
}

void gh_speed_summary_add(gh_speed_summary *s, gh_speed_verdict v, double ratio)
{
    switch (v) {
    case GH_SPEED_SAME: s->same++; break;
    case GH_SPEED_FAST: s->fast++; break;
    case GH_SPEED_SLOW: s->slow++; break;
    case GH_SPEED_NA: s->na++; return;
    }
    s->log_ratio_sum += log(ratio);
}

double gh_speed_summary_geomean(const gh_speed_summary *s)
{
    size_t timed = s->same + s->fast + s->slow;
    return timed ? exp(s->log_ratio_sum / (double)timed) : NAN;
}
