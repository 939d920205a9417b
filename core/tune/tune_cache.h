/* The tuner's cache: per (plugin, device name, driver version, kernel,
 * dtype) an entry holding every measurement the tuner made (parameters,
 * shape, status, time) and the best parameters per size class
 * (tune_class.h). One pretty-printed JSON file (jansson), written whole and
 * atomically (core/replace_file) after every finished candidate, so an
 * interrupted search continues where it stopped. docs/tuning.md gives the
 * format.
 *
 * A file that cannot be read or is not a tune cache is never fatal: it is
 * reported (the file, and the JSON error's line and column or the member
 * that is wrong) and ignored; the tuner's first write moves it aside to
 * PATH.bad and starts a fresh one. */
#ifndef GEMMHOST_TUNE_CACHE_H
#define GEMMHOST_TUNE_CACHE_H

#include <stddef.h>
#include <stdio.h>
#include "config.h"
#include "gemmhost/plugin.h"
#include "tune_class.h"

typedef struct gh_tune_cache gh_tune_cache;
typedef struct gh_tune_entry gh_tune_entry; /* one entry, owned by its cache */

/* Environment variable naming the cache file (below tune_cache, above the
 * user's cache folder). */
#define GH_TUNE_CACHE_ENV "GEMMHOST_TUNE_CACHE"

/* The cache file: `configured` (the tune_cache key) when not empty, else
 * $GEMMHOST_TUNE_CACHE, else $XDG_CACHE_HOME/gemmhost/tune.json, else
 * $HOME/.cache/gemmhost/tune.json. NULL when none of them is set. */
char *gh_tune_cache_path(const char *configured);

/* Reads the cache at `path`; a missing file is an empty cache. Never NULL:
 * an unusable file is reported on `warn` (NULL: stderr) and the cache starts
 * empty, marked bad. */
gh_tune_cache *gh_tune_cache_load(const char *path, FILE *warn);
const char *gh_tune_cache_file(const gh_tune_cache *c);
/* Why the file was unusable, or NULL when it was fine (or absent). */
const char *gh_tune_cache_problem(const gh_tune_cache *c);
/* Writes the cache (its folder created when missing); a bad file is first
 * renamed to PATH.bad (said on `warn`). Returns 0, or -1 with err. */
int gh_tune_cache_save(gh_tune_cache *c, FILE *warn, char *err, size_t err_size);
void gh_tune_cache_free(gh_tune_cache *c);

/* What one search tunes. */
typedef struct gh_tune_key {
    const char *plugin, *device, *driver_version, *kernel;
    gh_dtype dtype;
    /* An 8-bit case's B and C types (explicit_types; scales are not part of
     * the key: they scale, they do not change the work). Zero: dtype alone. */
    gh_case_types types;
} gh_tune_key;

/* The key's "dtype" text in the cache: the dtype's name ("f32", as caches
 * before 8-bit types have it), or an 8-bit case's combination
 * ("e4m3xe5m2->f16"). */
void gh_tune_key_dtype_text(const gh_tune_key *key, char *text, size_t size);

/* The entry of `key`, or NULL; *stale (when not NULL) is set to 1 when
 * there is one but for other parameters than `info`'s (a changed plugin). */
const gh_tune_entry *gh_tune_cache_find(const gh_tune_cache *c, const gh_tune_key *key, const gh_kernel_info *info,
                                        int *stale);
/* The entry the tuner writes to: found, or created empty (an entry for
 * other parameters is replaced). */
gh_tune_entry *gh_tune_cache_entry(gh_tune_cache *c, const gh_tune_key *key, const gh_kernel_info *info);

/* One candidate's measurement on one shape. `status` is a result status name
 * (result.h), or "running": written before a candidate runs in-process, so
 * that a tuner killed by it finds it on the next run (and takes it as
 * crashed). */
typedef struct gh_tune_measurement {
    char status[16];
    double kernel_ms, gflops; /* 0 when it did not run to the end */
    char detail[1024];        /* why it failed, "" on a pass */
} gh_tune_measurement;

/* The measurement of these parameters (info->n_params values) on this
 * transpose and shape: 1 with *out, or 0 when there is none. */
int gh_tune_entry_get(const gh_tune_entry *e, const gh_kernel_info *info, const int64_t *params, gh_trans t, gh_shape s,
                      gh_tune_measurement *out);
/* Stores it, replacing an earlier one of the same parameters and shape. */
void gh_tune_entry_put(gh_tune_entry *e, const gh_kernel_info *info, const int64_t *params, gh_trans t, gh_shape s,
                       const gh_tune_measurement *m);
/* Removes it (a cancelled candidate's "running" mark). */
void gh_tune_entry_forget(gh_tune_entry *e, const gh_kernel_info *info, const int64_t *params, gh_trans t, gh_shape s);

/* The best of a size class, as the tuner judged it on `sizes` ("64x64x64,
 * 100x75x50"): GFLOP/s its geometric mean over them, beside the default's
 * (0 when the default did not pass). */
void gh_tune_entry_set_best(gh_tune_entry *e, const gh_kernel_info *info, gh_size_class c, const int64_t *params,
                            double gflops, double default_gflops, const char *sizes, gh_trans t);
/* The best of a class into params (info->n_params values): 1, or 0 with
 * `why` when there is none or a value is no longer allowed by `info`. */
int gh_tune_entry_best(const gh_tune_entry *e, const gh_kernel_info *info, gh_size_class c, int64_t *params, char *why,
                       size_t why_size);

#endif
