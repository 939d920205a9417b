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
    set_action(SIGINT, SIG_DFL);
    set_action(SIGTERM, SIG_DFL);
    say(sig == SIGINT ? "\ngemmhost: SIGINT" : "\ngemmhost: SIGTERM");
    say(": stopping after the call in progress and closing the reports (a second signal quits at once)\n");
}

void gh_cancel_install(void)
{
    set_action(SIGINT, on_signal);
    set_action(SIGTERM, on_signal);
}

void gh_cancel_uninstall(void)
{
    set_action(SIGINT, SIG_DFL);
    set_action(SIGTERM, SIG_DFL);
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
