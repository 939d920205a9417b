/* wgmma's parameters, sample variants, fit rule and shared memory (see
 * kernels.h); its device and layout rules and its tensor maps (wgmma.h). */
#include "wgmma.h"

#include <stdio.h>

#include "errors.h"

/* wgmma: the block tile (two consumer warpgroups share bm; each takes all
 * bn columns) and the stages of its TMA pipeline. The default: 128 x 256,
 * each consumer 64 x 256 (128 accumulators a thread), 4 stages (192 KB). */
static const int64_t wgmma_block_rows[] = {128, 256};
static const int64_t wgmma_block_cols[] = {64, 128, 256};
static const int64_t wgmma_stages[] = {2, 3, 4, 5, 6};
static const int64_t wgmma_promote[] = {0, 1, 2, 4, 8};
static const int64_t wgmma_cluster[] = {1, 2};
static const int64_t wgmma_persistent[] = {0, 1};
const gh_param_info gh_cuda_wgmma_params[GH_WGMMA_PARAMS] = {
    [GH_WGMMA_BM] = GH_PLUGIN_PARAM(
        "bm", "rows of C a thread block computes, half by each of its two consumer warpgroups", 128, wgmma_block_rows),
    [GH_WGMMA_BN] = GH_PLUGIN_PARAM("bn", "columns of C a thread block computes: the N of each wgmma instruction", 256,
                                    wgmma_block_cols),
    [GH_WGMMA_STAGES] =
        GH_PLUGIN_PARAM("stages", "shared-memory buffers of A and B tiles in flight (TMA, mbarriers)", 4, wgmma_stages),
    [GH_WGMMA_PROMOTE] = GH_PLUGIN_PARAM("promote",
                                         "FP8: add the tensor cores' narrow sum into f32 registers every this many "
                                         "steps of 128 K-elements (0: never; needs bm 128 with bn <= 128); 0 for "
                                         "the other types",
                                         0, wgmma_promote),
    [GH_WGMMA_CLUSTER] = GH_PLUGIN_PARAM("cluster",
                                         "thread blocks per cluster: 2 computes vertically adjacent blocks of C in "
                                         "pairs, each block loading half of their shared B tile into both with TMA "
                                         "multicast (B read from L2 once per pair); 1: each block alone",
                                         1, wgmma_cluster),
    [GH_WGMMA_PERSISTENT] = GH_PLUGIN_PARAM(
        "persistent",
        "1: a block (a pair with cluster 2) per SM at most, each computing tile after tile of C, its TMA producer "
        "loading the next tile while the consumers store the last (no block launches and pipeline refills between "
        "tiles); 0: a block per tile",
        0, wgmma_persistent),
};

const int64_t gh_cuda_wgmma_samples[GH_CUDA_WGMMA_SAMPLES][GH_WGMMA_PARAMS] = {
    {128, 256, 4, 0, 1, 0}, /* the default */
    {128, 128, 6, 0, 1, 0}, {256, 128, 4, 0, 1, 0},
    {128, 64, 2, 0, 1, 0},  {128, 128, 4, 1, 1, 0}, /* FP8 promoted every 128 K-elements (DeepGEMM's) */
    {128, 256, 4, 0, 2, 0},                         /* the default in pairs sharing B (TMA multicast) */
    {128, 256, 4, 0, 1, 1},                         /* the default, persistent: a block per SM */
};

int gh_cuda_wgmma_fits(gh_dtype dtype, const gh_cuda_variant *v, char *why, size_t why_size)
{
    const int64_t bm = v->wt[GH_WGMMA_BM], bn = v->wt[GH_WGMMA_BN], promote = v->wt[GH_WGMMA_PROMOTE];
    if (promote && dtype != GH_E4M3 && dtype != GH_E5M2) {
        snprintf(why, why_size, "promote %lld: only FP8's narrow tensor-core sums are promoted; %s takes 0",
                 (long long)promote, gh_plugin_dtype_name(dtype));
        return 0;
    }
    /* Promotion keeps three sets of accumulators a consumer thread: two
     * narrow sums in turn and the f32 sum (kernels/cuda/wgmma.cu). */
    if (promote && (bm != 128 || bn > 128)) {
        snprintf(why, why_size,
                 "promote %lld keeps three sets of accumulators (two narrow sums in turn and the f32 sum): bm %lld x "
                 "bn %lld gives each consumer thread %lld a set; they fit its registers without spilling at bm 128 "
                 "with bn <= 128 only (3 x 64 = 192 of 232; bm 256 spills even at bn 64)",
                 (long long)promote, (long long)bm, (long long)bn, (long long)((bm / 128) * bn / 2));
        return 0;
    }
    if ((bm / 128) * bn / 2 > 128) {
        snprintf(why, why_size,
                 "bm %lld x bn %lld gives each consumer thread %lld accumulators; registers hold at most 128",
                 (long long)bm, (long long)bn, (long long)((bm / 128) * bn / 2));
        return 0;
    }
    return 1;
}

long long gh_cuda_wgmma_shared_bytes(const gh_cuda_variant *v)
{
    /* Each stage: bm + bn rows of 128 bytes; then a full and an empty
     * mbarrier per stage; 1024 bytes of room for the alignment. */
    return v->wt[GH_WGMMA_STAGES] * ((v->wt[GH_WGMMA_BM] + v->wt[GH_WGMMA_BN]) * 128 + 16) + 1024;
}

static const char *const operand_names[2] = {"A", "B"};

