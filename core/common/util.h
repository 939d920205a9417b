/* Small allocation and string helpers the core shares. Allocation failures
 * of a few bytes end the program with a message: there is no sensible way
 * to go on, and checking every strdup hides the real logic. */
#ifndef GEMMHOST_UTIL_H
#define GEMMHOST_UTIL_H

#include <stdarg.h>
#include <stddef.h>

void *gh_xmalloc(size_t size);
void *gh_xcalloc(size_t n, size_t size);
void *gh_xrealloc(void *p, size_t size);
char *gh_strdup(const char *s);
char *gh_strdupf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *gh_vstrdupf(const char *fmt, va_list ap);
/* Milliseconds on a monotonic clock. */
double gh_now_ms(void);
/* The UTC time now as 2026-01-31T12:00:00Z, or "unknown". */
void gh_iso_time_now(char out[32]);

#endif
