/* See replace_file.h. */
#include "replace_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gh_replace_file(const char *path, const char *text, size_t len, char *err, size_t err_size)
{
    size_t n = strlen(path) + sizeof ".tmp";
    char *tmp = malloc(n);
    if (!tmp) {
        snprintf(err, err_size, "cannot write %s: out of memory", path);
        return -1;
    }
    snprintf(tmp, n, "%s.tmp", path);
    int rc = -1;
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, err_size, "cannot create %s: %s", tmp, strerror(errno));
        goto done;
    }
    int bad = fwrite(text, 1, len, f) != len;
    int saved = errno;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        saved = errno;
    }
    if (bad) {
        snprintf(err, err_size, "cannot write %s: %s", tmp, strerror(saved));
        remove(tmp);
        goto done;
    }
    if (rename(tmp, path) != 0) {
        snprintf(err, err_size, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
        remove(tmp);
        goto done;
    }
    rc = 0;
done:
    free(tmp);
    return rc;
}
