/* The cuBLAS baseline as users get it: cuBLASLt with a workspace, its
 * heuristic's top candidates timed once per case, the fastest kept; see
 * cublaslt.h. */
#include "cublaslt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cublas.h"
#include "errors.h"

_Static_assert(sizeof(cublasLtMatmulAlgo_t) == GH_LT_ALGO_BYTES, "lt_plan.h holds a cublasLtMatmulAlgo_t");

static const char *const variant_names[] = {"cublas",       "cublas-tf32",       "cublas-strict",
                                            "cublaslt-fp8", "cublaslt-fp8-fast", "cublaslt-i8"};

static int is_fp8_variant(int variant)
{
    return variant == GH_CUDA_BLAS_FP8 || variant == GH_CUDA_BLAS_FP8_FAST;
}

/* One matrix type as cuBLASLt names it. */
static cudaDataType data_type(gh_dtype d)
{
    switch (d) {
    case GH_F64: return CUDA_R_64F;
    case GH_F16: return CUDA_R_16F;
    case GH_BF16: return CUDA_R_16BF;
    case GH_E4M3: return CUDA_R_8F_E4M3;
    case GH_E5M2: return CUDA_R_8F_E5M2;
    case GH_I8: return CUDA_R_8I;
    case GH_I32: return CUDA_R_32I;
    case GH_F32: break;
    }
    return CUDA_R_32F;
}

/* The types of one matmul: A's, B's and C's (the caller's, before the
 * swap of gh_lt_shape_of), its compute type and its scale type (alpha and
 * beta), as PyTorch asks for them: f16 and bf16 with f32 compute, f32
 * without TF32 unless the kernel is cublas-tf32; FP8 with f32 compute and
 * scale; i8 with 32-bit integer compute and scale. */
typedef struct lt_types {
    cudaDataType a, b, c, scale;
    cublasComputeType_t compute;
    const char *compute_name;
} lt_types;

static lt_types types_of(gh_cuda_types t, int variant)
{
    lt_types l = {data_type(t.a), data_type(t.b), data_type(t.c), CUDA_R_32F, CUBLAS_COMPUTE_32F, "CUBLAS_COMPUTE_32F"};
    if (t.a == GH_F64) {
        l.scale = CUDA_R_64F;
        l.compute = CUBLAS_COMPUTE_64F;
        l.compute_name = "CUBLAS_COMPUTE_64F";
    } else if (variant == GH_CUDA_BLAS_I8) {
        l.scale = CUDA_R_32I;
        l.compute = CUBLAS_COMPUTE_32I;
        l.compute_name = "CUBLAS_COMPUTE_32I";
    } else if (variant == GH_CUDA_BLAS_TF32) {
        l.compute = CUBLAS_COMPUTE_32F_FAST_TF32;
        l.compute_name = "CUBLAS_COMPUTE_32F_FAST_TF32";
    }
    return l;
}

/* The descriptors of one call; destroyed together by lt_call_free. */
typedef struct lt_call {
    cublasLtMatmulDesc_t desc;
    cublasLtMatrixLayout_t a, b, c;
    cublasLtMatmulPreference_t pref;
    lt_types types;
    gh_lt_shape shape;
    gh_lt_key key;
    CUdeviceptr first, second, out; /* cuBLASLt's A (the caller's B), B (the caller's A), C */
    union {
        float f32;
        double f64;
        int32_t i32;
    } alpha, beta;
    CUdeviceptr scales; /* FP8: cuBLASLt's A's scale (the caller's B's), then its B's; else 0 */
} lt_call;

static void lt_call_free(const gh_cublaslt_api *lt, lt_call *c)
{
    if (c->pref) gh_cublas_check(lt->cublasLtMatmulPreferenceDestroy(c->pref), "cublasLtMatmulPreferenceDestroy");
    if (c->a) gh_cublas_check(lt->cublasLtMatrixLayoutDestroy(c->a), "cublasLtMatrixLayoutDestroy");
    if (c->b) gh_cublas_check(lt->cublasLtMatrixLayoutDestroy(c->b), "cublasLtMatrixLayoutDestroy");
    if (c->c) gh_cublas_check(lt->cublasLtMatrixLayoutDestroy(c->c), "cublasLtMatrixLayoutDestroy");
    if (c->desc) gh_cublas_check(lt->cublasLtMatmulDescDestroy(c->desc), "cublasLtMatmulDescDestroy");
}

