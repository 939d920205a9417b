/* See output_lock.h. */
#define _GNU_SOURCE
#include "output_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output_guard.h"
#include "replace_file.h"
#include "util.h"

struct gh_output_lock {
    char *path;
    int fd;
};

/* The first `size - 1` bytes of a file, NUL-terminated; NULs become spaces
 * (a /proc cmdline). Returns the length read, or -1. */
static ssize_t read_text(int fd, char *out, size_t size)
{
    size_t len = 0;
    while (len + 1 < size) {
        ssize_t got = pread(fd, out + len, size - 1 - len, (off_t)len);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return -1;
        if (got == 0) break;
        len += (size_t)got;
    }
    while (len && (out[len - 1] == '\0' || out[len - 1] == '\n')) len--;
    for (size_t i = 0; i < len; i++)
        if (out[i] == '\0') out[i] = ' ';
    out[len] = '\0';
    return (ssize_t)len;
}

/* The pid /proc/locks gives for an flock on this inode, or 0: for a holder
 * that wrote nothing in the file (flock(1), or a run that is just starting). */
static long flock_holder(ino_t ino)
{
    FILE *f = fopen("/proc/locks", "r");
    if (!f) return 0;
    char line[256];
    long pid = 0;
    while (!pid && fgets(line, sizeof line, f)) {
        char type[16], rw[16];
        long p;
        unsigned maj, min;
        unsigned long long i;
        /* "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; a waiter's line has "->" and does not match */
        if (sscanf(line, "%*d: %15s %*s %15s %ld %x:%x:%llu", type, rw, &p, &maj, &min, &i) == 6 &&
            strcmp(type, "FLOCK") == 0 && i == (unsigned long long)ino)
            pid = p;
    }
    fclose(f);
    return pid;
}

/* "pid 1234 on HOST: gemmhost --config a.ini": who holds it. */
static void describe_holder(int fd, char *out, size_t size)
{
    char text[1024];
    long pid = 0;
    if (read_text(fd, text, sizeof text) > 0 && sscanf(text, "pid %ld", &pid) == 1 && pid > 0) {
        snprintf(out, size, "%s", text); /* as the holder wrote it */
        return;
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && (pid = flock_holder(st.st_ino)) > 0) {
        char path[64], cmd[512] = "";
        snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
        int cfd = open(path, O_RDONLY | O_CLOEXEC);
        if (cfd >= 0) {
            if (read_text(cfd, cmd, sizeof cmd) < 0) cmd[0] = '\0';
            close(cfd);
        }
        snprintf(out, size, "pid %ld%s%s", pid, cmd[0] ? ": " : "", cmd);
        return;
    }
    snprintf(out, size, "a process that wrote no pid there, and /proc/locks does not name it");
}

/* "pid 1234 on HOST: COMMAND LINE": for the message of a run refused. */
static int write_identity(int fd, char *err, size_t err_size, const char *path)
{
    char host[256] = "", cmd[1024] = "";
    if (gethostname(host, sizeof host) != 0) snprintf(host, sizeof host, "an unknown host");
    host[sizeof host - 1] = '\0';
    int cfd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (cfd >= 0) {
        if (read_text(cfd, cmd, sizeof cmd) < 0) cmd[0] = '\0';
        close(cfd);
    }
    char *text = gh_strdupf("pid %ld on %s: %s\n", (long)getpid(), host, cmd[0] ? cmd : "gemmhost");
    size_t len = strlen(text);
    int bad = ftruncate(fd, 0) != 0 || pwrite(fd, text, len, 0) != (ssize_t)len;
    if (bad) snprintf(err, err_size, "cannot write the lock file %s: %s", path, strerror(errno));
    free(text);
    return bad ? -1 : 0;
}

gh_output_lock *gh_output_lock_take(const char *path, const char *what, char *err, size_t err_size)
{
    if (gh_make_parent_folders(path, err, err_size) != 0) return NULL;
    /* A run that ends removes the file while holding it: the one we opened
     * may be gone by the time we hold it; then again, on the new file. */
    for (int attempt = 0; attempt < 100; attempt++) {
        int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
        if (fd < 0) {
            snprintf(err, err_size, "cannot create the lock file %s: %s", path,
                     errno == ELOOP ? "it is a symbolic link (gemmhost locks only a file of its own)"
                                    : strerror(errno));
            return NULL;
        }
        struct stat held, now;
        if (fstat(fd, &held) != 0 || !S_ISREG(held.st_mode)) {
            int saved = errno;
            snprintf(err, err_size, "cannot use the lock file %s: %s", path,
                     S_ISREG(held.st_mode) ? strerror(saved) : gh_file_kind_name(held.st_mode));
            close(fd);
            return NULL;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            if (errno == EWOULDBLOCK) {
                char who[1200];
                describe_holder(fd, who, sizeof who);
                snprintf(err, err_size,
                         "another run is writing %s: it holds the lock %s (%s); wait for it to end, or give this "
                         "run other paths",
                         what, path, who);
            } else {
                snprintf(err, err_size, "cannot lock %s: %s", path, strerror(errno));
            }
            close(fd);
            return NULL;
        }
        if (stat(path, &now) != 0 || now.st_dev != held.st_dev || now.st_ino != held.st_ino) {
            close(fd); /* removed by the run that held it: take the new one */
            continue;
        }
        if (write_identity(fd, err, err_size, path) != 0) {
            close(fd);
            return NULL;
        }
        gh_output_lock *l = gh_xcalloc(1, sizeof *l);
        l->path = gh_strdup(path);
        l->fd = fd;
        return l;
    }
    snprintf(err, err_size, "cannot lock %s: it was replaced 100 times while gemmhost tried", path);
    return NULL;
}

int gh_output_lock_release(gh_output_lock *l, char *err, size_t err_size)
{
    if (!l) return 0;
    int rc = 0;
    if (unlink(l->path) != 0 && errno != ENOENT) {
        snprintf(err, err_size, "cannot remove the lock file %s: %s", l->path, strerror(errno));
        rc = -1;
    }
    if (close(l->fd) != 0 && rc == 0) {
        snprintf(err, err_size, "cannot close the lock file %s: %s", l->path, strerror(errno));
        rc = -1;
    }
    free(l->path);
    free(l);
    return rc;
}
