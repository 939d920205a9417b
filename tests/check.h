/*
 * tests/check.h: the one verdict helper of the C tests. Each check prints
 * one line and is counted:
 *
 *   ok: WHAT        a check that passed (not printed when check_quiet is set)
 *   FAIL: WHAT      a check that failed, with its reason
 *   skip: WHAT      a check that could not run, with why; never a pass
 *
 * and check_summary() prints the counts and gives the exit status.
 *
 *   CHECK(got == 3, "parse: three fields (got %d)", got);
 *   if (!have_device) check_skip("gemm: no device here");
 *   return check_summary("parser");
 *
 * Header-only: exactly one file of a test program defines CHECK_MAIN before
 * including it (that file holds the counters); the others just include it.
 * Checks may come from several threads: the counters are atomic and each
 * line is written with one call.
 */
#ifndef GEMMHOST_TESTS_CHECK_H
#define GEMMHOST_TESTS_CHECK_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>

#if defined(__GNUC__)
#define CHECK_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CHECK_PRINTF(f, a)
#endif

#ifdef CHECK_MAIN
atomic_int check_passed, check_failed, check_skipped;
int check_quiet;      /* set to print only failures, skips and the summary */
char check_last[512]; /* the last verdict's text, printed or not: for a crash report */
#else
extern atomic_int check_passed, check_failed, check_skipped;
extern int check_quiet;
extern char check_last[512];
#endif

/* Prints "<tag>: <message>" as one write. */
static inline void check_vline(const char *tag, const char *fmt, va_list ap)
{
    char line[2048];
    int used = snprintf(line, sizeof line, "%s: ", tag);
    vsnprintf(line + used, sizeof line - (size_t)used, fmt, ap);
    printf("%s\n", line);
    fflush(stdout);
}

/* Counts one verdict and prints it; returns `passed` so a caller can stop
 * early: if (!check_verdict(...)) return; */
static inline CHECK_PRINTF(2, 3) int check_verdict(int passed, const char *fmt, ...)
{
    atomic_fetch_add(passed ? &check_passed : &check_failed, 1);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(check_last, sizeof check_last, fmt, ap);
    va_end(ap);
    if (passed && check_quiet) return passed;
    va_start(ap, fmt);
    check_vline(passed ? "ok" : "FAIL", fmt, ap);
    va_end(ap);
    return passed;
}

#define CHECK(cond, ...) check_verdict((cond) ? 1 : 0, __VA_ARGS__)

/* Like CHECK, but the message's arguments are evaluated only when the check
 * fails (they may use what cond tests, e.g. a pointer it found non-NULL); a
 * pass is shown as the condition's text. */
#define EXPECT(cond, ...) ((cond) ? check_verdict(1, "%s", #cond) : check_verdict(0, __VA_ARGS__))

/* A check that could not run, and why. */
static inline CHECK_PRINTF(1, 2) void check_skip(const char *fmt, ...)
{
    atomic_fetch_add(&check_skipped, 1);
    va_list ap;
    va_start(ap, fmt);
    check_vline("skip", fmt, ap);
    va_end(ap);
}

/* Information that is not a verdict (printed unless quiet). */
static inline CHECK_PRINTF(1, 2) void check_note(const char *fmt, ...)
{
    if (check_quiet) return;
    va_list ap;
    va_start(ap, fmt);
    check_vline("note", fmt, ap);
    va_end(ap);
}

static inline int check_failures(void)
{
    return atomic_load(&check_failed);
}

/* "NAME: P passed, F failed, S skipped"; returns 0 when nothing failed, else 1. */
static inline int check_summary(const char *name)
{
    int failed = atomic_load(&check_failed);
    printf("%s: %d passed, %d failed, %d skipped\n", name, atomic_load(&check_passed), failed,
           atomic_load(&check_skipped));
    fflush(stdout);
    return failed ? 1 : 0;
}

#endif /* GEMMHOST_TESTS_CHECK_H */