static gh_status make_layout(const gh_cublaslt_api *lt, cublasLtMatrixLayout_t *out, cudaDataType type, uint64_t rows,
                             uint64_t cols, int64_t ld, const char *name)
{
    return gh_cublas_check(lt->cublasLtMatrixLayoutCreate(out, type, rows, cols, ld),
                           "cublasLtMatrixLayoutCreate(%s: %llu x %llu, ld %lld)", name, (unsigned long long)rows,
                           (unsigned long long)cols, (long long)ld);
}

/* The device addresses of A's, B's and C's first elements. */
static void operands_of(const gh_gemm_args *a, gh_cuda_types t, CUdeviceptr *A, CUdeviceptr *B, CUdeviceptr *C)
{
    *A = a->a->ptr + a->a_offset * gh_plugin_dtype_size(t.a);
    *B = a->b->ptr + a->b_offset * gh_plugin_dtype_size(t.b);
    *C = a->c->ptr + a->c_offset * gh_plugin_dtype_size(t.c);
}

/* Each FP8 scale pointer 16-byte aligned: cublasLtMatmul refuses (not its
 * heuristic) a scale 4 bytes past another (docs/kernels.md). */
#define LT_SCALE_STRIDE 16

/* The FP8 variants' descriptor attributes: cuBLASLt's A's and B's scale
 * pointers (device f32), and fast accumulation on (cublaslt-fp8-fast) or
 * off (cublaslt-fp8: partial sums promoted to f32, as it is by default). */
static gh_status fp8_attributes(const gh_cublaslt_api *lt, int variant, const lt_call *c)
{
    if (!is_fp8_variant(variant)) return GH_OK;
    const void *scale_first = (const void *)c->scales, *scale_second = (const void *)(c->scales + LT_SCALE_STRIDE);
    const int8_t fast = variant == GH_CUDA_BLAS_FP8_FAST;
    gh_status st;
    if ((st = gh_cublas_check(lt->cublasLtMatmulDescSetAttribute(c->desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER,
                                                                 &scale_first, sizeof scale_first),
                              "cublasLtMatmulDescSetAttribute(CUBLASLT_MATMUL_DESC_A_SCALE_POINTER)")) ||
        (st = gh_cublas_check(lt->cublasLtMatmulDescSetAttribute(c->desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER,
                                                                 &scale_second, sizeof scale_second),
                              "cublasLtMatmulDescSetAttribute(CUBLASLT_MATMUL_DESC_B_SCALE_POINTER)")))
        return st;
    return gh_cublas_check(
        lt->cublasLtMatmulDescSetAttribute(c->desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast),
        "cublasLtMatmulDescSetAttribute(CUBLASLT_MATMUL_DESC_FAST_ACCUM, %d)", (int)fast);
}

/* Builds every descriptor of args for the variant. scales: the FP8
 * variants' device copy of the scales (lt_upload_scales), else 0. */
