/* Shared-memory segments for isolated workers; see shm.h. A handful are
 * alive at once (a case's matrices), so a plain array under one lock. */
#define _GNU_SOURCE
#include "shm.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util.h"

typedef struct segment {
    uint64_t id;
    unsigned char *base;
    uint64_t size;
    int fd, ro_fd;
} segment;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static segment *segments;
static size_t n_segments, cap_segments;
static uint64_t next_id = 1;
static void (*free_hook)(uint64_t id);

void gh_shm_set_free_hook(void (*hook)(uint64_t id))
{
    free_hook = hook;
}

/* A read-only descriptor of the same memory: a worker given it cannot map
 * the segment writable at all, whatever the plugin does. */
static int reopen_read_only(int fd)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    int ro = open(path, O_RDONLY | O_CLOEXEC);
    return ro >= 0 ? ro : -1;
}

void *gh_shm_alloc(size_t bytes)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t size = (bytes ? bytes : 1) + page - 1;
    size -= size % page;
    int fd = memfd_create("gemmhost-matrix", MFD_CLOEXEC);
    if (fd < 0) return NULL;
    if (ftruncate(fd, (off_t)size) != 0) {
        close(fd);
        return NULL;
    }
    void *base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) {
        close(fd);
        return NULL;
    }
    int ro = reopen_read_only(fd);
    pthread_mutex_lock(&lock);
    if (n_segments == cap_segments) {
        cap_segments = cap_segments ? 2 * cap_segments : 16;
        segments = gh_xrealloc(segments, cap_segments * sizeof *segments);
    }
    segments[n_segments++] = (segment){next_id++, base, size, fd, ro >= 0 ? ro : fd};
    pthread_mutex_unlock(&lock);
    return base;
}

void gh_shm_free(void *ptr)
{
    if (!ptr) return;
    pthread_mutex_lock(&lock);
    segment s = {0};
    for (size_t i = 0; i < n_segments; i++)
        if (segments[i].base == ptr) {
            s = segments[i];
            segments[i] = segments[--n_segments];
            break;
        }
    pthread_mutex_unlock(&lock);
    if (!s.base) return;
    if (free_hook) free_hook(s.id);
    munmap(s.base, s.size);
    if (s.ro_fd != s.fd) close(s.ro_fd);
    close(s.fd);
}

static void *shm_alloc_bytes(void *user, size_t bytes)
{
    (void)user;
    return gh_shm_alloc(bytes);
}

static void shm_free_bytes(void *user, void *ptr)
{
    (void)user;
    gh_shm_free(ptr);
}

const gh_host_allocator *gh_shm_allocator(void)
{
    static const gh_host_allocator shared = {shm_alloc_bytes, shm_free_bytes, NULL};
    return &shared;
}

int gh_shm_find(const void *ptr, uint64_t bytes, gh_shm_place *out)
{
    const unsigned char *p = ptr;
    int rc = -1;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < n_segments && rc != 0; i++) {
        const segment *s = &segments[i];
        if (p < s->base || p > s->base + s->size) continue;
        uint64_t offset = (uint64_t)(p - s->base);
        if (bytes > s->size - offset) continue;
        *out = (gh_shm_place){s->id, offset, s->size, s->fd, s->ro_fd};
        rc = 0;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}