int gh_cuda_wgmma_cluster_fits(const gh_cu_api *cu, const gh_cuda_variant *v, char *why, size_t why_size)
{
    if (v->wt[GH_WGMMA_CLUSTER] > 1 && !cu->cuLaunchKernelEx) {
        snprintf(why, why_size,
                 "cluster %lld launches thread block clusters with cuLaunchKernelEx, which this CUDA driver's "
                 "libcuda.so.1 does not have (CUDA 11.8 or newer); cluster 1 needs none",
                 (long long)v->wt[GH_WGMMA_CLUSTER]);
        return 0;
    }
    return 1;
}

int gh_cuda_wgmma_layout_fits(const gh_cuda_device *dev, const gh_gemm_args *a, char *why, size_t why_size)
{
    if (dev->cc_major != 9 || dev->cc_minor != 0) {
        snprintf(why, why_size,
                 "wgmma needs sm_90a (wgmma.mma_async, setmaxnreg: compute capability 9.0 exactly); %s is %d.%d",
                 dev->name, dev->cc_major, dev->cc_minor);
        return 0;
    }
    const size_t es = gh_plugin_dtype_size(a->dtype);
    const gh_buffer *buffers[2] = {a->a, a->b};
    const uint64_t offsets[2] = {a->a_offset, a->b_offset};
    const int64_t lds[2] = {a->lda, a->ldb};
    for (int i = 0; i < 2; ++i) {
        const unsigned long long start = (unsigned long long)buffers[i]->ptr + offsets[i] * es;
        if (start % 16) {
            snprintf(why, why_size,
                     "TMA reads %s in place and needs it 16-byte aligned: its offset of %llu elements (%llu bytes) "
                     "is not a multiple of 16 bytes",
                     operand_names[i], (unsigned long long)offsets[i], (unsigned long long)(offsets[i] * es));
            return 0;
        }
        if ((lds[i] * (long long)es) % 16) {
            snprintf(why, why_size,
                     "TMA needs the rows of %s in whole 16 bytes: ld%c %lld x %zu bytes is %lld bytes (pad the "
                     "rows to a multiple of %zu elements)",
                     operand_names[i], i ? 'b' : 'a', (long long)lds[i], es, (long long)(lds[i] * (long long)es),
                     16 / es);
            return 0;
        }
    }
    if ((a->dtype == GH_F32 || es == 1) && (a->trans_a || !a->trans_b)) {
        const char *form = a->dtype == GH_I8 ? "s8" : es == 1 ? "FP8" : "TF32";
        snprintf(why, why_size,
                 "wgmma has no transposed %s form: %s needs op(A) and op(B) both K-major, i.e. trans nt (got "
                 "%s)%s",
                 form,
                 a->dtype == GH_I8 ? "i8"
                 : es == 1         ? "FP8"
                                   : "f32",
                 a->trans_a ? (a->trans_b ? "tt" : "tn") : "nn", es == 1 ? "" : "; kernel mma takes every transpose");
        return 0;
    }
    return 1;
}

/* One operand's map: stored rows x cols (cols contiguous, rows ld apart). */
static gh_status encode(gh_plugin *ctx, CUtensorMap *map, const char *name, gh_dtype dtype, CUdeviceptr start,
                        int64_t rows, int64_t cols, int64_t ld, unsigned box_cols, unsigned box_rows)
{
    const size_t es = gh_plugin_dtype_size(dtype);
    /* FP8 and i8 move as bytes: TMA only copies them */
    const CUtensorMapDataType type = dtype == GH_F16    ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
                                     : dtype == GH_BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                     : es == 1          ? CU_TENSOR_MAP_DATA_TYPE_UINT8
                                                        : CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    /* An empty operand (K = 0) is never read; its map still needs extents. */
    const cuuint64_t dims[2] = {(cuuint64_t)(cols > 0 ? cols : 1), (cuuint64_t)(rows > 0 ? rows : 1)};
    const cuuint64_t strides[1] = {(cuuint64_t)ld * es};
    const cuuint32_t box[2] = {box_cols, box_rows}, element_strides[2] = {1, 1};
    return gh_cu_check(ctx->cu->cuTensorMapEncodeTiled(map, type, 2, (void *)start, dims, strides, box, element_strides,
                                                       CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                                       CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                                       CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
                       "cuTensorMapEncodeTiled(%s: %lld x %lld, ld %lld, box %u x %u)", name, (long long)rows,
                       (long long)cols, (long long)ld, box_rows, box_cols);
}

gh_status gh_cuda_wgmma_maps(gh_plugin *ctx, const gh_gemm_args *a, const gh_cuda_variant *v, CUtensorMap *map_a,
                             CUtensorMap *map_b)
{
    const size_t es = gh_plugin_dtype_size(a->dtype);
    const unsigned bk = (unsigned)(128 / es); /* one 128-byte swizzle row */
    const unsigned bm = (unsigned)v->wt[GH_WGMMA_BM], bn = (unsigned)v->wt[GH_WGMMA_BN];
    /* cluster 2: each block of a pair loads half of K-major B's rows (its
     * N-major pieces, 64 wide, are shared out whole: the box stays). */
    const unsigned b_rows = bn / (unsigned)v->wt[GH_WGMMA_CLUSTER];
    const CUdeviceptr A = a->a->ptr + a->a_offset * es, B = a->b->ptr + a->b_offset * es;
    /* A stored M x K, or K x M with trans_a; B stored K x N, or N x K with trans_b. */
    gh_status st = a->trans_a ? encode(ctx, map_a, "A", a->dtype, A, a->k, a->m, a->lda, 64, bk)
                              : encode(ctx, map_a, "A", a->dtype, A, a->m, a->k, a->lda, bk, bm);
    if (st) return st;
    return a->trans_b ? encode(ctx, map_b, "B", a->dtype, B, a->n, a->k, a->ldb, bk, b_rows)
                      : encode(ctx, map_b, "B", a->dtype, B, a->k, a->n, a->ldb, 64, bk);
}
