/* naive's parameter (kernels/vulkan/naive.comp); see kernels.h. */
#include "gemmhost/plugin_helpers.h"
#include "kernels.h"

static const int64_t sides[] = {4, 8, 16, 32};

const gh_param_info vkp_naive_params[VKP_NAIVE_PARAMS] = {
    GH_PLUGIN_PARAM("wg", "workgroup side: wg x wg invocations, one per element of C", 16, sides),
};
