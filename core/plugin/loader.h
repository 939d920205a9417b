/* Finding plugin files, loading them and negotiating the ABI. */
#ifndef GEMMHOST_LOADER_H
#define GEMMHOST_LOADER_H

#include <stddef.h>
#include <stdint.h>
#include "gemmhost/plugin.h"

/* File names the loader recognises: gemmhost-<name>.so */
#define GH_PLUGIN_PREFIX "gemmhost-"
#define GH_PLUGIN_SUFFIX ".so"

typedef struct gh_loaded_plugin {
    char *path;               /* the file */
    char *name;               /* the API's name when loaded, else the file's stem */
    void *handle;             /* dlopen handle, NULL when not loaded */
    const gh_plugin_api *api; /* NULL when not loaded */
    uint32_t abi_major;       /* what the plugin reported (0 if it never answered) */
    uint32_t abi_minor;       /* negotiated */
    char *error;              /* why it did not load; NULL when loaded */
    char *shadowed_by;        /* path of an earlier plugin of the same name, if any */
    int by_path;              /* named by its path in the config, not found by name */
} gh_loaded_plugin;

typedef struct gh_plugin_set {
    gh_loaded_plugin **items; /* each allocated alone: pointers stay valid as the set grows */
    size_t n;
    char **dirs; /* the folders searched, in order */
    size_t n_dirs;
    int isolated; /* set before discovery: each plugin loads in a worker process (core/isolation) */
    /* Isolated: the limit on each worker call, as gh_worker_settings.timeout;
     * without has_timeout, derived from the call. */
    int has_timeout;
    double timeout;
} gh_plugin_set;

/* Loads one file. Never fails hard: on failure p->error says why, naming the
 * path, the dlerror text or both ABI versions. Returns 0 when loaded. */
int gh_plugin_load(const char *path, gh_loaded_plugin *p);
void gh_plugin_unload(gh_loaded_plugin *p);
/* A context's worker, under isolation (ignored in process). */
typedef struct gh_worker_settings {
    const char *label; /* the prefix of its stderr lines, "[label] ..."; NULL: "worker PLUGIN" */
    /* The limit on each call, in seconds: > 0 that many, 0 none, < 0 derived
     * from the call (60 s plus 100 times the time at 1 GFLOP/s for a GEMM, at
     * 1 GB/s for a copy); NAN: the plugin set's. Loading and the first open
     * have 300 s (none when the set's is 0) whatever the setting. */
    double timeout;
} gh_worker_settings;

/* Opens a context of a loaded plugin: api->open in process, a worker of its
 * own under isolation (a proxy table's open cannot tell which plugin).
 * worker may be NULL: the defaults. */
gh_status gh_plugin_open(const gh_loaded_plugin *p, const gh_option_value *options, size_t n_options,
                         const gh_worker_settings *worker, gh_plugin **out);

/* Whether the host may call api->gemm_batch_async (ABI 1.6) of a plugin
 * negotiated at abi_minor: a table of minor >= 6 whose size covers it and
 * that sets it, or a proxy table that sets it (under isolation the worker
 * calls the plugin's own, or emulates it with n gemm_async launches for a
 * plugin without one, whatever its minor: docs/isolation.md). */
int gh_plugin_has_batch(const gh_plugin_api *api, uint32_t abi_minor);

/* Whether a config's `plugin = VALUE` names a file (it has a '/' or ends in
 * .so) rather than a plugin name. */
int gh_plugin_names_file(const char *name);

/* Searches, in order: extra_dirs (the config's plugin_dir), each folder of
 * GEMMHOST_PLUGIN_PATH, the build tree's plugin folder next to the binary,
 * and the installed plugin folder. Never the current directory unless one of
 * those names it. The first plugin of a name wins; later ones are kept in the
 * set, marked shadowed and not loaded. */
void gh_plugins_discover(gh_plugin_set *set, const char *const *extra_dirs, size_t n_extra);
/* A plugin by name ("cpu") or, when `name` names a file, by path: loaded and
 * added to the set if new, even when a plugin of its name is in the search
 * path. Folders and files are compared by their real paths. NULL when a name
 * is unknown. The pointer stays valid until gh_plugins_free. */
gh_loaded_plugin *gh_plugins_find(gh_plugin_set *set, const char *name);
void gh_plugins_free(gh_plugin_set *set);

#endif
