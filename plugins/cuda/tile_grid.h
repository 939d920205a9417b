/*
 * How many thread blocks a kernel that numbers its tiles of C in one
 * dimension launches (warptile, mma, wgmma): one per tile, or for wgmma's
 * persistent mode at most one per SM, each walking tile after tile
 * (kernels/cuda/wgmma.cu). Plain arithmetic: no CUDA header, so a unit test
 * runs it without a GPU (tests/cuda/test_tile_grid.c).
 */
#ifndef GH_CUDA_TILE_GRID_H
#define GH_CUDA_TILE_GRID_H

/* The grid's blocks for `blocks` of C, one per tile (cluster blocks a
 * tile's cluster, blocks a multiple of it): all of them; with persistent,
 * min(blocks, sm_count) rounded down to a multiple of the cluster, and at
 * least one cluster (an sm_count under the cluster, or unknown at 0, gives
 * one cluster: correct at any grid, only slower). No blocks, none. */
long long gh_cuda_tile_grid(long long blocks, unsigned cluster, int persistent, int sm_count);

/* The blocks a persistent grid is bound by: the device's SMs, or the
 * number in this environment variable (the device tests: a grid of a few
 * blocks, each walking many tiles, on small matrices; the kernel is correct
 * at any grid). */
#define GH_CUDA_PERSISTENT_GRID_ENV "GEMMHOST_CUDA_PERSISTENT_GRID"
/* That bound for the variable's value `text` (NULL or empty: unset):
 * sm_count, or the number text holds; -1 when text is not a whole number
 * from 1 to 2^31 - 1. */
int gh_cuda_persistent_bound(const char *text, int sm_count);

#endif
