/* naive's parameter and launch shape; see kernels.h. */
#include <gemmhost/plugin_helpers.h>
#include "kernels.h"

static const int64_t wg_allowed[] = {8, 16, 32};

const gh_param_info ocl_naive_params[OCL_NAIVE_PARAMS] = {
    [OCL_NAIVE_WG] = GH_PLUGIN_PARAM(
        "wg", "work-group edge: wg x wg work-items, one per element of C (built in with -DWG)", 16, wg_allowed),
};

void ocl_naive_shape(ocl_variant *v, gh_dtype dtype, uint64_t local_mem_bytes)
{
    (void)dtype;
    (void)local_mem_bytes;
    v->local[0] = v->local[1] = (size_t)v->values[OCL_NAIVE_WG];
    v->block_m = v->block_n = v->values[OCL_NAIVE_WG];
}
