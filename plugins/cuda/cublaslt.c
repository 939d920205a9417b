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

static const char *const variant_names[] = {"cublas", "cublas-tf32", "cublas-strict"};

/* The types of one dtype's matmul: its matrices', its compute type and its
 * scale type (alpha and beta), as PyTorch asks for them: f16 and bf16 with
 * f32 compute, f32 without TF32 unless the kernel is cublas-tf32. */
typedef struct lt_types {
    cudaDataType data, scale;
    cublasComputeType_t compute;
    const char *compute_name;
} lt_types;

static lt_types types_of(gh_dtype dtype, int variant)
{
    if (dtype == GH_F64) return (lt_types){CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, "CUBLAS_COMPUTE_64F"};
    if (dtype == GH_F16) return (lt_types){CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F, "CUBLAS_COMPUTE_32F"};
    if (dtype == GH_BF16) return (lt_types){CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, "CUBLAS_COMPUTE_32F"};
    if (variant == GH_CUDA_BLAS_TF32)
        return (lt_types){CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, "CUBLAS_COMPUTE_32F_FAST_TF32"};
    return (lt_types){CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, "CUBLAS_COMPUTE_32F"};
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
    } alpha, beta;
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

/* Builds every descriptor of args for the variant. */
static gh_status lt_call_make(const gh_cublaslt_api *lt, int variant, const gh_gemm_args *a, lt_call *c)
{
    memset(c, 0, sizeof *c);
    const size_t es = gh_plugin_dtype_size(a->dtype);
    CUdeviceptr A = a->a->ptr + a->a_offset * es;
    CUdeviceptr B = a->b->ptr + a->b_offset * es;
    c->out = a->c->ptr + a->c_offset * es;
    c->first = B;
    c->second = A;
    c->types = types_of(a->dtype, variant);
    c->shape = gh_lt_shape_of(a->m, a->n, a->k, a->trans_a, a->trans_b, a->lda, a->ldb, a->ldc);
    if (a->dtype == GH_F64) {
        c->alpha.f64 = a->alpha;
        c->beta.f64 = a->beta;
    } else {
        c->alpha.f32 = (float)a->alpha;
        c->beta.f32 = (float)a->beta;
    }
    c->key = (gh_lt_key){variant,
                         (int)a->dtype,
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
                         gh_lt_alignment(c->out)};

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
        (st = make_layout(lt, &c->a, c->types.data, c->shape.first.rows, c->shape.first.cols, c->shape.first.ld,
                          "B as cuBLASLt's A")) ||
        (st = make_layout(lt, &c->b, c->types.data, c->shape.second.rows, c->shape.second.cols, c->shape.second.ld,
                          "A as cuBLASLt's B")) ||
        (st = make_layout(lt, &c->c, c->types.data, c->shape.c_rows, c->shape.c_cols, c->shape.ldc, "C")) ||
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
                              "cublasLtMatmulPreferenceSetAttribute(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES)"))) {
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
 * configuration as cublasLtMatmulAlgoConfigGetAttribute reports it. */
static void describe_algo(const gh_cublaslt_api *lt, const cublasLtMatmulAlgo_t *algo, char *out, size_t size)
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
}

/* Times each candidate (one untimed run, then GH_CUDA_LT_SELECT_RUNS between
 * events) into a scratch C, so C itself is untouched, and keeps the
 * fastest in *choice. Outside the caller's timed region. */
static gh_status select_algo(const gh_cu_api *cu, const gh_cublaslt_api *lt, gh_cuda_device *dev, cublasLtHandle_t h,
                             const lt_call *c, const gh_gemm_args *a, CUdeviceptr workspace, CUstream stream,
                             gh_lt_choice *choice)
{
    cublasLtMatmulHeuristicResult_t found[GH_CUDA_LT_CANDIDATES];
    int n_found = 0;
    gh_status st = gh_cublas_check(lt->cublasLtMatmulAlgoGetHeuristic(h, c->desc, c->a, c->b, c->c, c->c, c->pref,
                                                                      GH_CUDA_LT_CANDIDATES, found, &n_found),
                                   "cublasLtMatmulAlgoGetHeuristic(%s %s%s %lldx%lldx%lld) on device %d",
                                   variant_names[c->key.variant], gh_plugin_dtype_name(a->dtype),
                                   a->trans_a ? (a->trans_b ? " tt" : " tn") : (a->trans_b ? " nt" : " nn"),
                                   (long long)a->m, (long long)a->n, (long long)a->k, dev->index);
    if (st) return st;
    if (n_found <= 0)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "cublasLtMatmulAlgoGetHeuristic found no algorithm for %s %s %lldx%lldx%lld on %s",
                                   variant_names[c->key.variant], gh_plugin_dtype_name(a->dtype), (long long)a->m,
                                   (long long)a->n, (long long)a->k, dev->name);

    /* The scratch C: as many bytes as C spans, starting at C's alignment. */
    const size_t es = gh_plugin_dtype_size(a->dtype);
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
            gh_cu_check(cu->cuEventRecord(ev[0], stream), "cuEventRecord");
            for (int r = 0; r < GH_CUDA_LT_SELECT_RUNS && s == CUBLAS_STATUS_SUCCESS; ++r)
                s = lt_run(lt, h, c, &found[i].algo, out, workspace, stream);
            gh_cu_check(cu->cuEventRecord(ev[1], stream), "cuEventRecord");
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
                                 n_found, variant_names[c->key.variant], gh_plugin_dtype_name(a->dtype),
                                 (long long)a->m, (long long)a->n, (long long)a->k,
                                 first_failure[0] ? first_failure : "all reported a failed state");
        goto done;
    }
    int n_ok = 0;
    for (int i = 0; i < n_found; ++i) n_ok += ok[i];
    memcpy(choice->algo, &found[best].algo, sizeof found[best].algo);
    choice->workspace = found[best].workspaceSize;
    char algo[96];
    describe_algo(lt, &found[best].algo, algo, sizeof algo);
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

