#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util.h"

static void out_of_memory(size_t size)
{
    fprintf(stderr, "gemmhost: out of memory allocating %zu bytes\n", size);
    exit(4);
}

void *gh_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p) out_of_memory(size);
    return p;
}

void *gh_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) out_of_memory(n * size);
    return p;
}

void *gh_xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (!q) out_of_memory(size);
    return q;
}

char *gh_strdup(const char *s)
{
    size_t len = strlen(s) + 1;
    return memcpy(gh_xmalloc(len), s, len);
}

/* Measured, then written into our own allocation rather than vasprintf's: a
 * leaked result's stack then names its caller (LeakSanitizer's fast unwinder
 * stops inside libc, which has no frame pointers). */
char *gh_vstrdupf(const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    const int len = vsnprintf(NULL, 0, fmt, ap);
    if (len < 0) out_of_memory(strlen(fmt));
    char *out = gh_xmalloc((size_t)len + 1);
    vsnprintf(out, (size_t)len + 1, fmt, again);
    va_end(again);
    return out;
}

char *gh_strdupf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *out = gh_vstrdupf(fmt, ap);
    va_end(ap);
    return out;
}

double gh_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void gh_iso_time_now(char out[32])
{
    time_t now = time(NULL);
    struct tm tm;
    if (now == (time_t)-1 || !gmtime_r(&now, &tm) || strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        snprintf(out, 32, "unknown");
}
