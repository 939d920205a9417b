/* What gemmhost may write to: only regular files, or paths where nothing is
 * yet (it creates them). A device, folder, FIFO or socket at an output's path
 * is refused before the run starts, so that `--junit /dev/null --overwrite`
 * never replaces /dev/null, and no two outputs of one run share a file. */
#ifndef GEMMHOST_OUTPUT_GUARD_H
#define GEMMHOST_OUTPUT_GUARD_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* "a folder", "a character device", "a FIFO", ...: for messages. */
const char *gh_file_kind_name(mode_t mode);

/* 0 when `path` is a regular file (a symbolic link is followed) or nothing is
 * there yet; else -1 with err naming `role` ("--junit", "the tune cache"),
 * the path and what it is. */
int gh_output_check_kind(const char *path, const char *role, char *err, size_t err_size);

/* fopen(path, "w") for an output: refused, as gh_output_check_kind, unless
 * it is a regular file or nothing (a FIFO never blocks the open). Returns
 * NULL with err naming `role`, the path and the reason. */
FILE *gh_output_fopen(const char *path, const char *role, char *err, size_t err_size);

/* Removes a half-written output when it is a regular file; anything else
 * there (a link, a device, a folder) is left alone. Best effort: a file that
 * cannot be removed stays, as it was written. */
void gh_output_remove(const char *path);

/* 1 when a and b name one file: the same inode when both exist, else the
 * same path once their folders are resolved. */
int gh_output_same_file(const char *a, const char *b);

/* One file a run writes: its path (NULL: none) and what it is to the user. */
typedef struct gh_output {
    const char *path;
    const char *role;
} gh_output;

/* Every output's kind (gh_output_check_kind), and that no two are one file.
 * Returns 0, or -1 with err naming the first problem. */
int gh_outputs_check(const gh_output *outputs, size_t n, char *err, size_t err_size);

#endif