static gh_status check_variant(const gh_cuda_device *dev, int variant, gh_dtype dtype)
{
    if (variant == GH_CUDA_BLAS_TF32 ? dtype != GH_F32 : dtype == GH_I32)
        return gh_plugin_set_error(GH_UNSUPPORTED, "%s has no %s GEMM", variant_names[variant],
                                   gh_plugin_dtype_name(dtype));
    /* Without TF32 tensor cores cuBLAS would quietly compute in f32: a row
     * that says TF32 and is not. */
    if (variant == GH_CUDA_BLAS_TF32 && dev->cc_major < 8)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "cublas-tf32 needs TF32 tensor cores (compute capability 8.0 or newer); %s is "
                                   "compute capability %d.%d",
                                   dev->name, dev->cc_major, dev->cc_minor);
    return GH_OK;
}

gh_status gh_cuda_blas_enqueue(gh_plugin *ctx, gh_cuda_device *dev, gh_cuda_blas *slot, CUstream stream, int variant,
                               const gh_gemm_args *a, const gh_cuda_timed *t, char *note, size_t note_size)
{
    gh_status st = check_variant(dev, variant, a->dtype);
    if (st) return st;
    if (note_size) note[0] = '\0';
    const char *why = NULL;
    const gh_cublaslt_api *lt = gh_cuda_cublaslt(&why);
    if (!lt) {
        /* The legacy API still gives a baseline; the row says which. */
        st = gh_cuda_cublas_enqueue(ctx, dev, &slot->legacy, stream, variant, a, t);
        if (st == GH_OK && note_size)
            snprintf(note, note_size, "%s: legacy cuBLAS instead (its default algorithm, no selection)", why);
        return st;
    }
    if (!dev->lt && (st = gh_cublas_check(lt->cublasLtCreate(&dev->lt), "cublasLtCreate on device %d", dev->index)))
        return st;
    if (!slot->workspace && (st = gh_cu_check(ctx->cu->cuMemAlloc(&slot->workspace, GH_CUDA_LT_WORKSPACE),
                                              "cuMemAlloc(%d MiB: cuBLASLt's workspace) on device %d",
                                              (int)(GH_CUDA_LT_WORKSPACE >> 20), dev->index)))
        return st;

    lt_call c;
    if ((st = lt_call_make(lt, variant, a, &c))) return st;
    gh_lt_choice *choice = gh_lt_find(dev->lt_choices, &c.key);
    if (!choice) {
        gh_lt_choice *made = calloc(1, sizeof *made);
        if (!made) {
            lt_call_free(lt, &c);
            return gh_plugin_set_error(GH_OUT_OF_MEMORY, "out of host memory for cuBLASLt's choice");
        }
        made->key = c.key;
        if ((st = select_algo(ctx->cu, lt, dev, dev->lt, &c, a, slot->workspace, stream, made))) {
            free(made);
            lt_call_free(lt, &c);
            return st;
        }
        made->next = dev->lt_choices;
        dev->lt_choices = choice = made;
    }
    if (note_size) snprintf(note, note_size, "%s", choice->note);

    if ((st = gh_cuda_timed_begin(ctx->cu, dev->index, t, stream)) == GH_OK) {
        st = gh_cublas_check(
            lt_run(lt, dev->lt, &c, (const cublasLtMatmulAlgo_t *)choice->algo, c.out, slot->workspace, stream),
            "cublasLtMatmul(%s, %s, %s) on device %d", variant_names[variant], gh_plugin_dtype_name(a->dtype),
            c.types.compute_name, dev->index);
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
}

void gh_cuda_blas_device_release(gh_cuda_device *dev)
{
    gh_lt_free(dev->lt_choices);
    dev->lt_choices = NULL;
    const gh_cublaslt_api *lt = gh_cuda_cublaslt(NULL);
    if (dev->lt && lt) gh_cublas_check(lt->cublasLtDestroy(dev->lt), "cublasLtDestroy on device %d", dev->index);
    dev->lt = NULL;
}
