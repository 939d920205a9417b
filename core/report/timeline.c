/* --timeline: see timeline.h. The events are kept as jansson objects and
 * written once at the end: a split's run holds a few hundred spans, so the
 * whole file stays small. Timestamps are microseconds from the start. */
#define _POSIX_C_SOURCE 200809L
#include "timeline.h"

#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output_guard.h"
#include "util.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char *out_path;
static json_t *events;
static double origin_ms;
static int next_pid = 1;

int gh_timeline_start(const char *path, char *err, size_t err_size)
{
    if (gh_output_check_kind(path, "--timeline", err, err_size) != 0) return -1;
    out_path = gh_strdup(path);
    events = json_array();
    origin_ms = gh_now_ms();
    return 0;
}

int gh_timeline_active(void)
{
    return events != NULL;
}

static json_t *meta(const char *name, int pid, int tid, const char *value)
{
    return json_pack("{s:s, s:s, s:i, s:i, s:{s:s}}", "name", name, "ph", "M", "pid", pid, "tid", tid, "args", "name",
                     value);
}

/* Track 0 of a member is its host thread, 1 + lane its streams. */
static int track_of(const gh_split_event *e)
{
    return (int)e->member * 4 + (e->lane < 0 ? 0 : 1 + e->lane);
}

void gh_timeline_add_split(const char *label, const gh_split_member *members, size_t n_members,
                           const gh_split_event *ev, size_t n_events)
{
    pthread_mutex_lock(&lock);
    if (!events) {
        pthread_mutex_unlock(&lock);
        return;
    }
    const int pid = next_pid++;
    json_array_append_new(events, meta("process_name", pid, 0, label));
    json_array_append_new(events, json_pack("{s:s, s:s, s:i, s:{s:i}}", "name", "process_sort_index", "ph", "M", "pid",
                                            pid, "args", "sort_index", pid));
    for (size_t m = 0; m < n_members; m++) {
        char name[160];
        for (int lane = -1; lane < 2; lane++) {
            int used = 0;
            for (size_t i = 0; i < n_events && !used; i++) used = ev[i].member == m && ev[i].lane == lane;
            if (!used) continue;
            if (lane < 0) snprintf(name, sizeof name, "%s/%d host thread", members[m].backend, members[m].device);
            else snprintf(name, sizeof name, "%s/%d stream %d", members[m].backend, members[m].device, lane);
            const gh_split_event key = {.member = m, .lane = lane};
            json_array_append_new(events, meta("thread_name", pid, track_of(&key), name));
        }
    }
    for (size_t i = 0; i < n_events; i++) {
        const gh_split_event *e = &ev[i];
        char name[96];
        snprintf(name, sizeof name, "%s%s%s", e->kind, *e->what ? " " : "", e->what);
        json_t *args =
            json_pack("{s:s, s:b}", "clock", e->device_timed ? "device (placed ending at its synchronize)" : "host",
                      "device_timed", e->device_timed);
        if (e->chunk >= 0) json_object_set_new(args, "chunk", json_integer(e->chunk));
        json_array_append_new(events, json_pack("{s:s, s:s, s:s, s:f, s:f, s:i, s:i, s:o}", "name", name, "cat",
                                                e->kind, "ph", "X", "ts", (e->t0_ms - origin_ms) * 1000.0, "dur",
                                                e->dur_ms * 1000.0, "pid", pid, "tid", track_of(e), "args", args));
    }
    pthread_mutex_unlock(&lock);
}

int gh_timeline_finish(char *err, size_t err_size)
{
    pthread_mutex_lock(&lock);
    int rc = 0;
    if (events) {
        json_t *doc = json_pack("{s:o, s:s}", "traceEvents", events, "displayTimeUnit", "ms");
        events = NULL;
        FILE *f = gh_output_fopen(out_path, "--timeline", err, err_size);
        if (!f) rc = -1;
        else {
            int bad = json_dumpf(doc, f, JSON_COMPACT) != 0;
            bad |= fputc('\n', f) == EOF;
            bad |= ferror(f) != 0;
            if (fclose(f) != 0) bad = 1;
            if (bad) {
                snprintf(err, err_size, "--timeline %s: writing failed: %s", out_path, strerror(errno));
                rc = -1;
            }
        }
        json_decref(doc);
    }
    free(out_path);
    out_path = NULL;
    pthread_mutex_unlock(&lock);
    return rc;
}
