/* SIGINT and SIGTERM stop a run at its next safe point instead of killing it:
 * the handler only records the signal; the run loop, the split's member
 * threads (between tasks) and any wait on a worker ask gh_cancel_requested()
 * and wind down, so the result in progress is recorded as `cancelled`, the
 * reports are closed valid, and gemmhost exits 130 (SIGINT) or 143 (SIGTERM).
 * A plugin call in progress is not interrupted in-process. The first signal
 * puts both back to their default action: a second one kills at once. */
#ifndef GEMMHOST_CANCEL_H
#define GEMMHOST_CANCEL_H

/* Installs the handlers (sigaction without SA_RESTART, so a blocking wait
 * returns EINTR and can look at the flag). Call once the reports are open:
 * before that, a signal should just kill. A signal ignored when gemmhost
 * started (SIGINT in a script's background job, nohup) stays ignored. */
void gh_cancel_install(void);
/* Puts SIGINT and SIGTERM back to their default action. */
void gh_cancel_uninstall(void);
/* The signal that asked to stop (SIGINT, SIGTERM), or 0. Any thread. */
int gh_cancel_requested(void);
/* "SIGINT", "SIGTERM", or "" when none. */
const char *gh_cancel_signal_name(void);
/* The exit status a cancelled run ends with: 128 + the signal (130, 143);
 * 0 when none was received. */
int gh_cancel_exit_status(void);

#endif
