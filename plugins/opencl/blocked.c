/* blocked's parameters and launch shape; see kernels.h. */
#include <gemmhost/plugin_helpers.h>
#include "kernels.h"

static const int64_t tile_allowed[] = {32, 64, 128};
static const int64_t work_allowed[] = {2, 4, 8};

const gh_param_info ocl_blocked_params[OCL_BLOCKED_PARAMS] = {
    [OCL_BLOCKED_TILE] = GH_PLUGIN_PARAM("tile",
                                         "edge of the block of C a work-group computes from tiles of tile x 16 of A "
                                         "and B in local memory (x 8 where local memory is short; built in with "
                                         "-DTILE)",
                                         128, tile_allowed),
    [OCL_BLOCKED_WORK] = GH_PLUGIN_PARAM("work",
                                         "edge of the micro-tile of C each work-item keeps in registers: "
                                         "(tile/work)^2 work-items per work-group (built in with -DWORK)",
                                         8, work_allowed),
};

/* blocked.cl's local memory: two tiles of DEPTH rows of TILE elements, each
 * row padded by 16 bytes (PAD there). */
static uint64_t local_bytes(int64_t tile, int depth, gh_dtype dtype)
{
    const uint64_t elem = ocl_tile_elem_bytes(dtype), pad = 16 / elem;
    return 2 * (uint64_t)depth * ((uint64_t)tile + pad) * elem;
}

void ocl_blocked_shape(ocl_variant *v, gh_dtype dtype, uint64_t local_mem_bytes)
{
    const int64_t tile = v->values[OCL_BLOCKED_TILE], work = v->values[OCL_BLOCKED_WORK];
    v->local[0] = v->local[1] = (size_t)(tile / work);
    v->block_m = v->block_n = tile;
    /* 16 along K, unless the device's local memory only holds 8. */
    v->depth = 16;
    if (local_mem_bytes && local_bytes(tile, 16, dtype) > local_mem_bytes) v->depth = 8;
    v->local_bytes = local_bytes(tile, v->depth, dtype);
}
