/* Writing a whole file so that a reader, or a run killed half-way, never
 * sees half of it: the text goes to PATH.tmp, which is renamed over PATH. */
#ifndef GEMMHOST_REPLACE_FILE_H
#define GEMMHOST_REPLACE_FILE_H

#include <stddef.h>

/* PATH must be a regular file or absent (a device or folder there is
 * refused, never replaced); PATH.tmp is created afresh, through no link.
 * Returns 0, or -1 with err naming the file and the reason (the temp file
 * is removed). */
int gh_replace_file(const char *path, const char *text, size_t len, char *err, size_t err_size);

/* Creates the folder `path` and those on the way to it (mkdir -p); `what`
 * names it in err ("the output folder"). Returns 0, or -1 with err naming
 * the folder that could not be made. */
int gh_make_folders(const char *path, const char *what, char *err, size_t err_size);

/* Creates the folders on the way to `path` (mkdir -p of its folder).
 * Returns 0, or -1 with err naming the folder that could not be made. */
int gh_make_parent_folders(const char *path, char *err, size_t err_size);

#endif
