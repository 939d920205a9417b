/* SIGINT/SIGTERM to a clean stop; see cancel.h. The handler stores the signal
 * (a lock-free atomic, read by every thread), writes one line with write()
 * and resets both signals with sigaction: all async-signal-safe. */
#define _POSIX_C_SOURCE 200809L
#include "cancel.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

static atomic_int requested;
static volatile sig_atomic_t caught_int, caught_term; /* which ones gh_cancel_install took over */

static void set_action(int sig, void (*handler)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: a blocking wait returns EINTR and sees the flag */
    sigaction(sig, &sa, NULL);
}

static void say(const char *s)
{
    ssize_t ignored = write(STDERR_FILENO, s, strlen(s));
    (void)ignored;
}

static void on_signal(int sig)
{
    int expected = 0;
    atomic_compare_exchange_strong(&requested, &expected, sig);
    if (caught_int) set_action(SIGINT, SIG_DFL);
    if (caught_term) set_action(SIGTERM, SIG_DFL);
    say(sig == SIGINT ? "\ngemmhost: SIGINT" : "\ngemmhost: SIGTERM");
    say(": stopping after the call in progress and closing the reports (a second signal quits at once)\n");
}

/* A signal ignored when gemmhost started (a background job of a script,
 * nohup) stays ignored, as every Unix tool does. */
static int catch_unless_ignored(int sig)
{
    struct sigaction was;
    if (sigaction(sig, NULL, &was) == 0 && was.sa_handler == SIG_IGN) return 0;
    set_action(sig, on_signal);
    return 1;
}

void gh_cancel_install(void)
{
    caught_int = catch_unless_ignored(SIGINT);
    caught_term = catch_unless_ignored(SIGTERM);
}

void gh_cancel_uninstall(void)
{
    if (caught_int) set_action(SIGINT, SIG_DFL);
    if (caught_term) set_action(SIGTERM, SIG_DFL);
    caught_int = caught_term = 0;
}

int gh_cancel_requested(void)
{
    return atomic_load(&requested);
}

const char *gh_cancel_signal_name(void)
{
    switch (gh_cancel_requested()) {
    case 0: return "";
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    }
    return "a signal";
}

int gh_cancel_exit_status(void)
{
    int sig = gh_cancel_requested();
    return sig ? 128 + sig : 0;
}