static gh_status lt_call_make(const gh_cublaslt_api *lt, int variant, const gh_gemm_args *a, CUdeviceptr scales,
                              lt_call *c)
{
    memset(c, 0, sizeof *c);
    const gh_cuda_types t = gh_cuda_types_of(a);
    const gh_plugin_gemm_types sc = gh_plugin_gemm_types_of(a);
    CUdeviceptr A, B;
    operands_of(a, t, &A, &B, &c->out);
    c->first = B;
    c->second = A;
    c->types = types_of(t, variant);
    c->shape = gh_lt_shape_of(a->m, a->n, a->k, a->trans_a, a->trans_b, a->lda, a->ldb, a->ldc);
    if (t.a == GH_F64) {
        c->alpha.f64 = a->alpha;
        c->beta.f64 = a->beta;
    } else if (variant == GH_CUDA_BLAS_I8) {
        c->alpha.i32 = (int32_t)a->alpha; /* gemm() checked: integral, in int32's range */
        c->beta.i32 = (int32_t)a->beta;
    } else {
        /* D = scale_c * (alpha * scale_a * scale_b * AB + beta * C): A's and
         * B's scales through cuBLASLt's scale pointers, C's folded into
         * alpha and beta (cuBLASLt's D scale is for an FP8 D only). */
        c->alpha.f32 = (float)(a->alpha * sc.scale_c);
        c->beta.f32 = (float)(a->beta * sc.scale_c);
    }
    c->scales = scales;
    c->key = (gh_lt_key){variant,
                         (int)t.a,
                         a->trans_a,
                         a->trans_b,
                         a->m,
                         a->n,
                         a->k,
                         a->lda,
                         a->ldb,
                         a->ldc,
                         gh_lt_alignment(A),
                         gh_lt_alignment(B),
                         gh_lt_alignment(c->out),
                         (int)t.b,
                         (int)t.c};

    const cublasOperation_t op_first = c->shape.first.transpose ? CUBLAS_OP_T : CUBLAS_OP_N;
    const cublasOperation_t op_second = c->shape.second.transpose ? CUBLAS_OP_T : CUBLAS_OP_N;
    /* Split-K reductions: the library's default allows every scheme, f16 and
     * bf16 sums of the pieces included; strict keeps them in the f32 compute
     * type or has none (PyTorch's mask when it disallows them). */
    const uint32_t reductions =
        variant == GH_CUDA_BLAS_STRICT
            ? (uint32_t)(CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE | CUBLASLT_REDUCTION_SCHEME_NONE)
            : (uint32_t)CUBLASLT_REDUCTION_SCHEME_MASK;
    const uint64_t workspace = GH_CUDA_LT_WORKSPACE;
    const uint32_t align_first = c->key.align_b, align_second = c->key.align_a, align_c = c->key.align_c;
    gh_status st;
    if ((st = gh_cublas_check(lt->cublasLtMatmulDescCreate(&c->desc, c->types.compute, c->types.scale),
                              "cublasLtMatmulDescCreate(%s)", c->types.compute_name)) ||
        (st = gh_cublas_check(
             lt->cublasLtMatmulDescSetAttribute(c->desc, CUBLASLT_MATMUL_DESC_TRANSA, &op_first, sizeof op_first),
             "cublasLtMatmulDescSetAttribute(CUBLASLT_MATMUL_DESC_TRANSA)")) ||
        (st = gh_cublas_check(
             lt->cublasLtMatmulDescSetAttribute(c->desc, CUBLASLT_MATMUL_DESC_TRANSB, &op_second, sizeof op_second),
             "cublasLtMatmulDescSetAttribute(CUBLASLT_MATMUL_DESC_TRANSB)")) ||
        (st = make_layout(lt, &c->a, c->types.b, c->shape.first.rows, c->shape.first.cols, c->shape.first.ld,
                          "B as cuBLASLt's A")) ||
        (st = make_layout(lt, &c->b, c->types.a, c->shape.second.rows, c->shape.second.cols, c->shape.second.ld,
                          "A as cuBLASLt's B")) ||
        (st = make_layout(lt, &c->c, c->types.c, c->shape.c_rows, c->shape.c_cols, c->shape.ldc, "C")) ||
        (st = gh_cublas_check(lt->cublasLtMatmulPreferenceCreate(&c->pref), "cublasLtMatmulPreferenceCreate")) ||
        (st = gh_cublas_check(lt->cublasLtMatmulPreferenceSetAttribute(
                                  c->pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace, sizeof workspace),
                              "cublasLtMatmulPreferenceSetAttribute(CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES)")) ||
        (st = gh_cublas_check(lt->cublasLtMatmulPreferenceSetAttribute(
                                  c->pref, CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK, &reductions, sizeof reductions),
                              "cublasLtMatmulPreferenceSetAttribute(CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK)")) ||
        (st =
             gh_cublas_check(lt->cublasLtMatmulPreferenceSetAttribute(
                                 c->pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, &align_first, sizeof align_first),
                             "cublasLtMatmulPreferenceSetAttribute(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES)")) ||
        (st = gh_cublas_check(lt->cublasLtMatmulPreferenceSetAttribute(c->pref,
                                                                       CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
                                                                       &align_second, sizeof align_second),
                              "cublasLtMatmulPreferenceSetAttribute(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES)")) ||
        (st = gh_cublas_check(lt->cublasLtMatmulPreferenceSetAttribute(
                                  c->pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, &align_c, sizeof align_c),
                              "cublasLtMatmulPreferenceSetAttribute(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES)")) ||
        (st = gh_cublas_check(lt->cublasLtMatmulPreferenceSetAttribute(
                                  c->pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, &align_c, sizeof align_c),
                              "cublasLtMatmulPreferenceSetAttribute(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES)")) ||
        (st = fp8_attributes(lt, variant, c))) {
        lt_call_free(lt, c);
        return st;
    }
    return GH_OK;
}

