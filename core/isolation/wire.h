/* The messages between gemmhost and its worker processes (docs/isolation.md):
 * one SOCK_SEQPACKET message per request and per reply, fields packed in
 * order (little-endian as the host is: both ends are the same binary). */
#ifndef GEMMHOST_WIRE_H
#define GEMMHOST_WIRE_H

#include <stddef.h>
#include <stdint.h>

/* The largest message: infos and options are small; data goes through
 * shared memory, never through the socket. */
#define GH_WIRE_MAX (64 * 1024)

typedef enum gh_wire_op {
    GH_OP_LOAD = 1, /* path -> the table's static data, or why it did not load */
    GH_OP_OPEN,
    GH_OP_CLOSE,
    GH_OP_DEVICE_COUNT,
    GH_OP_DEVICE_INFO,
    GH_OP_KERNEL_COUNT,
    GH_OP_KERNEL_INFO,
    GH_OP_BUFFER_ALLOC,
    GH_OP_BUFFER_FREE,
    GH_OP_UPLOAD,
    GH_OP_DOWNLOAD,
    GH_OP_GEMM,
    GH_OP_SYNCHRONIZE,
    GH_OP_STREAM_CREATE,
    GH_OP_STREAM_DESTROY,
    GH_OP_UPLOAD_2D_ASYNC,
    GH_OP_DOWNLOAD_2D_ASYNC,
    GH_OP_GEMM_ASYNC,
    GH_OP_STREAM_SYNCHRONIZE,
    GH_OP_MAP,   /* one way, carries a descriptor: map segment id (size, writable) */
    GH_OP_UNMAP, /* one way: drop segment id */
    GH_OP_HOST_REGISTER,
    GH_OP_GEMM_BATCH_ASYNC, /* ABI 1.6's call, or its emulation with gemm_async */
    GH_OP_COUNT
} gh_wire_op;

const char *gh_wire_op_name(uint32_t op);

/* A message being built or read. Reads past the end set `bad` and return
 * zeros, so a decoder checks once at the end. */
typedef struct gh_wire {
    unsigned char buf[GH_WIRE_MAX];
    size_t len, pos;
    int bad;
} gh_wire;

void gh_wire_start(gh_wire *w, uint32_t op_or_status);
void gh_wire_u32(gh_wire *w, uint32_t v);
void gh_wire_u64(gh_wire *w, uint64_t v);
void gh_wire_i64(gh_wire *w, int64_t v);
void gh_wire_f64(gh_wire *w, double v);
void gh_wire_str(gh_wire *w, const char *s); /* NULL stays NULL */

uint32_t gh_wire_get_u32(gh_wire *w);
uint64_t gh_wire_get_u64(gh_wire *w);
int64_t gh_wire_get_i64(gh_wire *w);
double gh_wire_get_f64(gh_wire *w);
/* A malloc'ed copy, or NULL for a NULL string (or a bad read). */
char *gh_wire_get_str(gh_wire *w);

/* Sends w (with a descriptor when fd >= 0). Returns 0, or -1 (errno set;
 * EPIPE/ECONNRESET: the peer is gone). */
int gh_wire_send(int sock, const gh_wire *w, int fd);
/* Receives one message into w, and its descriptor into *fd (-1 if none;
 * fd may be NULL when none is expected: one that comes is closed).
 * Returns 1, 0 at end of stream (the peer closed or died), -1 on error. */
int gh_wire_recv(int sock, gh_wire *w, int *fd);

#endif
