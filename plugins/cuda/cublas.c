/* cuBLAS GEMM for row-major matrices; see cublas.h. */
#include "cublas.h"

#include <limits.h>

#include "devices.h"
#include "errors.h"

/* One handle per stream (the device's own, and each gh_stream's), made on
 * first use with the device's primary context current, so cuBLAS (built on
 * the runtime API) works in the same context as our buffers. */
static gh_status get_handle(const gh_cuda_device *dev, const gh_cublas_api *cb, cublasHandle_t *slot, CUstream stream)
{
    if (*slot) return GH_OK;
    cublasHandle_t h = NULL;
    gh_status st = gh_cublas_check(cb->cublasCreate(&h), "cublasCreate on device %d", dev->index);
    if (st) return st;
    if ((st = gh_cublas_check(cb->cublasSetStream(h, (cudaStream_t)stream), "cublasSetStream")) ||
        (st = gh_cublas_check(cb->cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST),
                              "cublasSetPointerMode(CUBLAS_POINTER_MODE_HOST)"))) {
        cb->cublasDestroy(h);
        return st;
    }
    *slot = h;
    return GH_OK;
}

/* Default math: f32 stays f32 (no TF32 tensor cores); cublas-tf32 asks for
 * TF32 through its compute type, call by call. The library's default allows
 * split-K sums in f16 or bf16 when C is; cublas-strict forbids them, keeping
 * them in the f32 compute type. Set on every call: one handle serves all
 * three kernels. */
static gh_status set_math(const gh_cublas_api *cb, cublasHandle_t h, int strict)
{
    const cublasMath_t want =
        strict ? (cublasMath_t)(CUBLAS_DEFAULT_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION)
               : CUBLAS_DEFAULT_MATH;
    const char *name =
        strict ? "CUBLAS_DEFAULT_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION" : "CUBLAS_DEFAULT_MATH";
    cublasMath_t mode = CUBLAS_TF32_TENSOR_OP_MATH;
    gh_status st;
    if ((st = gh_cublas_check(cb->cublasSetMathMode(h, want), "cublasSetMathMode(%s)", name)) ||
        (st = gh_cublas_check(cb->cublasGetMathMode(h, &mode), "cublasGetMathMode")))
        return st;
    if (mode != want)
        return gh_plugin_set_error(GH_ERROR, "cuBLAS kept math mode %d after cublasSetMathMode(%s) (%d)", (int)mode,
                                   name, (int)want);
    return GH_OK;
}

/* The cudaDataType of a dtype's matrices in cublasGemmEx. */
static cudaDataType gemm_ex_type(gh_dtype dtype)
{
    return dtype == GH_F16 ? CUDA_R_16F : dtype == GH_BF16 ? CUDA_R_16BF : CUDA_R_32F;
}

gh_status gh_cuda_cublas_enqueue(gh_plugin *ctx, gh_cuda_device *dev, cublasHandle_t *handle, CUstream stream,
                                 int variant, const gh_gemm_args *a, const gh_cuda_timed *t)
{
    const int tf32 = variant == GH_CUDA_BLAS_TF32;
    const char *why = NULL;
    const gh_cublas_api *cb = gh_cuda_cublas(&why);
    if (!cb) return gh_plugin_set_error(GH_UNSUPPORTED, "%s", why);
    if (a->lda > INT_MAX || a->ldb > INT_MAX || a->ldc > INT_MAX)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "cuBLAS takes 32-bit leading dimensions (lda %lld, ldb %lld, ldc %lld)",
                                   (long long)a->lda, (long long)a->ldb, (long long)a->ldc);
    gh_status st = get_handle(dev, cb, handle, stream);
    if (st || (st = set_math(cb, *handle, variant == GH_CUDA_BLAS_STRICT))) return st;

    /* cuBLAS is column-major, and a row-major matrix read as column-major is
     * its transpose. So C^T = op(B)^T op(A)^T: pass B first and A second,
     * with N and M swapped and each operand's transpose flag and leading
     * dimension as given. The result lands in C as row-major M x N. */
    size_t es = gh_plugin_dtype_size(a->dtype);
    CUdeviceptr A = a->a->ptr + a->a_offset * es;
    CUdeviceptr B = a->b->ptr + a->b_offset * es;
    CUdeviceptr C = a->c->ptr + a->c_offset * es;
    cublasOperation_t op_b = a->trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasOperation_t op_a = a->trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
    int m = (int)a->n, n = (int)a->m, k = (int)a->k;
    int lda = (int)a->lda, ldb = (int)a->ldb, ldc = (int)a->ldc;

    if (t && t->prepare_only) return GH_OK;
    if ((st = gh_cuda_timed_begin(ctx->cu, dev->index, t, stream))) return st;
    for (unsigned i = 0; i < gh_cuda_launches(t) && st == GH_OK; ++i) {
        if (a->dtype == GH_F32 && !tf32) {
            float alpha = (float)a->alpha, beta = (float)a->beta;
            st = gh_cublas_check(cb->cublasSgemm(*handle, op_b, op_a, m, n, k, &alpha, (const float *)B, ldb,
                                                 (const float *)A, lda, &beta, (float *)C, ldc),
                                 "cublasSgemm on device %d", dev->index);
        } else if (a->dtype == GH_F64) {
            double alpha = a->alpha, beta = a->beta;
            st = gh_cublas_check(cb->cublasDgemm(*handle, op_b, op_a, m, n, k, &alpha, (const double *)B, ldb,
                                                 (const double *)A, lda, &beta, (double *)C, ldc),
                                 "cublasDgemm on device %d", dev->index);
        } else {
            /* f16 and bf16 with f32 compute (alpha and beta f32, as plugin.h
             * has them), or f32 with inputs rounded to TF32. */
            float alpha = (float)a->alpha, beta = (float)a->beta;
            const cudaDataType type = gemm_ex_type(a->dtype);
            const cublasComputeType_t compute = tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
            st = gh_cublas_check(cb->cublasGemmEx(*handle, op_b, op_a, m, n, k, &alpha, (const void *)B, type, ldb,
                                                  (const void *)A, type, lda, &beta, (void *)C, type, ldc, compute,
                                                  CUBLAS_GEMM_DEFAULT),
                                 "cublasGemmEx(%s, %s) on device %d", gh_plugin_dtype_name(a->dtype),
                                 tf32 ? "CUBLAS_COMPUTE_32F_FAST_TF32" : "CUBLAS_COMPUTE_32F", dev->index);
            /* What this device's cuBLAS cannot do, e.g. a dtype on an older chip. */
            if (st == GH_UNSUPPORTED)
                gh_plugin_append_error(" (%s, compute capability %d.%d)", dev->name, dev->cc_major, dev->cc_minor);
        }
    }
    if (st) return st;
    return gh_cuda_timed_end(ctx->cu, dev->index, t, stream);
}

void gh_cuda_cublas_destroy(const gh_cuda_device *dev, cublasHandle_t *handle)
{
    if (!*handle) return;
    const gh_cublas_api *cb = gh_cuda_cublas(NULL);
    if (cb) gh_cublas_check(cb->cublasDestroy(*handle), "cublasDestroy on device %d", dev->index);
    *handle = NULL;
}