/* One matmul of the call with an algorithm, writing into out (C, or the
 * selection's scratch copy of it). */
static cublasStatus_t lt_run(const gh_cublaslt_api *lt, cublasLtHandle_t h, const lt_call *c,
                             const cublasLtMatmulAlgo_t *algo, CUdeviceptr out, CUdeviceptr workspace, CUstream stream)
{
    return lt->cublasLtMatmul(h, c->desc, &c->alpha, (const void *)c->first, c->a, (const void *)c->second, c->b,
                              &c->beta, (const void *)out, c->c, (void *)out, c->c, algo, (void *)workspace,
                              GH_CUDA_LT_WORKSPACE, (cudaStream_t)stream);
}

/* "algo 21 tile 20 stages 12 split-K 1 reduction 0": the algorithm's
 * configuration as cublasLtMatmulAlgoConfigGetAttribute reports it; its
 * split and reduction scheme also into *split and *reduction. */
static void describe_algo(const gh_cublaslt_api *lt, const cublasLtMatmulAlgo_t *algo, char *out, size_t size,
                          int32_t *split_out, uint32_t *reduction_out)
{
    int32_t id = -1;
    uint32_t tile = 0, stages = 0, reduction = 0;
    int32_t split = 0;
    size_t written = 0;
    lt->cublasLtMatmulAlgoConfigGetAttribute(algo, CUBLASLT_ALGO_CONFIG_ID, &id, sizeof id, &written);
    lt->cublasLtMatmulAlgoConfigGetAttribute(algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof tile, &written);
    lt->cublasLtMatmulAlgoConfigGetAttribute(algo, CUBLASLT_ALGO_CONFIG_STAGES_ID, &stages, sizeof stages, &written);
    lt->cublasLtMatmulAlgoConfigGetAttribute(algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &split, sizeof split, &written);
    lt->cublasLtMatmulAlgoConfigGetAttribute(algo, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME, &reduction, sizeof reduction,
                                             &written);
    snprintf(out, size, "algo %d tile %u stages %u split-K %d reduction %u", (int)id, tile, stages, (int)split,
             reduction);
    *split_out = split;
    *reduction_out = reduction;
}

/* Times each candidate (one untimed run, then GH_CUDA_LT_SELECT_RUNS between
 * events) into a scratch C, so C itself is untouched, and keeps the
 * fastest in *choice. Outside the caller's timed region. */
