/* Packing and moving worker messages; see wire.h. */
#define _GNU_SOURCE
#include "wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util.h"

const char *gh_wire_op_name(uint32_t op)
{
    static const char *const names[GH_OP_COUNT] = {
        [GH_OP_LOAD] = "loading the plugin",
        [GH_OP_OPEN] = "open",
        [GH_OP_CLOSE] = "close",
        [GH_OP_DEVICE_COUNT] = "device_count",
        [GH_OP_DEVICE_INFO] = "device_info",
        [GH_OP_KERNEL_COUNT] = "kernel_count",
        [GH_OP_KERNEL_INFO] = "kernel_info",
        [GH_OP_BUFFER_ALLOC] = "buffer_alloc",
        [GH_OP_BUFFER_FREE] = "buffer_free",
        [GH_OP_UPLOAD] = "upload",
        [GH_OP_DOWNLOAD] = "download",
        [GH_OP_GEMM] = "gemm",
        [GH_OP_SYNCHRONIZE] = "synchronize",
        [GH_OP_STREAM_CREATE] = "stream_create",
        [GH_OP_STREAM_DESTROY] = "stream_destroy",
        [GH_OP_UPLOAD_2D_ASYNC] = "upload_2d_async",
        [GH_OP_DOWNLOAD_2D_ASYNC] = "download_2d_async",
        [GH_OP_GEMM_ASYNC] = "gemm_async",
        [GH_OP_STREAM_SYNCHRONIZE] = "stream_synchronize",
        [GH_OP_MAP] = "mapping shared memory",
        [GH_OP_UNMAP] = "unmapping shared memory",
        [GH_OP_HOST_REGISTER] = "host_register",
        [GH_OP_GEMM_BATCH_ASYNC] = "gemm_batch_async",
    };
    return op < GH_OP_COUNT && names[op] ? names[op] : "an unknown request";
}

static void put(gh_wire *w, const void *p, size_t n)
{
    if (w->bad || n > sizeof w->buf - w->len) {
        w->bad = 1;
        return;
    }
    memcpy(w->buf + w->len, p, n);
    w->len += n;
}

static void get(gh_wire *w, void *p, size_t n)
{
    if (w->bad || n > w->len - w->pos) {
        w->bad = 1;
        memset(p, 0, n);
        return;
    }
    memcpy(p, w->buf + w->pos, n);
    w->pos += n;
}

void gh_wire_start(gh_wire *w, uint32_t op_or_status)
{
    w->len = w->pos = 0;
    w->bad = 0;
    gh_wire_u32(w, op_or_status);
}

/* The scalars, in the host's byte order: a writer and a reader each. */
#define WIRE_SCALAR(name, type)             \
    void gh_wire_##name(gh_wire *w, type v) \
    {                                       \
        put(w, &v, sizeof v);               \
    }                                       \
    type gh_wire_get_##name(gh_wire *w)     \
    {                                       \
        type v;                             \
        get(w, &v, sizeof v);               \
        return v;                           \
    }
WIRE_SCALAR(u32, uint32_t)
WIRE_SCALAR(u64, uint64_t)
WIRE_SCALAR(i64, int64_t)
WIRE_SCALAR(f64, double)

/* Length + 1 (0 for NULL), then the bytes without the terminator. */
void gh_wire_str(gh_wire *w, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (n > GH_WIRE_MAX) n = GH_WIRE_MAX; /* too long for any message: bad below */
    gh_wire_u32(w, s ? (uint32_t)n + 1 : 0);
    if (s) put(w, s, n);
}

char *gh_wire_get_str(gh_wire *w)
{
    uint32_t n = gh_wire_get_u32(w);
    if (n == 0 || w->bad) return NULL;
    if (n - 1 > w->len - w->pos) {
        w->bad = 1;
        return NULL;
    }
    char *s = gh_xmalloc(n);
    memcpy(s, w->buf + w->pos, n - 1);
    s[n - 1] = '\0';
    w->pos += n - 1;
    return s;
}

int gh_wire_send(int sock, const gh_wire *w, int fd)
{
    if (w->bad) {
        errno = EMSGSIZE;
        return -1;
    }
    struct iovec iov = {(void *)w->buf, w->len};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
    union {
        struct cmsghdr align;
        char bytes[CMSG_SPACE(sizeof(int))];
    } control;
    if (fd >= 0) {
        memset(&control, 0, sizeof control);
        msg.msg_control = control.bytes;
        msg.msg_controllen = sizeof control.bytes;
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof fd);
    }
    for (;;) {
        ssize_t n = sendmsg(sock, &msg, MSG_NOSIGNAL);
        if (n >= 0) return 0;
        if (errno != EINTR) return -1;
    }
}

int gh_wire_recv(int sock, gh_wire *w, int *fd)
{
    if (fd) *fd = -1;
    w->len = w->pos = 0;
    w->bad = 0;
    struct iovec iov = {w->buf, sizeof w->buf};
    union {
        struct cmsghdr align;
        char bytes[CMSG_SPACE(sizeof(int))];
    } control;
    struct msghdr msg = {
        .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.bytes, .msg_controllen = sizeof control.bytes};
    ssize_t n;
    do n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
    while (n < 0 && errno == EINTR);
    if (n < 0) return errno == ECONNRESET ? 0 : -1;
    if (n == 0) return 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        int got;
        memcpy(&got, CMSG_DATA(c), sizeof got);
        if (fd) *fd = got;
        else close(got);
    }
    w->len = (size_t)n;
    if (msg.msg_flags & MSG_TRUNC) w->bad = 1;
    return 1;
}
