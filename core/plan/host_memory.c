/* Host memory estimate; see host_memory.h. */
#include "host_memory.h"

#include <stdio.h>
#include <string.h>

#include "data.h"
#include "split.h"

/* Saturating at UINT64_MAX, which no machine has: an estimate that
 * overflows is refused like one that is too large, never wrapped small. */
static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

static uint64_t matrix_bytes(const gh_run_config *run, gh_dtype dtype, int64_t rows, int64_t cols)
{
    uint64_t elements = sat_add(sat_mul((uint64_t)rows, sat_add((uint64_t)cols, (uint64_t)run->ld_pad)),
                                sat_mul(2, (uint64_t)run->guard));
    return sat_mul(elements, gh_dtype_size(dtype));
}

static int full_reference(const gh_run_config *run, gh_shape s)
{
    double flops = 2.0 * (double)s.m * (double)s.n * (double)s.k;
    return run->verify == GH_VERIFY_FULL || (run->verify == GH_VERIFY_AUTO && flops <= run->full_max_flops);
}

uint64_t gh_case_host_bytes(const gh_run_config *run, gh_shape s, gh_dtype dtype, size_t n_outputs)
{
    /* Transposes swap rows and columns: the same bytes up to the padding. */
    const gh_case_types t = gh_run_case_types(run, dtype); /* an 8-bit case's B and C types */
    uint64_t a = matrix_bytes(run, t.a, s.m, s.k), b = matrix_bytes(run, t.b, s.k, s.n);
    uint64_t c = matrix_bytes(run, t.c, s.m, s.n);
    uint64_t total = sat_add(sat_add(a, b), sat_mul(sat_add(4, (uint64_t)n_outputs), c));
    if (full_reference(run, s))
        total = sat_add(total, sat_mul(sat_mul(2 * sizeof(double), (uint64_t)s.m), (uint64_t)s.n));
    return total;
}

uint64_t gh_host_bytes_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return 0;
    char line[256];
    unsigned long long kib = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1) break;
    fclose(f);
    return (uint64_t)kib * 1024;
}

/* Outputs one case keeps for the agreement table, estimated as one per
 * instance that runs and per split. */
static size_t output_copies(const gh_plan *plan)
{
    size_t n = plan->n_splits;
    for (size_t i = 0; i < plan->n_instances; i++) n += plan->instances[i].runs_alone && !plan->instances[i].problem;
    return n;
}

/* The largest case's host memory against what the machine has: 0 when it
 * fits (or the machine does not say), -1 with err naming the case and both
 * numbers. With `show`, prints the estimate for each size and dtype. */
int gh_check_host_memory(const gh_config *cfg, const gh_plan *plan, int show, char *err, size_t size)
{
    const gh_run_config *run = &cfg->run;
    uint64_t have = gh_host_bytes_available(), worst = 0;
    size_t copies = output_copies(plan);
    gh_shape worst_shape = {0, 0, 0};
    gh_dtype worst_dtype = GH_F32;
    uint32_t in_cases = 0; /* with dtype = auto, the plan keeps only the dtypes some kernel runs */
    for (size_t c = 0; c < plan->n_cases; c++) in_cases |= GH_DTYPE_BIT(plan->cases[c].dtype);
    for (size_t s = 0; s < run->n_sizes; s++)
        for (size_t d = 0; d < run->n_dtypes; d++) {
            if (run->dtype_auto && !(in_cases & GH_DTYPE_BIT(run->dtypes[d]))) continue;
            uint64_t need = gh_case_host_bytes(run, run->sizes[s], run->dtypes[d], copies);
            if (show) {
                char text[64];
                gh_split_format_bytes(need, text, sizeof text);
                printf("  host memory for %lldx%lldx%lld %s: %s%s\n", (long long)run->sizes[s].m,
                       (long long)run->sizes[s].n, (long long)run->sizes[s].k, gh_dtype_name(run->dtypes[d]),
                       need == UINT64_MAX ? "" : "about ", text);
            }
            if (need > worst) {
                worst = need;
                worst_shape = run->sizes[s];
                worst_dtype = run->dtypes[d];
            }
        }
    char where[512], shape[96];
    gh_origin_format(&run->sizes_origin, where, sizeof where);
    snprintf(shape, sizeof shape, "%lldx%lldx%lld %s", (long long)worst_shape.m, (long long)worst_shape.n,
             (long long)worst_shape.k, gh_dtype_name(worst_dtype));
    if (worst == UINT64_MAX) {
        /* Refused even where the machine does not say what it has. */
        snprintf(err, size,
                 "case %s is too large: its host memory overflows a 64-bit byte count (more than 16 EiB), so no "
                 "machine can run it; use smaller sizes (sizes: %s)",
                 shape, where);
        return -1;
    }
    if (have == 0 || worst <= have) return 0;
    char need_text[64], have_text[64];
    gh_split_format_bytes(worst, need_text, sizeof need_text);
    gh_split_format_bytes(have, have_text, sizeof have_text);
    const int warn = run->memory_check == GH_MEMORY_CHECK_WARN;
    snprintf(err, size,
             "case %s needs about %s of host memory (%llu bytes) and this machine has "
             "%s available (%llu bytes)%s%s%s%s",
             shape, need_text, (unsigned long long)worst, have_text, (unsigned long long)have,
             warn ? "; running anyway, as run.memory_check = warn asks" : ": use smaller sizes (sizes: ",
             warn ? "" : where, warn ? "" : ")",
             warn ? ""
                  : (full_reference(run, worst_shape)
                         ? ", or verify = freivalds to skip the full f64 reference; where available memory grows as it "
                           "is used (some VMs), --set run.memory_check=warn runs it anyway"
                         : "; where available memory grows as it is used (some VMs), --set run.memory_check=warn runs "
                           "it anyway"));
    return warn ? 1 : -1;
}
