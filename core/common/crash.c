/* Fatal-signal report; see crash.h. The handler only reads buffers that are
 * complete strings at all times and calls async-signal-safe functions
 * (write, backtrace_symbols_fd after a first backtrace outside the handler,
 * signal, raise). */
#define _GNU_SOURCE
#include "crash.h"

#include <execinfo.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static _Thread_local char doing[384];
static char results[512];

void gh_crash_doing(const char *fmt, ...)
{
    char text[sizeof doing];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    memcpy(doing, text, sizeof doing); /* whole, so the text is always terminated */
}

void gh_crash_results(const char *where)
{
    char text[sizeof results];
    snprintf(text, sizeof text, "%s", where);
    memcpy(results, text, sizeof results);
}

#if defined(__SANITIZE_ADDRESS__)
/* The sanitizer's own report names the faulting access and its stack. */
void gh_crash_install(void) {}
#else
static void say(const char *s)
{
    ssize_t ignored = write(STDERR_FILENO, s, strlen(s));
    (void)ignored;
}

static void on_fatal(int sig)
{
    const char *name = sig == SIGSEGV  ? "SIGSEGV"
                       : sig == SIGBUS ? "SIGBUS"
                       : sig == SIGFPE ? "SIGFPE"
                       : sig == SIGILL ? "SIGILL"
                                       : "SIGABRT";
    say("\ngemmhost: fatal signal ");
    say(name);
    if (doing[0]) {
        say(" while ");
        say(doing);
    }
    say("\n");
    if (results[0]) {
        say("gemmhost: the results finished before it are kept in ");
        say(results);
        say("\n");
    }
    say("gemmhost: stack (plugins' frames name their .so):\n");
    void *frames[48];
    int n = backtrace(frames, 48);
    backtrace_symbols_fd(frames, n, STDERR_FILENO);
    signal(sig, SIG_DFL);
    raise(sig);
}

void gh_crash_install(void)
{
    void *warm[1];
    backtrace(warm, 1); /* loads libgcc now: the first call may allocate */
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESETHAND;
        sigaction(sigs[i], &sa, NULL);
    }
}
#endif