static gh_status select_algo(const gh_cu_api *cu, const gh_cublaslt_api *lt, gh_cuda_device *dev, gh_cuda_gate *gate,
                             cublasLtHandle_t h, const lt_call *c, const gh_gemm_args *a, CUdeviceptr workspace,
                             CUstream stream, gh_lt_choice *choice)
{
    cublasLtMatmulHeuristicResult_t found[GH_CUDA_LT_CANDIDATES];
    int n_found = 0;
    char types[40];
    gh_cuda_types_name(types, sizeof types, gh_cuda_types_of(a));
    gh_status st = gh_cublas_check(lt->cublasLtMatmulAlgoGetHeuristic(h, c->desc, c->a, c->b, c->c, c->c, c->pref,
                                                                      GH_CUDA_LT_CANDIDATES, found, &n_found),
                                   "cublasLtMatmulAlgoGetHeuristic(%s %s%s %lldx%lldx%lld) on device %d",
                                   variant_names[c->key.variant], types,
                                   a->trans_a ? (a->trans_b ? " tt" : " tn") : (a->trans_b ? " nt" : " nn"),
                                   (long long)a->m, (long long)a->n, (long long)a->k, dev->index);
    if (st) return st;
    if (n_found <= 0) {
        gh_plugin_set_error(
            GH_UNSUPPORTED, "cublasLtMatmulAlgoGetHeuristic found no algorithm for %s %s %lldx%lldx%lld on %s",
            variant_names[c->key.variant], types, (long long)a->m, (long long)a->n, (long long)a->k, dev->name);
        /* What else cuBLASLt documents for these, beyond the layout rules
         * already checked (lt_plan.h). */
        if (is_fp8_variant(c->key.variant))
            gh_plugin_append_error(
                " (cuBLASLt's FP8 GEMM also wants M, N and K in whole 16-byte pieces, and "
                "takes A x B in e4m3 x e4m3, e4m3 x e5m2 or e5m2 x e4m3 only)");
        else if (c->key.variant == GH_CUDA_BLAS_I8)
            gh_plugin_append_error(" (cuBLASLt's int8 GEMM with the column order also wants M and K multiples of 4)");
        return GH_UNSUPPORTED;
    }

    /* The scratch C: as many bytes as C spans, starting at C's alignment. */
    const size_t es = gh_plugin_dtype_size(gh_cuda_types_of(a).c);
    const uint64_t span = ((uint64_t)(a->m - 1) * (uint64_t)a->ldc + (uint64_t)a->n) * es + 256;
    CUdeviceptr scratch = 0;
    CUevent ev[2] = {NULL, NULL};
    if ((st = gh_cu_check(cu->cuMemAlloc(&scratch, span), "cuMemAlloc(%llu bytes: cuBLASLt's selection scratch C)",
                          (unsigned long long)span)))
        return st;
    const CUdeviceptr out = scratch + (c->out % 256);
    double ms[GH_CUDA_LT_CANDIDATES] = {0};
    int ok[GH_CUDA_LT_CANDIDATES] = {0};
    char first_failure[200] = "";
    if ((st = gh_cu_check(cu->cuMemsetD8Async(scratch, 0, span, stream), "cuMemsetD8Async (the scratch C)")) ||
        (st = gh_cu_check(cu->cuEventCreate(&ev[0], CU_EVENT_DEFAULT), "cuEventCreate")) ||
        (st = gh_cu_check(cu->cuEventCreate(&ev[1], CU_EVENT_DEFAULT), "cuEventCreate")))
        goto done;
    for (int i = 0; i < n_found; ++i) {
        if (found[i].state != CUBLAS_STATUS_SUCCESS || found[i].workspaceSize > GH_CUDA_LT_WORKSPACE) continue;
        cublasStatus_t s = lt_run(lt, h, c, &found[i].algo, out, workspace, stream);
        if (s == CUBLAS_STATUS_SUCCESS) {
            /* held while the runs are queued, so a small kernel's time is its
             * own and not cublasLtMatmul's host work (gate.h) */
            if (gate) gh_cuda_gate_shut(cu, dev->index, gate, stream);
            gh_cu_check(cu->cuEventRecord(ev[0], stream), "cuEventRecord");
            for (int r = 0; r < GH_CUDA_LT_SELECT_RUNS && s == CUBLAS_STATUS_SUCCESS; ++r)
                s = lt_run(lt, h, c, &found[i].algo, out, workspace, stream);
            gh_cu_check(cu->cuEventRecord(ev[1], stream), "cuEventRecord");
            if (gate) gh_cuda_gate_open(gate);
        }
        if (s != CUBLAS_STATUS_SUCCESS) {
            if (!first_failure[0])
                snprintf(first_failure, sizeof first_failure, "candidate %d: %s", i, gh_cublas_status_name(s));
            continue;
        }
        float elapsed = 0;
        if ((st = gh_cu_check(cu->cuEventSynchronize(ev[1]), "cuEventSynchronize (cuBLASLt's selection)")) ||
            (st = gh_cu_check(cu->cuEventElapsedTime(&elapsed, ev[0], ev[1]), "cuEventElapsedTime")))
            goto done;
        ms[i] = elapsed / GH_CUDA_LT_SELECT_RUNS;
        ok[i] = 1;
    }
    const int best = gh_lt_pick_fastest(ms, ok, n_found);
    if (best < 0) {
        st = gh_plugin_set_error(GH_UNSUPPORTED, "none of cuBLASLt's %d candidates for %s %s %lldx%lldx%lld ran (%s)",
                                 n_found, variant_names[c->key.variant], types, (long long)a->m, (long long)a->n,
                                 (long long)a->k, first_failure[0] ? first_failure : "all reported a failed state");
        goto done;
    }
    int n_ok = 0;
    for (int i = 0; i < n_found; ++i) n_ok += ok[i];
    memcpy(choice->algo, &found[best].algo, sizeof found[best].algo);
    choice->workspace = found[best].workspaceSize;
    char algo[96];
    describe_algo(lt, &found[best].algo, algo, sizeof algo, &choice->split_k, &choice->reduction);
    snprintf(choice->note, sizeof choice->note,
             "cuBLASLt %s, heuristic's #%d of %d timed (%.4g ms; #1 %.4g ms), workspace %zu of %d MiB", algo, best + 1,
             n_ok, ms[best], ok[0] ? ms[0] : 0.0, choice->workspace, (int)(GH_CUDA_LT_WORKSPACE >> 20));
done:
    for (int i = 0; i < 2; ++i)
        if (ev[i]) gh_cu_check(cu->cuEventDestroy(ev[i]), "cuEventDestroy");
    /* cuMemFree waits for the stream's work on the scratch */
    gh_status freed = gh_cu_check(cu->cuMemFree(scratch), "cuMemFree (cuBLASLt's selection scratch C)");
    return st ? st : freed;
}

