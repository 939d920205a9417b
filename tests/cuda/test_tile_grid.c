/*
 * The grid of a kernel over tiles of C (plugins/cuda/tile_grid.c): one
 * block per tile, or for wgmma's persistent mode at most one per SM, whole
 * clusters, never none. Needs no GPU: runs in CI. The kernel is correct at
 * any grid (kernels/cuda/wgmma.cu); what this holds is that the plugin
 * launches the grid the mode means.
 */
#define CHECK_MAIN
#include "../check.h"

#include "tile_grid.h"

/* gh_cuda_tile_grid(blocks, cluster, persistent, sm_count) is want. */
static void expect_grid(long long blocks, unsigned cluster, int persistent, int sm_count, long long want,
                        const char *what)
{
    const long long got = gh_cuda_tile_grid(blocks, cluster, persistent, sm_count);
    CHECK(got == want, "%s: %lld blocks, cluster %u, persistent %d, %d SMs: grid %lld (want %lld)", what, blocks,
          cluster, persistent, sm_count, got, want);
}

int main(void)
{
    /* A block per tile: the SMs do not matter. */
    expect_grid(2048, 1, 0, 132, 2048, "one block per tile");
    expect_grid(2048, 2, 0, 132, 2048, "one block per tile, in pairs");
    expect_grid(5, 1, 0, 132, 5, "fewer tiles than SMs");

    /* Persistent: min(tiles, SMs), whole clusters. */
    expect_grid(2048, 1, 1, 132, 132, "persistent: one block per SM (H100 SXM, 8192 x 8192 at 128 x 256)");
    expect_grid(2048, 2, 1, 132, 132, "persistent pairs: 66 pairs on 132 SMs");
    expect_grid(2048, 2, 1, 133, 132, "persistent pairs: an odd SM count rounds down to whole pairs");
    expect_grid(2048, 1, 1, 133, 133, "persistent alone: every SM of an odd count");
    expect_grid(40, 1, 1, 132, 40, "persistent with fewer tiles than SMs: a block per tile");
    expect_grid(40, 2, 1, 132, 40, "persistent pairs with fewer tiles than SMs: a pair per pair of tiles");
    expect_grid(132, 1, 1, 132, 132, "persistent, as many tiles as SMs");

    /* At least one cluster, whatever the SM count says. */
    expect_grid(2048, 1, 1, 1, 1, "persistent on one SM: a grid of one");
    expect_grid(2048, 2, 1, 1, 2, "persistent pairs on one SM: one pair");
    expect_grid(2048, 2, 1, 0, 2, "persistent with the SM count unknown (0): one pair");
    expect_grid(2048, 1, 1, -1, 1, "persistent with a negative SM count: one block");

    /* The bound: the SMs, or GEMMHOST_CUDA_PERSISTENT_GRID's whole number. */
    CHECK(gh_cuda_persistent_bound(NULL, 132) == 132, "the bound, unset: the SMs");
    CHECK(gh_cuda_persistent_bound("", 132) == 132, "the bound, empty: the SMs");
    CHECK(gh_cuda_persistent_bound("3", 132) == 3, "the bound, 3: 3");
    CHECK(gh_cuda_persistent_bound("1", 132) == 1, "the bound, 1: 1");
    CHECK(gh_cuda_persistent_bound("500", 132) == 500, "the bound, 500: 500 (more than the SMs: correct, slower)");
    static const char *const bad[] = {"0", "-2", "x", "3x", " ", "2147483648", "99999999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        CHECK(gh_cuda_persistent_bound(bad[i], 132) == -1, "the bound, \"%s\": refused (-1)", bad[i]);

    /* Nothing to compute: no blocks. */
    expect_grid(0, 1, 1, 132, 0, "persistent, no tiles");
    expect_grid(0, 2, 0, 132, 0, "no tiles");
    return check_summary("cuda_tile_grid");
}
