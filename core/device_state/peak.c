/* Theoretical dense peaks of NVIDIA architectures; see peak.h. The rates
 * are NVIDIA's per-SM figures (V100, A100 and H100 whitepapers): each
 * product's spec-sheet peak divided by its SMs and its boost clock. */
#include "peak.h"

#include <stdio.h>

typedef struct arch_rates {
    int major, minor;
    int cores_per_sm;
    int rate[GH_PEAK_UNITS][GH_PEAK_N]; /* [unit][arith], flops/SM/clock: 0 none, -1 unknown */
} arch_rates;

/* SIMT i8 (dp4a) is left unknown: its rate is not in the whitepapers' tables.
 *                        f64   f32  tf32   f16  bf16  fp8    i8 */
static const arch_rates rates[] = {
    {7, 0, 64, {{64, 128, 0, 256, 0, 0, -1}, {0, 0, 0, 1024, 0, 0, 0}}},                   /* Volta (V100) */
    {8, 0, 64, {{64, 128, 0, 512, 256, 0, -1}, {128, 0, 1024, 2048, 2048, 0, 4096}}},      /* Ampere (A100) */
    {9, 0, 128, {{128, 256, 0, 512, 512, 0, -1}, {256, 0, 2048, 4096, 4096, 8192, 8192}}}, /* Hopper (H100, H200) */
    /* GA10x and Ada: SIMT known; tensor rates differ by product (GeForce
     * halves f32 accumulation), so unknown */
    {8, 6, 128, {{4, 256, 0, 256, 256, 0, -1}, {0, 0, -1, -1, -1, 0, -1}}},
    {8, 9, 128, {{4, 256, 0, 256, 256, 0, -1}, {0, 0, -1, -1, -1, -1, -1}}},
};

static const arch_rates *arch_of(int major, int minor)
{
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++)
        if (rates[i].major == major && rates[i].minor == minor) return &rates[i];
    return NULL;
}

const char *gh_peak_arith_name(gh_peak_arith a)
{
    static const char *const names[GH_PEAK_N] = {"f64", "f32", "tf32", "f16", "bf16", "fp8", "i8"};
    return (unsigned)a < GH_PEAK_N ? names[a] : "?";
}

const char *gh_peak_unit_name(gh_peak_unit u)
{
    return u == GH_PEAK_TENSOR ? "tensor" : "simt";
}

int gh_peak_flops_per_sm_clock(int cc_major, int cc_minor, gh_peak_arith a, gh_peak_unit u)
{
    const arch_rates *r = arch_of(cc_major, cc_minor);
    if (!r || (unsigned)a >= GH_PEAK_N || (unsigned)u >= GH_PEAK_UNITS) return -1;
    return r->rate[u][a];
}

int gh_peak_cores_per_sm(int cc_major, int cc_minor)
{
    const arch_rates *r = arch_of(cc_major, cc_minor);
    return r ? r->cores_per_sm : 0;
}

void gh_peak_derivation(int cc_major, int cc_minor, unsigned sms, double clock_mhz, char *out, size_t size)
{
    size_t len = 0;
    out[0] = '\0';
    for (int u = GH_PEAK_UNITS - 1; u >= 0; u--) {
        for (int a = 0; a < GH_PEAK_N; a++) {
            int rate = gh_peak_flops_per_sm_clock(cc_major, cc_minor, (gh_peak_arith)a, (gh_peak_unit)u);
            if (rate == 0 || len + 1 >= size) continue;
            const char *sep = len ? "; " : "";
            int w;
            if (rate < 0)
                w = snprintf(out + len, size - len, "%s%s %s unknown", sep, gh_peak_unit_name((gh_peak_unit)u),
                             gh_peak_arith_name((gh_peak_arith)a));
            else
                w = snprintf(out + len, size - len, "%s%s %s %u SMs x %.0f MHz x %d = %.1f TFLOP/s", sep,
                             gh_peak_unit_name((gh_peak_unit)u), gh_peak_arith_name((gh_peak_arith)a), sms, clock_mhz,
                             rate, (double)sms * clock_mhz * 1e6 * rate / 1e12);
            if (w > 0) len += (size_t)w < size - len ? (size_t)w : size - len - 1;
        }
    }
    if (!len) snprintf(out, size, "no per-SM rates known for compute capability %d.%d", cc_major, cc_minor);
}
