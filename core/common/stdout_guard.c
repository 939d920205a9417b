/* See stdout_guard.h. */
#define _POSIX_C_SOURCE 200809L
#include "stdout_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int stdout_was_closed;

/* Opens `path` onto descriptor fd (the lowest free one, as fd is). */
static int stand_in(int fd, const char *path)
{
    int got = open(path, fd == STDIN_FILENO ? O_RDONLY : O_WRONLY);
    if (got == fd) return 0;
    if (got >= 0) close(got);
    return -1;
}

void gh_stdio_guard_begin(void)
{
    for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        if (fd == STDOUT_FILENO) stdout_was_closed = 1;
        if (fd == STDOUT_FILENO && stand_in(fd, "/dev/full") == 0) continue;
        if (stand_in(fd, "/dev/null") != 0) {
            /* nothing to stand in (no /dev): files may land on it; say so where we can */
            if (fd != STDERR_FILENO)
                fprintf(stderr, "gemmhost: warning: descriptor %d is closed and /dev/null cannot be opened\n", fd);
        }
    }
}

int gh_stdout_check(char *err, size_t err_size)
{
    int flushed = fflush(stdout) == 0;
    int saved = errno;
    if (flushed && !ferror(stdout)) return 0;
    if (stdout_was_closed)
        snprintf(err, err_size, "standard output was closed when gemmhost started: what it printed there was lost");
    else
        snprintf(err, err_size, "cannot write to standard output: %s; what gemmhost printed there is incomplete",
                 flushed ? "an earlier write failed" : strerror(saved));
    return -1;
}
