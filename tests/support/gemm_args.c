#include "gemm_args.h"

gh_gemm_args gh_test_gemm_args(const gh_test_problem *p, gh_test_operand a, gh_test_operand b, gh_test_operand c,
                               const int64_t *params, size_t n_params)
{
    gh_gemm_args args = {.size = sizeof args};
    args.dtype = p->dtype;
    args.trans_a = p->trans_a;
    args.trans_b = p->trans_b;
    args.m = p->m;
    args.n = p->n;
    args.k = p->k;
    args.alpha = p->alpha;
    args.beta = p->beta;
    args.a = a.buf;
    args.b = b.buf;
    args.c = c.buf;
    args.lda = a.ld;
    args.ldb = b.ld;
    args.ldc = c.ld;
    args.a_offset = a.offset;
    args.b_offset = b.offset;
    args.c_offset = c.offset;
    args.params = params;
    args.n_params = n_params;
    return args;
}

gh_gemm_args gh_test_tight_args(gh_dtype dtype, int64_t m, int64_t n, int64_t k, gh_buffer *a, gh_buffer *b,
                                gh_buffer *c, const int64_t *params, size_t n_params)
{
    gh_test_problem p = {.dtype = dtype, .m = m, .n = n, .k = k, .alpha = 1.0, .beta = 0.0};
    return gh_test_gemm_args(&p, (gh_test_operand){a, k, 0}, (gh_test_operand){b, n, 0}, (gh_test_operand){c, n, 0},
                             params, n_params);
}

gh_gemm_args gh_test_typed_gemm_args(const gh_test_problem *p, const gh_test_types *types, gh_test_operand a,
                                     gh_test_operand b, gh_test_operand c, const int64_t *params, size_t n_params)
{
    gh_gemm_args args = gh_test_gemm_args(p, a, b, c, params, n_params);
    args.explicit_types = 1;
    args.dtype = types->a;
    args.b_dtype = types->b;
    args.c_dtype = types->c;
    args.scale_a = types->scale_a;
    args.scale_b = types->scale_b;
    args.scale_c = types->scale_c;
    return args;
}
