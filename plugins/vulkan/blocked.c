/* blocked's parameters, k step and shared memory (kernels/vulkan/blocked.comp); see kernels.h. */
#include "gemmhost/plugin_helpers.h"
#include "kernels.h"

static const int64_t blocked_tiles[] = {32, 64, 128};
static const int64_t blocked_works[] = {2, 4, 8};

/* Defaults: 256 invocations of 8 x 8 accumulators, the usual shape of a
 * register-blocked SGEMM on NVIDIA GPUs. */
const gh_param_info vkp_blocked_params[VKP_BLOCKED_PARAMS] = {
    GH_PLUGIN_PARAM("tile", "side of the block of C one workgroup computes, (tile/work)^2 invocations", 128,
                    blocked_tiles),
    GH_PLUGIN_PARAM("work", "side of the block of C each invocation keeps in registers (work x work)", 8,
                    blocked_works),
};

/* Shared memory the blocked shader declares: two tiles of depth rows of
 * tile + 4 elements (kernels/vulkan/blocked.comp). */
uint64_t vkp_blocked_shared_bytes(uint32_t tile, uint32_t depth, gh_dtype dtype)
{
    return 2ull * depth * (tile + 4) * vkp_arith_size(dtype);
}

/* The k step of blocked: 16, or 8 where 16 would not fit. */
enum { BLOCKED_DEPTH = 16, BLOCKED_DEPTH_MIN = 8 };

uint32_t vkp_blocked_depth(uint32_t tile, gh_dtype dtype, uint32_t max_shared_bytes)
{
    return vkp_blocked_shared_bytes(tile, BLOCKED_DEPTH, dtype) > max_shared_bytes ? BLOCKED_DEPTH_MIN : BLOCKED_DEPTH;
}
