/* The record log; see result_log.h. */
#define _POSIX_C_SOURCE 200809L
#include "result_log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output_guard.h"
#include "util.h"

struct gh_result_log {
    char *path, *tmp; /* tmp: staged until committed; NULL when not (or no longer) */
    FILE *f;
    uint64_t bytes;
};

static int write_line(gh_result_log *l, const char *kind, const char *value_json, char *err, size_t err_size)
{
    /* One fwrite per line, then flushed: a kill cuts at most the last line. */
    char *line = gh_strdupf("{\"record\":\"%s\",\"value\":%s}\n", kind, value_json);
    size_t n = strlen(line);
    int bad = fwrite(line, 1, n, l->f) != n || fflush(l->f) != 0;
    free(line);
    if (bad) {
        snprintf(err, err_size, "cannot write %s: %s", l->tmp ? l->tmp : l->path, strerror(errno));
        return -1;
    }
    l->bytes += n;
    return 0;
}

static void log_free(gh_result_log *l)
{
    free(l->path);
    free(l->tmp);
    free(l);
}

gh_result_log *gh_result_log_open(const char *path, const char *head_json, int staged, char *err, size_t err_size)
{
    gh_result_log *l = gh_xcalloc(1, sizeof *l);
    l->path = gh_strdup(path);
    if (staged) l->tmp = gh_strdupf("%s.tmp", path);
    const char *where = l->tmp ? l->tmp : l->path;
    l->f = gh_output_fopen(where, "the record log", err, err_size);
    if (!l->f) {
        log_free(l);
        return NULL;
    }
    if (write_line(l, "head", head_json, err, err_size) != 0) {
        gh_result_log_abandon(l);
        return NULL;
    }
    return l;
}

int gh_result_log_append(gh_result_log *l, const char *kind, const char *value_json, char *err, size_t err_size)
{
    return l ? write_line(l, kind, value_json, err, err_size) : 0;
}

int gh_result_log_commit(gh_result_log *l, char *err, size_t err_size)
{
    if (!l || !l->tmp) return 0;
    /* The open stream keeps writing to the renamed file; never over
     * anything but a regular file (output_guard.h). */
    if (gh_output_check_kind(l->path, "the record log", err, err_size) != 0) return -1;
    if (rename(l->tmp, l->path) != 0) {
        snprintf(err, err_size, "cannot rename %s to %s: %s", l->tmp, l->path, strerror(errno));
        return -1;
    }
    free(l->tmp);
    l->tmp = NULL;
    return 0;
}

uint64_t gh_result_log_bytes(const gh_result_log *l)
{
    return l ? l->bytes : 0;
}

int gh_result_log_close(gh_result_log *l, char *err, size_t err_size)
{
    if (!l) return 0;
    int rc = gh_result_log_commit(l, err, err_size);
    if (fclose(l->f) != 0 && rc == 0) {
        snprintf(err, err_size, "cannot write %s: %s", l->path, strerror(errno));
        rc = -1;
    }
    if (l->tmp) remove(l->tmp);
    log_free(l);
    return rc;
}

void gh_result_log_abandon(gh_result_log *l)
{
    if (!l) return;
    fclose(l->f);
    if (l->tmp) remove(l->tmp);
    log_free(l);
}
