/* The standard streams as gemmhost found them. A closed stdin, stdout or
 * stderr gets a stand-in before any file is opened, so that no results file
 * lands on descriptor 1 (where the table would be written into it). The
 * table written to a full, closed or failing stdout is an error at the end,
 * not a silent loss. */
#ifndef GEMMHOST_STDOUT_GUARD_H
#define GEMMHOST_STDOUT_GUARD_H

#include <stddef.h>

/* Call first: descriptors 0-2 that are closed get /dev/null (stdout:
 * /dev/full, so that writing to it fails as writing to a closed one did). */
void gh_stdio_guard_begin(void);

/* Flushes stdout. Returns 0, or -1 with err when something written to it
 * was lost. */
int gh_stdout_check(char *err, size_t err_size);

#endif
