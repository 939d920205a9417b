/* blocked's parameters, K step and shared memory (kernels/cuda/blocked.cu); see kernels.h. */
#include "gemmhost/plugin_helpers.h"
#include "kernels.h"

const int64_t gh_cuda_blocked_tiles[GH_CUDA_BLOCKED_TILE_COUNT] = {32, 64, 128};
const int64_t gh_cuda_blocked_works[GH_CUDA_BLOCKED_WORK_COUNT] = {2, 4, 8};

/* The defaults are the fastest on the H100 at large sizes: 256 threads, each
 * with an 8 x 8 block of C. (tile / work)^2 must stay within the device's
 * threads per block: tile 128 with work 2 (4096 threads) is unsupported. */
const gh_param_info gh_cuda_blocked_params[GH_CUDA_BLOCKED_PARAMS] = {
    GH_PLUGIN_PARAM("tile",
                    "edge of the block of C a thread block computes (and of the tiles of A and B in shared memory)",
                    128, gh_cuda_blocked_tiles),
    GH_PLUGIN_PARAM("work", "edge of the block of C each thread keeps in registers; (tile / work)^2 threads per block",
                    8, gh_cuda_blocked_works),
};

/* blocked.cu: DEPTH is 16, or 8 for 8-byte types so that its two buffers of
 * two DEPTH x (TILE + 16 bytes) tiles stay within 48 KB of static shared
 * memory at tile 128. */
int gh_cuda_blocked_depth(gh_dtype dtype)
{
    return gh_cuda_acc_size(dtype) == 8 ? 8 : 16;
}

long long gh_cuda_blocked_shared_bytes(gh_dtype dtype, int64_t tile)
{
    long long es = (long long)gh_cuda_acc_size(dtype);
    return 2LL * 2LL * gh_cuda_blocked_depth(dtype) * (tile + 16 / es) * es;
}
