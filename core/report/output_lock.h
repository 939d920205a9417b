/* A run's hold on the files it writes: an exclusive flock on a lock file
 * beside them (PREFIX.lock), taken before the run starts and held to its end,
 * so that a second run aiming at the same files is refused while the first
 * runs, naming the process that holds them. The lock file holds the holder's
 * pid, host and command line, for that message; it is removed at the end
 * (while still locked: a run that opened it meanwhile sees that it is gone
 * and takes a fresh one). A killed run leaves the file, unlocked: the next
 * run takes it. */
#ifndef GEMMHOST_OUTPUT_LOCK_H
#define GEMMHOST_OUTPUT_LOCK_H

#include <stddef.h>

typedef struct gh_output_lock gh_output_lock;

/* Locks `path` (created, with its folders, when missing) for the files
 * `what` names ("the results files X.csv and X.json"). Returns NULL with err
 * when another process holds it (naming that process) or it cannot be
 * created or locked. */
gh_output_lock *gh_output_lock_take(const char *path, const char *what, char *err, size_t err_size);

/* Removes the lock file and lets go. NULL is no lock. Returns 0, or -1 with
 * err when the file could not be removed (the lock is released anyway). */
int gh_output_lock_release(gh_output_lock *l, char *err, size_t err_size);

#endif
