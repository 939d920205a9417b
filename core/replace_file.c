/* See replace_file.h. */
#include "replace_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

int gh_make_parent_folders(const char *path, char *err, size_t err_size)
{
    size_t n = strlen(path) + 1;
    char *dir = malloc(n);
    if (!dir) {
        snprintf(err, err_size, "cannot create the folder of %s: out of memory", path);
        return -1;
    }
    memcpy(dir, path, n);
    char *slash = strrchr(dir, '/');
    int rc = 0;
    if (slash && slash != dir) {
        *slash = '\0';
        for (char *p = dir + 1;; p++) {
            if (*p != '/' && *p != '\0') continue;
            char was = *p;
            *p = '\0';
            if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
                snprintf(err, err_size, "cannot create the folder %s: %s", dir, strerror(errno));
                rc = -1;
                break;
            }
            *p = was;
            if (!was) break;
        }
    }
    free(dir);
    return rc;
}
