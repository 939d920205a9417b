/* Environment differences; see env_diff.h. */
#include "env_diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Settings whose difference makes outputs incomparable: the inputs are
 * drawn from the seed. */
static const char *const result_settings[] = {"seed"};

static char *text_of(const json_t *v)
{
    if (!v) return gh_strdup("(none)");
    if (json_is_string(v)) return gh_strdup(json_string_value(v));
    char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    return s ? s : gh_strdup("?");
}

/* Adds {"what", "values"} when the values are not all the same. Takes the values. */
static void add_if_differs(json_t *out, const char *what, char **values, size_t n)
{
    int differs = 0;
    for (size_t i = 1; i < n; i++) differs |= strcmp(values[i], values[0]) != 0;
    json_t *list = json_array();
    for (size_t i = 0; i < n; i++) {
        json_array_append_new(list, json_string(values[i]));
        free(values[i]);
    }
    if (differs) json_array_append_new(out, json_pack("{s:s, s:o}", "what", what, "values", list));
    else json_decref(list);
}

/* A fleet file's devices are per rank: rank r's against rank r's (a device of one run's file has no rank). */
static const gh_rf_device *device_in(const gh_results_file *f, const char *backend, int index, int rank)
{
    for (size_t i = 0; i < f->n_devices; i++)
        if (f->devices[i].index == index && strcmp(f->devices[i].backend, backend) == 0 &&
            (rank < 0 || f->devices[i].rank < 0 || f->devices[i].rank == rank))
            return &f->devices[i];
    return NULL;
}

static void device_diffs(json_t *out, const gh_results_file *files, size_t n, char **values)
{
    static const char *const fields[] = {"name", "vendor", "driver_version", "api"};
    json_t *seen = json_object();
    for (size_t f = 0; f < n; f++)
        for (size_t d = 0; d < files[f].n_devices; d++) {
            const gh_rf_device *dev = &files[f].devices[d];
            char what[512];
            if (dev->rank >= 0) snprintf(what, sizeof what, "device r%d %s %d", dev->rank, dev->backend, dev->index);
            else snprintf(what, sizeof what, "device %s %d", dev->backend, dev->index);
            if (json_object_get(seen, what)) continue;
            json_object_set_new(seen, what, json_true());
            for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
                for (size_t g = 0; g < n; g++) {
                    const gh_rf_device *o = device_in(&files[g], dev->backend, dev->index, dev->rank);
                    const char *v = !o       ? "(none)"
                                    : k == 0 ? o->name
                                    : k == 1 ? o->vendor
                                    : k == 2 ? o->driver_version
                                             : o->api;
                    values[g] = gh_strdup(v ? v : "");
                }
                char item[600];
                snprintf(item, sizeof item, "%s %s", what, fields[k]);
                add_if_differs(out, item, values, n);
            }
        }
    json_decref(seen);
}

json_t *gh_env_diff(const gh_results_file *files, size_t n)
{
    json_t *out = json_array();
    char **values = gh_xcalloc(n + 1, sizeof *values);
    static const char *const heads[] = {"gemmhost version", "git commit", "build type", "host", "complete"};
    for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++) {
        for (size_t f = 0; f < n; f++) {
            const gh_results_file *x = &files[f];
            values[f] = gh_strdup(h == 0         ? x->version
                                  : h == 1       ? x->git_commit
                                  : h == 2       ? x->build_type
                                  : h == 3       ? x->host
                                  : x->complete  ? "yes"
                                  : x->cancelled ? "no (cancelled)"
                                                 : "no (stopped or still running)");
        }
        add_if_differs(out, heads[h], values, n);
    }
    json_t *keys = json_object(); /* every settings key of every file, in first-seen order */
    for (size_t f = 0; f < n; f++) {
        const char *key;
        json_t *v;
        json_object_foreach((json_t *)files[f].settings, key, v) json_object_set_new(keys, key, json_true());
    }
    const char *key;
    json_t *v;
    json_object_foreach(keys, key, v)
    {
        for (size_t f = 0; f < n; f++) values[f] = text_of(json_object_get(files[f].settings, key));
        char what[512];
        snprintf(what, sizeof what, "setting %s", key);
        add_if_differs(out, what, values, n);
    }
    json_decref(keys);
    device_diffs(out, files, n, values);
    free(values);
    return out;
}

int gh_env_check_comparable(const gh_results_file *files, size_t n, char *err, size_t err_size)
{
    for (size_t s = 0; s < sizeof result_settings / sizeof result_settings[0]; s++) {
        const char *key = result_settings[s];
        const json_t *first = json_object_get(files[0].settings, key);
        for (size_t f = 1; f < n; f++) {
            const json_t *v = json_object_get(files[f].settings, key);
            if (first && v && json_equal(first, v)) continue;
            char *a = text_of(first), *b = text_of(v);
            snprintf(err, err_size,
                     "%s and %s cannot be compared: %s has %s = %s, %s has %s = %s (the inputs are drawn from the "
                     "seed: run both with one seed)",
                     files[0].path, files[f].path, files[0].path, key, a, files[f].path, key, b);
            free(a);
            free(b);
            return -1;
        }
    }
    return 0;
}