/* What each variant runs, and where: refused before anything is queued. */
static gh_status check_variant(const gh_cuda_device *dev, int variant, const gh_gemm_args *a)
{
    const gh_cuda_types t = gh_cuda_types_of(a);
    char types[40];
    gh_cuda_types_name(types, sizeof types, t);
    if (is_fp8_variant(variant) || variant == GH_CUDA_BLAS_I8) {
        const int fp8 = is_fp8_variant(variant);
        /* The mask's one-type bit (ABI 1.5 wants a non-empty mask) would be
         * an 8-bit C: cuBLASLt writes an FP8 D only beside a separate
         * 16-bit C input, which gemmhost's one C cannot be, and an i8 D
         * would be saturated. */
        if (gh_cuda_types_are_uniform(t))
            return gh_plugin_set_error(GH_UNSUPPORTED,
                                       "%s runs only its listed type combinations (%s): an %s C is not offered "
                                       "(cuBLASLt %s)",
                                       variant_names[variant],
                                       fp8 ? "A e4m3 or e5m2, B e4m3 or e5m2 but not both e5m2, C f32, f16 or bf16"
                                           : "A i8, B i8, C i32",
                                       types,
                                       fp8 ? "writes an FP8 D only with a separate 16-bit C input, and gemmhost's C is "
                                             "both"
                                           : "would saturate an i8 D");
        /* FP8 tensor cores: Ada (8.9) and Hopper (9.0) or newer. */
        if (fp8 && dev->cc_major * 10 + dev->cc_minor < 89)
            return gh_plugin_set_error(GH_UNSUPPORTED,
                                       "%s needs FP8 tensor cores (compute capability 8.9 or newer); %s is compute "
                                       "capability %d.%d",
                                       variant_names[variant], dev->name, dev->cc_major, dev->cc_minor);
        CUdeviceptr A, B, C;
        operands_of(a, t, &A, &B, &C);
        const gh_lt_8bit_case layout = {
            fp8 ? GH_LT_8BIT_FP8 : GH_LT_8BIT_I8, a->trans_a, a->trans_b, a->lda, a->ldb, a->ldc,
            (unsigned)gh_plugin_dtype_size(t.c),  A,          B,          C};
        char why[400];
        if (!gh_lt_8bit_fits(&layout, why, sizeof why))
            return gh_plugin_set_error(GH_UNSUPPORTED, "%s (%s): %s", variant_names[variant], types, why);
        return GH_OK;
    }
    if (variant == GH_CUDA_BLAS_TF32 ? t.a != GH_F32 : t.a == GH_I32)
        return gh_plugin_set_error(GH_UNSUPPORTED, "%s has no %s GEMM", variant_names[variant], types);
    /* Without TF32 tensor cores cuBLAS would quietly compute in f32: a row
     * that says TF32 and is not. */
    if (variant == GH_CUDA_BLAS_TF32 && dev->cc_major < 8)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "cublas-tf32 needs TF32 tensor cores (compute capability 8.0 or newer); %s is "
                                   "compute capability %d.%d",
                                   dev->name, dev->cc_major, dev->cc_minor);
    return GH_OK;
}

