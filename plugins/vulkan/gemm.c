/* One GEMM: check the arguments, bind the matrices, dispatch, time. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "gemm.h"

#include "buffers.h"
#include "commands.h"
#include "compile.h"
#include "devices.h"
#include "errors.h"
#include "gemmhost/plugin_helpers.h"
#include "kernels.h"
#include "state.h"

/* The part of a buffer one matrix is bound as: the shaders index with 32-bit
 * element offsets from the start of this range. */
typedef struct window {
    VkDeviceSize base;  /* byte offset of the range in the buffer, aligned */
    VkDeviceSize range; /* bytes */
    uint32_t offset;    /* element offset of the matrix inside the range */
} window;

/* A matrix stored as `rows` rows of `cols` elements, `ld` apart, starting at
 * element `offset` of buf (gh_plugin_check_gemm has seen that it fits). */
static gh_status bind_window(const vkp_device *d, char name, const struct gh_buffer *buf, uint64_t offset,
                             uint64_t rows, uint64_t cols, uint64_t ld, uint32_t esize, window *w)
{
    /* Sizes were checked to fit 32 bits, so this cannot overflow. */
    uint64_t span = (rows - 1) * ld + cols;
    const VkPhysicalDeviceLimits *lim = &d->props.limits;
    uint64_t start = offset * esize;
    uint64_t align = lim->minStorageBufferOffsetAlignment ? lim->minStorageBufferOffsetAlignment : 1;
    w->base = start - start % align;
    uint64_t needed = start + span * esize - w->base;
    if (needed > lim->maxStorageBufferRange)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "gemm: %c spans %llu bytes, over the device's maxStorageBufferRange = %u (%s)", name,
                                   (unsigned long long)needed, lim->maxStorageBufferRange, d->name);
    /* Bind on to the end of the buffer (as far as the limit allows), not
     * just the matrix: a kernel that writes past the matrix then hits the
     * host's guard zone, where it is seen, instead of being silently
     * dropped by a robust driver. */
    uint64_t to_end = buf->bytes - w->base;
    w->range = to_end < lim->maxStorageBufferRange ? to_end : lim->maxStorageBufferRange;
    w->offset = (uint32_t)((start - w->base) / esize);
    return GH_OK;
}

/* Whether warptile (coopmat) may read a matrix as vectors of vw elements
 * (vbytes bytes) through its second binding: every row, from its offset, a
 * whole number of vectors, aligned in the buffer. Then an edge vector is
 * either all in the matrix or all out of it. */
static int vector_ok(const window *w, uint64_t cols, uint64_t ld, uint32_t vw, uint32_t vbytes)
{
    return cols % vw == 0 && ld % vw == 0 && w->offset % vw == 0 && w->base % vbytes == 0;
}

static uint32_t vector_flags(int kernel, const gh_gemm_args *a, const window w[3])
{
    if (kernel == VKP_KERNEL_COOPMAT) {
        /* kernels/vulkan/coopmat.comp: 16 bytes (8 elements, 16 of i8), and
         * only for tiles wholly inside the matrix, so any number of columns. */
        const uint32_t vw = 16 / (uint32_t)gh_plugin_dtype_size(gh_plugin_gemm_types_of(a).a);
        return (vector_ok(&w[0], 0, (uint64_t)a->lda, vw, 16) ? VKP_VECTOR_A : 0) |
               (vector_ok(&w[1], 0, (uint64_t)a->ldb, vw, 16) ? VKP_VECTOR_B : 0);
    }
    if (kernel != VKP_KERNEL_WARPTILE) return 0;
    /* kernels/vulkan/warptile.comp's VW: 4 elements, 2 of f64 */
    uint32_t vw = a->dtype == GH_F64 ? 2 : 4, vbytes = vw * (uint32_t)gh_plugin_dtype_size(a->dtype);
    uint64_t a_cols = (uint64_t)(a->trans_a ? a->m : a->k), b_cols = (uint64_t)(a->trans_b ? a->k : a->n);
    return (vector_ok(&w[0], a_cols, (uint64_t)a->lda, vw, vbytes) ? VKP_VECTOR_A : 0) |
           (vector_ok(&w[1], b_cols, (uint64_t)a->ldb, vw, vbytes) ? VKP_VECTOR_B : 0);
}

/* The push constants of kernels/vulkan/gemm_common.glsl (see kernels.h).
 * alpha and beta in C's arithmetic type; the scales (ABI 1.5) fold into
 * them: scale_c (alpha scale_a scale_b acc + beta C) is (alpha scale_a
 * scale_b scale_c) acc + (beta scale_c) C, each factor rounded once to f32
 * (exact for powers of two). An i32 C has scales of 1. */
