#include "reference.h"

#include <math.h>
#include <string.h>
#include "data.h"
#include "host_gemm.h"

/* A dense rows x cols f64 matrix holding `values`, as the host stores one. */
static int wrap(gh_matrix *m, int64_t rows, int64_t cols, const double *values)
{
    if (gh_matrix_alloc(m, GH_F64, rows, cols, cols, 0) != 0) return -1;
    memcpy(gh_matrix_data(m), values, (size_t)(rows * cols) * sizeof *values);
    return 0;
}

int gh_test_reference_products(int64_t m, int64_t n, int64_t k, const double *op_a, const double *op_b, double *sum,
                               double *abs_sum)
{
    gh_matrix a = {0}, b = {0};
    int rc = -1;
    if (wrap(&a, m, k, op_a) == 0 && wrap(&b, k, n, op_b) == 0) {
        /* gh_host_products adds into them. */
        memset(sum, 0, (size_t)(m * n) * sizeof *sum);
        memset(abs_sum, 0, (size_t)(m * n) * sizeof *abs_sum);
        gh_case_inputs in = {.dtype = GH_F64, .m = m, .n = n, .k = k, .alpha = 1.0, .a = &a, .b = &b};
        rc = gh_host_products(&in, 0, sum, abs_sum);
    }
    gh_matrix_free(&a);
    gh_matrix_free(&b);
    return rc;
}

static double gamma_n(double n, double u)
{
    return n * u / (1.0 - n * u);
}

double gh_test_error_bound(gh_dtype dtype, int64_t k, double alpha, double beta, double abs_sum, double c0)
{
    if (dtype == GH_I32) return 0.0;
    double u = dtype == GH_F32 ? 0x1.0p-24 : 0x1.0p-53;
    double scale = fabs(alpha) * abs_sum + (beta != 0.0 ? fabs(beta) * fabs(c0) : 0.0);
    return (gamma_n((double)k + 2.0, u) + gamma_n((double)k, 0x1.0p-53)) * scale;
}

double gh_test_error_bound_8bit(gh_dtype c_dtype, int64_t k, double alpha_ab, double beta, double scale_c,
                                double abs_sum, double c0, double ref)
{
    if (c_dtype == GH_I32) return 0.0;
    double scale = fabs(scale_c) * (fabs(alpha_ab) * abs_sum + (beta != 0.0 ? fabs(beta) * fabs(c0) : 0.0));
    double sum_bound = (gamma_n((double)k + 4.0, 0x1.0p-24) + gamma_n((double)k, 0x1.0p-53)) * scale;
    double u_c = c_dtype == GH_F16 ? 0x1.0p-11 : c_dtype == GH_BF16 ? 0x1.0p-8 : 0x1.0p-24;
    double subnormal = c_dtype == GH_F16 ? 0x1.0p-25 : 0.0;
    return sum_bound + u_c * (fabs(ref) + sum_bound) + subnormal;
}
