/* tiled's parameter and shared memory (kernels/vulkan/tiled.comp); see kernels.h. */
#include "gemmhost/plugin_helpers.h"
#include "kernels.h"

static const int64_t sides[] = {4, 8, 16, 32};

const gh_param_info vkp_tiled_params[VKP_TILED_PARAMS] = {
    GH_PLUGIN_PARAM("tile",
                    "side of the block of C one workgroup computes (tile x tile invocations) "
                    "and of the A and B tiles it stages in shared memory",
                    16, sides),
};

/* Shared memory the tiled shader declares: two tiles with rows padded by one
 * element (kernels/vulkan/tiled.comp). */
uint64_t vkp_tiled_shared_bytes(uint32_t tile, gh_dtype dtype)
{
    return 2ull * tile * (tile + 1) * vkp_arith_size(dtype);
}
