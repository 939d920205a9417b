/* A GPU's state around the timed repetitions of one result; see
 * gpu_sampler.h. */
#include "gpu_sampler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock_events.h"
#include "data.h"
#include "nvml_device.h"
#include "peak.h"
#include "util.h"

struct gh_gpu_sampler {
    const gh_nvml *nv;
    gh_nvml_gpu *gpu;
    char why[256]; /* no device: why; else the first failed call, "" none */
    double fraction;
    int cap, n;               /* samples taken */
    double *sm, *mem, *power; /* per sample; power < 0 unknown */
    double temperature_max;
    unsigned long long events;
    int clocks_ok;    /* every clock call answered */
    int energy_ok;    /* every energy read answered */
    int answered_any; /* some sampling call answered */
    unsigned long long energy_before, energy_mj;
    int energy_still; /* runs across which the energy counter did not move */
};

/* Keeps the first failure: the one that says most. */
static int answered(gh_gpu_sampler *s, const char *call, gh_nvml_return r)
{
    if (r == 0) return s->answered_any = 1;
    if (!*s->why) gh_nvml_failure(s->nv, call, r, s->why, sizeof s->why);
    return 0;
}

gh_gpu_sampler *gh_gpu_sampler_begin(const gh_result *r, double fraction, int repeat)
{
    gh_gpu_sampler *s = gh_xcalloc(1, sizeof *s);
    s->fraction = fraction;
    s->gpu = gh_nvml_gpu_for(r->device, &s->nv, s->why, sizeof s->why);
    if (!s->gpu) return s;
    s->cap = repeat > 0 ? repeat : 1;
    s->sm = gh_xcalloc((size_t)s->cap, sizeof *s->sm);
    s->mem = gh_xcalloc((size_t)s->cap, sizeof *s->mem);
    s->power = gh_xcalloc((size_t)s->cap, sizeof *s->power);
    s->temperature_max = -1;
    s->clocks_ok = s->energy_ok = 1;
    return s;
}

void gh_gpu_sampler_rep_before(gh_gpu_sampler *s)
{
    if (!s->gpu || !s->energy_ok) return;
    s->energy_ok = answered(s, "nvmlDeviceGetTotalEnergyConsumption", s->nv->energy(s->gpu->dev, &s->energy_before));
}

void gh_gpu_sampler_rep_after(gh_gpu_sampler *s)
{
    if (!s->gpu || s->n >= s->cap) return;
    const gh_nvml *nv = s->nv;
    gh_nvml_device d = s->gpu->dev;
    if (s->energy_ok) {
        unsigned long long now = 0;
        s->energy_ok = answered(s, "nvmlDeviceGetTotalEnergyConsumption", nv->energy(d, &now));
        if (s->energy_ok && now >= s->energy_before) s->energy_mj += now - s->energy_before;
        if (s->energy_ok && now == s->energy_before) s->energy_still++;
    }
    unsigned sm = 0, mem = 0, temp = 0, mw = 0;
    unsigned long long events = 0;
    if (s->clocks_ok)
        s->clocks_ok = answered(s, "nvmlDeviceGetClockInfo(SM)", nv->clock(d, GH_NVML_CLOCK_SM, &sm)) &&
                       answered(s, "nvmlDeviceGetClockInfo(MEM)", nv->clock(d, GH_NVML_CLOCK_MEM, &mem));
    s->sm[s->n] = sm;
    s->mem[s->n] = mem;
    if (answered(s, "nvmlDeviceGetTemperature", nv->temperature(d, GH_NVML_TEMPERATURE_GPU, &temp)) &&
        temp > s->temperature_max)
        s->temperature_max = temp;
    s->power[s->n] = answered(s, "nvmlDeviceGetPowerUsage", nv->power(d, &mw)) ? mw / 1000.0 : -1;
    if (answered(s, "nvmlDeviceGetCurrentClocksEventReasons", nv->clock_events(d, &events))) s->events |= events;
    s->n++;
}

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Sorts v. */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Median of v[0..n) that are >= 0; -1 when none. */
static double median_known(double *v, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (v[i] >= 0) v[k++] = v[i];
    return k ? median(v, k) : -1;
}

static double min_of(const double *v, int n)
{
    double m = v[0];
    for (int i = 1; i < n; i++)
        if (v[i] < m) m = v[i];
    return m;
}

/* Which peak a result is held to: its arithmetic's best unit on this chip
 * (tensor cores where the chip has them for it, else SIMT). */