/* Copies the FP8 scales to the slot's device words, in stream order before
 * the GEMM that reads them: cuBLASLt's A's (the caller's B's) first, its
 * B's LT_SCALE_STRIDE bytes on. */
static gh_status upload_scales(const gh_cu_api *cu, gh_cuda_blas *slot, const gh_gemm_args *a, CUstream stream)
{
    const gh_plugin_gemm_types sc = gh_plugin_gemm_types_of(a);
    float scales[2 * LT_SCALE_STRIDE / sizeof(float)] = {0};
    scales[0] = (float)sc.scale_b;
    scales[LT_SCALE_STRIDE / sizeof(float)] = (float)sc.scale_a;
    gh_status st = GH_OK;
    if (!slot->scales && (st = gh_cu_check(cu->cuMemAlloc(&slot->scales, 256), "cuMemAlloc(256 bytes: FP8 scales)")))
        return st;
    return gh_cu_check(cu->cuMemcpyHtoDAsync(slot->scales, scales, sizeof scales, stream),
                       "cuMemcpyHtoDAsync(the FP8 scales %g and %g)", sc.scale_a, sc.scale_b);
}

/* The split of K the choice makes beyond its f32 compute type: pieces
 * summed in C's f16 or bf16 (in place in C, or in a workspace of C's type),
 * which the kernel's f32 declaration does not cover; none otherwise. */
static void report_split(const gh_lt_choice *choice, gh_dtype c_type, gh_cuda_report *report)
{
    const uint32_t narrow = CUBLASLT_REDUCTION_SCHEME_INPLACE | CUBLASLT_REDUCTION_SCHEME_OUTPUT_TYPE;
    if (!report || choice->split_k <= 1 || !(choice->reduction & narrow)) return;
    if (c_type != GH_F16 && c_type != GH_BF16) return;
    report->split_pieces = (uint32_t)choice->split_k;
    report->split_precision = c_type == GH_F16 ? GH_PREC_F16 : GH_PREC_BF16;
}

