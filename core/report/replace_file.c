/* See replace_file.h. */
#define _POSIX_C_SOURCE 200809L
#include "replace_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output_guard.h"

/* PATH.tmp, created here and nowhere else: a file of that name left by a
 * killed run is removed first, anything else there (a link, a FIFO, a
 * device) is refused, never written through. Returns the descriptor or -1. */
static int create_temp(const char *tmp, char *err, size_t err_size)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) return fd;
        struct stat st;
        if (errno != EEXIST || lstat(tmp, &st) != 0) break;
        if (!S_ISREG(st.st_mode)) {
            snprintf(err, err_size, "cannot create %s: it is %s, which gemmhost did not make; it is left alone", tmp,
                     gh_file_kind_name(st.st_mode));
            return -1;
        }
        if (unlink(tmp) != 0) break; /* a temp file of a killed run */
    }
    snprintf(err, err_size, "cannot create %s: %s", tmp, strerror(errno));
    return -1;
}

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
    if (gh_output_check_kind(path, "the file", err, err_size) != 0) goto done; /* never rename over a device */
    int fd = create_temp(tmp, err, err_size);
    if (fd < 0) goto done;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        snprintf(err, err_size, "cannot write %s: %s", tmp, strerror(errno));
        close(fd);
        remove(tmp);
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

/* mkdir -p of dir, which it cuts and mends on the way; `what` names the
 * folder in err ("the folder"). */
static int make_each_folder(char *dir, const char *what, char *err, size_t err_size)
{
    for (char *p = dir + 1;; p++) {
        if (*p != '/' && *p != '\0') continue;
        char was = *p;
        *p = '\0';
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
            snprintf(err, err_size, "cannot create %s %s: %s", what, dir, strerror(errno));
            return -1;
        }
        *p = was;
        if (!was) return 0;
    }
}

int gh_make_folders(const char *path, const char *what, char *err, size_t err_size)
{
    char *dir = strdup(path);
    if (!dir) {
        snprintf(err, err_size, "cannot create %s %s: out of memory", what, path);
        return -1;
    }
    int rc = make_each_folder(dir, what, err, err_size);
    free(dir);
    return rc;
}

int gh_make_parent_folders(const char *path, char *err, size_t err_size)
{
    char *dir = strdup(path);
    if (!dir) {
        snprintf(err, err_size, "cannot create the folder of %s: out of memory", path);
        return -1;
    }
    char *slash = strrchr(dir, '/');
    int rc = 0;
    if (slash && slash != dir) {
        *slash = '\0';
        rc = make_each_folder(dir, "the folder", err, err_size);
    }
    free(dir);
    return rc;
}
