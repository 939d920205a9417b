#include "timing.h"

#include <stdlib.h>
#include "gemm_args.h"

static int compare_doubles(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

double gh_test_median(double *values, int n)
{
    if (n < 1) return 0.0;
    qsort(values, (size_t)n, sizeof values[0], compare_doubles);
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

double gh_test_median_kernel_ms(const gh_plugin_api *api, gh_plugin *ctx, int device, int kernel,
                                const gh_gemm_args *args, int repeats, gh_status *status)
{
    double ms[GH_TEST_MAX_REPEATS];
    if (repeats < 1) repeats = 1;
    if (repeats > GH_TEST_MAX_REPEATS) repeats = GH_TEST_MAX_REPEATS;
    *status = GH_OK;
    for (int r = -1; r < repeats; ++r) { /* r = -1 warms up */
        gh_gemm_timing timing = {.size = sizeof timing};
        gh_status st = api->gemm(ctx, device, kernel, args, &timing);
        if (st != GH_OK) {
            *status = st;
            return -1.0;
        }
        if (r >= 0) ms[r] = timing.kernel_ms;
    }
    return gh_test_median(ms, repeats);
}

double gh_test_gflops(int64_t m, int64_t n, int64_t k, double ms)
{
    return ms > 0.0 ? 2.0 * (double)m * (double)n * (double)k / (ms * 1e6) : 0.0;
}

gh_gemm_args gh_test_square_args(int64_t n, gh_buffer *a, gh_buffer *b, gh_buffer *c, const int64_t *params,
                                 size_t n_params)
{
    return gh_test_tight_args(GH_F32, n, n, n, a, b, c, params, n_params);
}