gh_status gh_cuda_blas_enqueue(gh_plugin *ctx, gh_cuda_device *dev, gh_cuda_blas *slot, CUstream stream, int variant,
                               const gh_gemm_args *a, const gh_cuda_timed *t, gh_cuda_report *report)
{
    gh_status st = check_variant(dev, variant, a);
    if (st) return st;
    const char *why = NULL;
    const gh_cublaslt_api *lt = gh_cuda_cublaslt(&why);
    if (!lt && variant >= GH_CUDA_BLAS_FP8)
        return gh_plugin_set_error(GH_UNSUPPORTED, "%s needs cuBLASLt (legacy cuBLAS has no 8-bit GEMM): %s",
                                   variant_names[variant], why);
    if (!lt) {
        /* The legacy API still gives a baseline; the row says which. */
        st = gh_cuda_cublas_enqueue(ctx, dev, &slot->legacy, stream, variant, a, t);
        if (st == GH_OK && report)
            snprintf(report->note, sizeof report->note,
                     "%s: legacy cuBLAS instead (its default algorithm, no selection)", why);
        return st;
    }
    if (!dev->lt && (st = gh_cublas_check(lt->cublasLtCreate(&dev->lt), "cublasLtCreate on device %d", dev->index)))
        return st;
    if (!slot->workspace && (st = gh_cu_check(ctx->cu->cuMemAlloc(&slot->workspace, GH_CUDA_LT_WORKSPACE),
                                              "cuMemAlloc(%d MiB: cuBLASLt's workspace) on device %d",
                                              (int)(GH_CUDA_LT_WORKSPACE >> 20), dev->index)))
        return st;

    char types[40];
    gh_cuda_types_name(types, sizeof types, gh_cuda_types_of(a));
    if (is_fp8_variant(variant) && !(t && t->captured) && (st = upload_scales(ctx->cu, slot, a, stream))) return st;
    lt_call c;
    if ((st = lt_call_make(lt, variant, a, is_fp8_variant(variant) ? slot->scales : 0, &c))) return st;
    gh_lt_choice *choice = gh_lt_find(dev->lt_choices, &c.key);
    if (!choice) {
        gh_lt_choice *made = calloc(1, sizeof *made);
        if (!made) {
            lt_call_free(lt, &c);
            return gh_plugin_set_error(GH_OUT_OF_MEMORY, "out of host memory for cuBLASLt's choice");
        }
        made->key = c.key;
        if ((st = select_algo(ctx->cu, lt, dev, t ? t->gate : NULL, dev->lt, &c, a, slot->workspace, stream, made))) {
            free(made);
            lt_call_free(lt, &c);
            return st;
        }
        made->next = dev->lt_choices;
        dev->lt_choices = choice = made;
    }
    if (report) snprintf(report->note, sizeof report->note, "%s", choice->note);
    report_split(choice, gh_cuda_types_of(a).c, report);

    /* One set of descriptors for every launch of a batch: their creation is
     * host work a user calling in a loop would keep outside it too. */
    if (t && t->prepare_only) {
        lt_call_free(lt, &c);
        return GH_OK;
    }
    if ((st = gh_cuda_timed_begin(ctx->cu, dev->index, t, stream)) == GH_OK) {
        for (unsigned i = 0; i < gh_cuda_launches(t) && st == GH_OK; ++i) {
            st = gh_cublas_check(
                lt_run(lt, dev->lt, &c, (const cublasLtMatmulAlgo_t *)choice->algo, c.out, slot->workspace, stream),
                "cublasLtMatmul(%s, %s, %s) on device %d", variant_names[variant], types, c.types.compute_name,
                dev->index);
        }
        if (st == GH_OK) st = gh_cuda_timed_end(ctx->cu, dev->index, t, stream);
    }
    lt_call_free(lt, &c);
    return st;
}

void gh_cuda_blas_release(gh_plugin *ctx, const gh_cuda_device *dev, gh_cuda_blas *slot)
{
    gh_cuda_cublas_destroy(dev, &slot->legacy);
    if (slot->workspace)
        gh_cu_check(ctx->cu->cuMemFree(slot->workspace), "cuMemFree (cuBLASLt's workspace) on device %d", dev->index);
    slot->workspace = 0;
    if (slot->scales)
        gh_cu_check(ctx->cu->cuMemFree(slot->scales), "cuMemFree (the FP8 scales) on device %d", dev->index);
    slot->scales = 0;
}

void gh_cuda_blas_device_release(gh_cuda_device *dev)
{
    gh_lt_free(dev->lt_choices);
    dev->lt_choices = NULL;
    const gh_cublaslt_api *lt = gh_cuda_cublaslt(NULL);
    if (dev->lt && lt) gh_cublas_check(lt->cublasLtDestroy(dev->lt), "cublasLtDestroy on device %d", dev->index);
    dev->lt = NULL;
}