static void fill_push(unsigned char *push, const gh_gemm_args *a, const gh_plugin_gemm_types *t, const window w[3],
                      uint32_t flags)
{
    uint32_t u[VKP_PUSH_UINTS] = {
        (uint32_t)a->m, (uint32_t)a->n, (uint32_t)a->k, (uint32_t)a->lda,     (uint32_t)a->ldb,     (uint32_t)a->ldc,
        w[0].offset,    w[1].offset,    w[2].offset,    (uint32_t)a->trans_a, (uint32_t)a->trans_b, flags,
    };
    memcpy(push, u, sizeof u);
    unsigned char *scalars = push + sizeof u;
    if (t->c == GH_F64) {
        double s[2] = {a->alpha, a->beta};
        memcpy(scalars, s, sizeof s);
    } else if (t->c == GH_I32) {
        int32_t s[2] = {(int32_t)a->alpha, (int32_t)a->beta};
        memcpy(scalars, s, sizeof s);
    } else { /* f32, and f16 and bf16, whose alpha and beta are f32 */
        float s[2] = {(float)(a->alpha * t->scale_a * t->scale_b * t->scale_c), (float)(a->beta * t->scale_c)};
        memcpy(scalars, s, sizeof s);
    }
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

gh_status vkp_gemm(gh_plugin *ctx, int device, int kernel, const gh_gemm_args *args, gh_gemm_timing *timing)
{
    gh_status st = vkp_check_device(ctx, "gemm", device);
    if (st == GH_OK) st = gh_plugin_check_index("gemm", "kernel", kernel, VKP_KERNEL_COUNT);
    if (st != GH_OK) return st;
    vkp_device *d = &ctx->devices[device];
    /* The shaders index with 32-bit unsigned integers. */
    const gh_plugin_gemm_target target = {device, &d->info, &vkp_kernels[kernel], UINT32_MAX, vkp_buffer_extent};
    if ((st = gh_plugin_check_gemm("gemm", args, &target)) != GH_OK) return st;
    const gh_plugin_gemm_types types = gh_plugin_gemm_types_of(args);
    if ((types.c == GH_F16 || types.c == GH_BF16) && !d->has_16bit_storage)
        return gh_plugin_set_error(GH_UNSUPPORTED, "gemm: %s C: %s", gh_plugin_dtype_name(types.c),
                                   d->no_16bit_storage);
    if (gh_plugin_dtype_size(types.a) == 1 && !d->has_8bit_storage)
        return gh_plugin_set_error(GH_UNSUPPORTED, "gemm: %s A and %s B: %s", gh_plugin_dtype_name(types.a),
                                   gh_plugin_dtype_name(types.b), d->no_8bit_storage);
    const int type_slot = vkp_type_slot(types.a, types.c);
    vkp_variant v;
    if ((st = vkp_variant_of(kernel, args, &v)) != GH_OK) return st;
    /* shared memory holds C's arithmetic type (f32 for FP8 inputs, i32 for
     * i8); coopmat's holds A and B as stored, and goes by A's type (i8) */
    if ((st = vkp_check_limits(d, kernel, kernel == VKP_KERNEL_COOPMAT ? types.a : types.c, &v)) != GH_OK) return st;
    if (type_slot >= VKP_TYPES_FP8_F32 && type_slot <= VKP_TYPES_FP8_BF16) /* a pipeline per FP8 pair */
        v.layout = (types.a == GH_E5M2 ? 1u : 0u) | (types.b == GH_E5M2 ? 2u : 0u);

    const uint32_t esize_a = (uint32_t)gh_plugin_dtype_size(types.a), esize_b = (uint32_t)gh_plugin_dtype_size(types.b),
                   esize_c = (uint32_t)gh_plugin_dtype_size(types.c);
    uint64_t m = (uint64_t)args->m, n = (uint64_t)args->n, k = (uint64_t)args->k;
    window w[3];
    if ((st = bind_window(d, 'A', args->a, args->a_offset, args->trans_a ? k : m, args->trans_a ? m : k,
                          (uint64_t)args->lda, esize_a, &w[0])) != GH_OK ||
        (st = bind_window(d, 'B', args->b, args->b_offset, args->trans_b ? n : k, args->trans_b ? k : n,
                          (uint64_t)args->ldb, esize_b, &w[1])) != GH_OK ||
        (st = bind_window(d, 'C', args->c, args->c_offset, m, n, (uint64_t)args->ldc, esize_c, &w[2])) != GH_OK)
        return st;

    const uint32_t *max_groups = d->props.limits.maxComputeWorkGroupCount;
    /* every kernel's workgroup computes a block_m x block_n block of C */
    uint64_t groups_x = (n + v.block_n - 1) / v.block_n, groups_y = (m + v.block_m - 1) / v.block_m;
    if (groups_x > max_groups[0] || groups_y > max_groups[1])
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "gemm: %llu x %llu workgroups, over the device's maxComputeWorkGroupCount = "
                                   "%u x %u (%s)",
                                   (unsigned long long)groups_x, (unsigned long long)groups_y, max_groups[0],
                                   max_groups[1], d->name);

    uint32_t vectors = vector_flags(kernel, args, w);
    if (kernel == VKP_KERNEL_WARPTILE) /* a pipeline per layout: see kernels.h */
        v.layout = (args->trans_a ? 1u : 0u) | (args->trans_b ? 2u : 0u) | vectors << 2;

    if ((st = vkp_device_ready(d)) != GH_OK) return st;
    VkPipeline pipeline;
    if ((st = vkp_pipeline(d, kernel, type_slot, &v, &pipeline)) != GH_OK) return st;

    const struct gh_buffer *bufs[3] = {args->a, args->b, args->c};
    VkDescriptorBufferInfo infos[VKP_BINDINGS];
    VkWriteDescriptorSet writes[VKP_BINDINGS];
    for (int i = 0; i < VKP_BINDINGS; i++) {
        int of = i < 3 ? i : i - 3; /* bindings 3 and 4: A and B again */
        infos[i] = (VkDescriptorBufferInfo){.buffer = bufs[of]->buffer, .offset = w[of].base, .range = w[of].range};
        writes[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = d->set,
            .dstBinding = (uint32_t)i,
            .descriptorCount = 1,
            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .pBufferInfo = &infos[i],
        };
    }
    d->fn.vkUpdateDescriptorSets(d->dev, VKP_BINDINGS, writes, 0, NULL);

    unsigned char push[VKP_PUSH_BYTES];
    fill_push(push, args, &types, w, vectors);
    uint32_t push_bytes = VKP_PUSH_UINTS * 4 + 2 * (uint32_t)vkp_arith_size(types.c);

    if ((st = vkp_commands_begin(d)) != GH_OK) return st;
    /* Uploads and earlier kernels must land before this one reads. */
    vkp_barrier(d, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    if (d->timestamps) d->fn.vkCmdResetQueryPool(d->cmd, d->timestamps, 0, 2);
    d->fn.vkCmdBindPipeline(d->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    d->fn.vkCmdBindDescriptorSets(d->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, d->layout, 0, 1, &d->set, 0, NULL);
    d->fn.vkCmdPushConstants(d->cmd, d->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes, push);
    if (d->timestamps) d->fn.vkCmdWriteTimestamp(d->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, d->timestamps, 0);
    d->fn.vkCmdDispatch(d->cmd, (uint32_t)groups_x, (uint32_t)groups_y, 1);
    if (d->timestamps) d->fn.vkCmdWriteTimestamp(d->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, d->timestamps, 1);

    double host_start = now_ms();
    if ((st = vkp_commands_submit(d, "gemm")) != GH_OK) return st;
    double host_ms = now_ms() - host_start;

    double kernel_ms = host_ms;
    gh_clock clock = GH_CLOCK_HOST;
    if (d->timestamps) {
        uint64_t ticks[2];
        VKP_TRY(d->fn.vkGetQueryPoolResults(d->dev, d->timestamps, 0, 2, sizeof ticks, ticks, sizeof ticks[0],
                                            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                "gemm timestamps");
        uint64_t mask = d->timestamp_bits >= 64 ? UINT64_MAX : (1ull << d->timestamp_bits) - 1;
        uint64_t elapsed = (ticks[1] - ticks[0]) & mask; /* wraps within the valid bits */
        kernel_ms = (double)elapsed * d->props.limits.timestampPeriod / 1e6;
        clock = GH_CLOCK_DEVICE;
    }
    if (timing) {
        if (GH_HAS_MEMBER(timing, gh_gemm_timing, kernel_ms)) timing->kernel_ms = kernel_ms;
        if (GH_HAS_MEMBER(timing, gh_gemm_timing, clock)) timing->clock = clock;
    }
    return GH_OK;
}
