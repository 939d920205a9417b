/* tiled's parameter and launch shape; see kernels.h. */
#include <gemmhost/plugin_helpers.h>
#include "kernels.h"

static const int64_t tile_allowed[] = {4, 8, 16, 32};

const gh_param_info ocl_tiled_params[OCL_TILED_PARAMS] = {
    [OCL_TILED_TILE] = GH_PLUGIN_PARAM("tile",
                                       "tile edge: tile x tile work-items per work-group, tiles of A and B "
                                       "of tile x tile in local memory (built in with -DTILE)",
                                       16, tile_allowed),
};

void ocl_tiled_shape(ocl_variant *v, gh_dtype dtype, uint64_t local_mem_bytes)
{
    (void)local_mem_bytes;
    const uint64_t tile = (uint64_t)v->values[OCL_TILED_TILE];
    v->local[0] = v->local[1] = (size_t)tile;
    v->block_m = v->block_n = (int64_t)tile;
    /* Two tiles of tile x (tile + 1): one column of padding (see tiled.cl). */
    v->local_bytes = 2 * tile * (tile + 1) * ocl_tile_elem_bytes(dtype);
}
