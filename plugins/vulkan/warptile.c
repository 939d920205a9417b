/* warptile's parameters, limits and shared memory (kernels/vulkan/warptile.comp); see kernels.h. */
#include "gemmhost/plugin_helpers.h"
#include "kernels.h"

static const int64_t warptile_tiles[] = {64, 128};
static const int64_t warptile_depths[] = {8, 16, 32};
static const int64_t warptile_works[] = {4, 8};
static const int64_t warptile_unrolls[] = {0, 1};
static const int64_t warptile_aspects[] = {1, 2};

/* Defaults: blocked's shape (256 invocations of 8 x 8, a 128 x 128 block)
 * with a k step of 16, 32 KiB of shared memory in f32 (double-buffered). */
const gh_param_info vkp_warptile_params[VKP_WARPTILE_PARAMS] = {
    GH_PLUGIN_PARAM("tile", "side of the block of C one workgroup computes, (tile/work)^2 invocations", 128,
                    warptile_tiles),
    GH_PLUGIN_PARAM("depth", "k step: tile x depth tiles of A and B staged per step, two of each in shared memory", 16,
                    warptile_depths),
    GH_PLUGIN_PARAM("work",
                    "side of the block of C each invocation keeps in registers (work x work); "
                    "a subgroup of 32 computes 4 work x 8 work",
                    8, warptile_works),
    GH_PLUGIN_PARAM("unroll",
                    "the k loop within a step: 0 rolled in the SPIR-V, marked for the driver to unroll; "
                    "1 unrolled by glslc (a module twice the size; aspect 1 only)",
                    0, warptile_unrolls),
    GH_PLUGIN_PARAM("aspect",
                    "rows per column of the block of C and of each invocation's work: 2 makes them "
                    "2 tile x tile and 2 work x work (the same invocations, twice the registers)",
                    1, warptile_aspects),
};

/* Shared memory the warptile shader declares: two buffers of a block_m x
 * depth tile of A and a depth x block_n one of B, unpadded
 * (kernels/vulkan/warptile.comp). */
uint64_t vkp_warptile_shared_bytes(const vkp_variant *v, gh_dtype dtype)
{
    return 2ull * v->depth * (v->block_m + v->block_n) * vkp_arith_size(dtype);
}

/* Loads of one staged tile per invocation that kernels/vulkan/warptile.comp
 * can track: tile = 64, depth = 32, work = 8 reaches it at aspect 1 and
 * passes it at aspect 2 (64). */
enum { WARPTILE_MAX_LOADS = 32 };

/* Where warptile has no module for v, or its shader cannot run v. */
gh_status vkp_warptile_limits(const vkp_variant *v)
{
    const char *kname = vkp_kernels[VKP_KERNEL_WARPTILE].name;
    if (v->unrolled && v->aspect > 1)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "gemm: kernel %s: %s: unroll = 1 is built at aspect 1 only (glslc needed "
                                   "11 GiB to unroll an aspect 2 module; plugins/vulkan/CMakeLists.txt)",
                                   kname, v->label);
    /* A bit per load of a step (whether it lies in the matrix) in a uint;
     * A's tile is the larger. */
    uint32_t loads = (v->block_m * v->depth + v->invocations - 1) / v->invocations;
    if (loads > WARPTILE_MAX_LOADS)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "gemm: kernel %s: %s needs %u loads of A per invocation per step, over "
                                   "the %d the shader tracks (a bit each in a uint)",
                                   kname, v->label, loads, WARPTILE_MAX_LOADS);
    return GH_OK;
}
