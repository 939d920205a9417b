/* gemmhost --version. */
#ifndef GEMMHOST_VERSION_H
#define GEMMHOST_VERSION_H

/* The version, what it was built from, and each plugin the search path
 * finds, on stdout. */
void gh_print_version(void);

#endif