static void peak_of(const gh_nvml_gpu *g, const gh_result *r, gh_gpu_state *st)
{
    st->peak_percent = -1;
    gh_peak_arith a;
    switch (r->dtype) {
    case GH_F64: a = GH_PEAK_F64; break;
    case GH_F32: a = r->arith.u_in > 1e-5 ? GH_PEAK_TF32 : GH_PEAK_F32; break; /* TF32 inputs: u = 2^-11 */
    case GH_F16: a = GH_PEAK_F16; break;
    case GH_BF16: a = GH_PEAK_BF16; break;
    case GH_E4M3:
    case GH_E5M2: a = GH_PEAK_FP8; break;
    case GH_I8: a = GH_PEAK_I8; break;
    default: snprintf(st->peak_why, sizeof st->peak_why, "no peak for %s", gh_dtype_name(r->dtype)); return;
    }
    if (g->cc_major < 0 || !g->sms || !g->max_sm_mhz) {
        snprintf(st->peak_why, sizeof st->peak_why, "unknown: %s", strchr(g->peak_note, ':') + 2);
        return;
    }
    for (int u = GH_PEAK_TENSOR; u >= GH_PEAK_SIMT; u--) {
        int rate = gh_peak_flops_per_sm_clock(g->cc_major, g->cc_minor, a, (gh_peak_unit)u);
        if (rate < 0) {
            snprintf(st->peak_why, sizeof st->peak_why, "unknown: %s %s rate of compute capability %d.%d",
                     gh_peak_unit_name((gh_peak_unit)u), gh_peak_arith_name(a), g->cc_major, g->cc_minor);
            return;
        }
        if (rate == 0) continue;
        st->peak_gflops = (double)g->sms * g->max_sm_mhz * 1e6 * rate / 1e9;
        snprintf(st->peak_unit, sizeof st->peak_unit, "%s", gh_peak_unit_name((gh_peak_unit)u));
        if (r->repeats > 0) st->peak_percent = 100.0 * r->gflops / st->peak_gflops;
        return;
    }
    snprintf(st->peak_why, sizeof st->peak_why, "compute capability %d.%d has no %s unit", g->cc_major, g->cc_minor,
             gh_peak_arith_name(a));
}

/* Power or thermal reasons, or an SM clock under the fraction of its max. */
static void judge_throttle(const gh_gpu_sampler *s, gh_gpu_state *st)
{
    char events[160] = "";
    gh_clock_events_text(s->events & GH_CLOCK_EVENTS_THROTTLE, events, sizeof events);
    int slow = st->samples > 0 && st->sm_clock_mhz_max > 0 && st->sm_clock_mhz_min < s->fraction * st->sm_clock_mhz_max;
    st->throttled = *events || slow;
    if (*events && slow)
        snprintf(st->throttle_reason, sizeof st->throttle_reason,
                 "%s; SM clock fell to %.0f MHz, under %g x its max %.0f MHz", events, st->sm_clock_mhz_min,
                 s->fraction, st->sm_clock_mhz_max);
    else if (slow)
        snprintf(st->throttle_reason, sizeof st->throttle_reason,
                 "SM clock fell to %.0f MHz, under %g x its max %.0f MHz", st->sm_clock_mhz_min, s->fraction,
                 st->sm_clock_mhz_max);
    else if (*events) snprintf(st->throttle_reason, sizeof st->throttle_reason, "%s", events);
}

static void fill(gh_gpu_sampler *s, gh_result *r)
{
    gh_gpu_state *st = &r->gpu;
    memset(st, 0, sizeof *st);
    st->temperature_c_max = st->power_w_median = st->energy_j = st->gflop_per_j = st->peak_percent = -1;
    if (!s->gpu) {
        snprintf(st->state, sizeof st->state, "%s", s->why);
        return;
    }
    st->note = s->gpu->peak_note;
    st->sm_clock_mhz_max = s->gpu->max_sm_mhz;
    peak_of(s->gpu, r, st);
    snprintf(st->state, sizeof st->state, "%s%.230s",
             !*s->why          ? "sampled"
             : s->answered_any ? "partly sampled: "
                               : "not sampled: ",
             s->why);
    if (s->n == 0) return;
    st->samples = s->n;
    if (s->clocks_ok) {
        st->sm_clock_mhz_min = min_of(s->sm, s->n);
        st->mem_clock_mhz_min = min_of(s->mem, s->n);
        st->sm_clock_mhz_median = median(s->sm, s->n);
        st->mem_clock_mhz_median = median(s->mem, s->n);
    }
    st->temperature_c_max = s->temperature_max;
    st->power_w_median = median_known(s->power, s->n);
    /* NVML's energy counter moves in steps (docs/results.md, energy_note):
     * a run it did not move across took a step's energy from another, so
     * the sum is only the runs' energy when every run saw it move. */
    if (!s->energy_ok) {
        snprintf(st->energy_why, sizeof st->energy_why, "unknown: NVML's energy counter did not answer");
    } else if (s->energy_still) {
        snprintf(st->energy_why, sizeof st->energy_why,
                 "unknown: NVML's energy counter did not move across %d of %d runs (its steps are longer than a "
                 "run; longer runs, or a larger case, measure it)",
                 s->energy_still, s->n);
    } else {
        st->energy_j = s->energy_mj / 1000.0;
        if (st->energy_j > 0)
            st->gflop_per_j = 2.0 * (double)r->m * (double)r->n * (double)r->k * r->repeats / 1e9 / st->energy_j;
    }
    st->clock_events = s->events;
    gh_clock_events_text(s->events, st->clock_events_text, sizeof st->clock_events_text);
    if (!s->clocks_ok) st->sm_clock_mhz_max = 0; /* no clock samples: no clock judgement */
    judge_throttle(s, st);
    if (!s->clocks_ok) st->sm_clock_mhz_max = s->gpu->max_sm_mhz;
}

void gh_gpu_sampler_end(gh_gpu_sampler *s, gh_result *r)
{
    if (r) fill(s, r);
    free(s->sm);
    free(s->mem);
    free(s->power);
    free(s);
}
