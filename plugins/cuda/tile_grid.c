/* The grid of a kernel over tiles of C; see tile_grid.h. */
#include "tile_grid.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>

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

int gh_cuda_persistent_bound(const char *text, int sm_count)
{
    if (!text || !*text) return sm_count;
    char *end = NULL;
    errno = 0;
    const long long value = strtoll(text, &end, 10);
    if (errno || *end || value < 1 || value > INT_MAX) return -1;
    return (int)value;
}
