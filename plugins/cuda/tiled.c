/* tiled's parameter (kernels/cuda/tiled.cu); see kernels.h. */
#include "gemmhost/plugin_helpers.h"
#include "kernels.h"

const int64_t gh_cuda_tiles[GH_CUDA_TILE_COUNT] = {4, 8, 16, 32};

const gh_param_info gh_cuda_tiled_params[GH_CUDA_TILED_PARAMS] = {
    GH_PLUGIN_PARAM("tile", "edge of the square thread block and of the tiles of A and B staged in shared memory", 16,
                    gh_cuda_tiles),
};
