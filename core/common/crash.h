/* A fatal signal (a crash in a plugin, most likely) says what the host was
 * doing and where, and that the results written so far are kept, before the
 * process dies as it would have. */
#ifndef GH_CRASH_H
#define GH_CRASH_H

/* Installs the handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT.
 * Not in sanitizer builds, whose own reports say more. */
void gh_crash_install(void);

/* What the calling thread is doing now, e.g. "backend opencl, device 0,
 * kernel tiled tile=16, case 3 (f32 nn 64x64x64)": named if it crashes. */
void gh_crash_doing(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Where the results go ("results.csv and results.json"), for the message. */
void gh_crash_results(const char *where);

#endif
