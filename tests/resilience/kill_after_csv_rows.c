/*
 * LD_PRELOAD shim for test_signals.sh: SIGKILLs the process the moment a
 * flush has brought a results CSV (a file whose name ends in ".csv") to
 * GEMMHOST_TEST_KILL_AFTER_CSV_ROWS rows after its header. That is the
 * worst moment for a kill: a result's CSV row is on disk, and anything the
 * report writes after it is not, so the test sees whether every row of the
 * CSV is in the record log that --resume reads. Without the variable it
 * does nothing.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Lines in the file at path, or -1. */
static long lines_in(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    long lines = 0;
    for (int c; (c = getc(f)) != EOF;) lines += c == '\n';
    fclose(f);
    return lines;
}

int fflush(FILE *stream)
{
    static int (*real_fflush)(FILE *);
    if (!real_fflush) *(void **)&real_fflush = dlsym(RTLD_NEXT, "fflush");
    const int rc = real_fflush(stream);
    const char *limit = getenv("GEMMHOST_TEST_KILL_AFTER_CSV_ROWS");
    if (!limit || !stream) return rc;
    char link[64], path[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fileno(stream));
    const ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 4) return rc;
    path[n] = '\0';
    if (strcmp(path + n - 4, ".csv") == 0 && lines_in(path) - 1 >= atol(limit)) raise(SIGKILL);
    return rc;
}
