/* The grid of a kernel over tiles of C; see tile_grid.h. */
#include "tile_grid.h"

long long gh_cuda_tile_grid(long long blocks, unsigned cluster, int persistent, int sm_count)
{
    if (!persistent || blocks <= 0) return blocks;
    const long long per = cluster > 0 ? (long long)cluster : 1;
    /* A persistent block stays on its SM: more blocks than SMs would only
     * wait for the first ones to finish all their tiles. */
    long long grid = blocks < sm_count ? blocks : (long long)sm_count;
    grid -= grid % per;
    return grid > per ? grid : per;
}
