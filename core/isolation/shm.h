/* Host memory that worker processes can map: each allocation is a memfd
 * segment of its own, mapped here read-write. A worker maps a segment
 * read-only when it uploads from it and read-write when it downloads into it
 * (core/proxy sends the descriptor once per worker and mode). */
#ifndef GEMMHOST_SHM_H
#define GEMMHOST_SHM_H

#include <stddef.h>
#include <stdint.h>
#include "data.h"

/* A new segment of `bytes` (rounded up to pages), zero-filled; NULL when the
 * memfd or the mapping fails. */
void *gh_shm_alloc(size_t bytes);
/* Unmaps and closes a segment (NULL does nothing); the free hook (below)
 * hears of it first, so workers drop their views. */
void gh_shm_free(void *ptr);
/* The allocator core/run gives the case matrices under isolation. */
const gh_host_allocator *gh_shm_allocator(void);

/* Where [ptr, ptr + bytes) lies: the segment's id, the byte offset in it,
 * its size and its descriptors (read-write, and read-only where /proc lets
 * us reopen it; else the same). Returns 0, or -1 when the range is not
 * inside one segment. */
typedef struct gh_shm_place {
    uint64_t id;
    uint64_t offset;
    uint64_t size;
    int fd, ro_fd;
} gh_shm_place;
int gh_shm_find(const void *ptr, uint64_t bytes, gh_shm_place *out);

/* Called with a segment's id when it is freed, before its descriptors are
 * closed; one hook for the process (core/proxy's). */
void gh_shm_set_free_hook(void (*hook)(uint64_t id));

#endif
