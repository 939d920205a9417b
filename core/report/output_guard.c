/* See output_guard.h. */
#define _DEFAULT_SOURCE
#include "output_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

const char *gh_file_kind_name(mode_t mode)
{
    if (S_ISREG(mode)) return "a regular file";
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISLNK(mode)) return "a symbolic link";
    return "not a regular file";
}

int gh_output_check_kind(const char *path, const char *role, char *err, size_t err_size)
{
    struct stat st, link;
    if (stat(path, &st) != 0) {
        if (errno == ENOENT) return 0; /* created by the run (a dangling link: its target is) */
        snprintf(err, err_size, "cannot use %s %s: %s", role, path, strerror(errno));
        return -1;
    }
    if (S_ISREG(st.st_mode)) return 0;
    int linked = lstat(path, &link) == 0 && S_ISLNK(link.st_mode);
    snprintf(err, err_size,
             "%s %s is %s%s, not a regular file: gemmhost writes its files only to regular files (or creates "
             "them) and leaves anything else alone; give another path",
             role, path, gh_file_kind_name(st.st_mode), linked ? " (through a symbolic link)" : "");
    return -1;
}

FILE *gh_output_fopen(const char *path, const char *role, char *err, size_t err_size)
{
    if (gh_output_check_kind(path, role, err, err_size) != 0) return NULL;
    int fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0666);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, err_size, "cannot create %s %s: %s", role, path, strerror(errno));
        if (fd >= 0) close(fd);
        return NULL;
    }
    /* Checked again on what was opened: the path may have changed since. */
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, err_size, "%s %s is %s, not a regular file; it is left alone: give another path", role, path,
                 gh_file_kind_name(st.st_mode));
        close(fd);
        return NULL;
    }
    int flags = fcntl(fd, F_GETFL);
    FILE *f = NULL;
    if (ftruncate(fd, 0) != 0 || flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 || !(f = fdopen(fd, "w"))) {
        snprintf(err, err_size, "cannot write %s %s: %s", role, path, strerror(errno));
        close(fd);
    }
    return f;
}

void gh_output_remove(const char *path)
{
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISREG(st.st_mode)) (void)unlink(path);
}

/* FOLDER/NAME with the folder resolved (realpath), or NULL when the folder
 * is not there yet. */
static char *resolved(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *folder = slash ? gh_strdupf("%.*s", slash == path ? 1 : (int)(slash - path), path) : gh_strdup(".");
    char *real = realpath(folder, NULL);
    char *out = real ? gh_strdupf("%s/%s", real, slash ? slash + 1 : path) : NULL;
    free(real);
    free(folder);
    return out;
}

int gh_output_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char *ra = resolved(a), *rb = resolved(b);
    int same = ra && rb ? strcmp(ra, rb) == 0 : strcmp(a, b) == 0;
    free(ra);
    free(rb);
    return same;
}

int gh_outputs_check(const gh_output *outputs, size_t n, char *err, size_t err_size)
{
    for (size_t i = 0; i < n; i++) {
        if (!outputs[i].path) continue;
        if (gh_output_check_kind(outputs[i].path, outputs[i].role, err, err_size) != 0) return -1;
        for (size_t j = 0; j < i; j++) {
            if (!outputs[j].path || !gh_output_same_file(outputs[i].path, outputs[j].path)) continue;
            snprintf(err, err_size,
                     "%s %s is also %s of this run (%s): one file cannot hold both; give one of them another path",
                     outputs[i].role, outputs[i].path, outputs[j].role, outputs[j].path);
            return -1;
        }
    }
    return 0;
}
