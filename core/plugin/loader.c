/* Plugin discovery and ABI negotiation. A plugin that cannot be used is kept
 * in the set with the reason, so --list and the run can say why. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crash.h"
#include "loader.h"
#include "proxy.h"
#include "util.h"

static void set_error(gh_loaded_plugin *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    free(p->error);
    p->error = gh_vstrdupf(fmt, ap);
    va_end(ap);
}

/* "dir/gemmhost-cpu.so" -> "cpu" */
static char *stem_of(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (strncmp(base, GH_PLUGIN_PREFIX, strlen(GH_PLUGIN_PREFIX)) == 0) base += strlen(GH_PLUGIN_PREFIX);
    char *stem = gh_strdup(base);
    size_t len = strlen(stem), suffix = strlen(GH_PLUGIN_SUFFIX);
    if (len > suffix && strcmp(stem + len - suffix, GH_PLUGIN_SUFFIX) == 0) stem[len - suffix] = '\0';
    return stem;
}

/* The members every minor-0 table has; a shorter table is unusable. */
static int api_is_complete(const gh_plugin_api *api)
{
    return api->size >= GH_PLUGIN_API_MINOR0_SIZE && api->open && api->close && api->last_error && api->device_count &&
           api->device_info && api->kernel_count && api->kernel_info && api->buffer_alloc && api->buffer_free &&
           api->upload && api->download && api->gemm && api->synchronize && api->name;
}

/* Minor 1's groups are all or none (plugin.h): a plugin offering part of
 * one is refused, not quietly driven through the blocking calls. Returns a
 * description of the problem in buf, or NULL when the table is fine. */
static const char *minor1_problem(const gh_plugin_api *api, char *buf, size_t size)
{
    if (api->size < GH_PLUGIN_API_MINOR1_SIZE) {
        snprintf(buf, size, "answers ABI minor 1 but its function table (%zu bytes) is shorter than minor 1's (%zu)",
                 api->size, (size_t)GH_PLUGIN_API_MINOR1_SIZE);
        return buf;
    }
    const struct {
        const char *name;
        int set;
    } streams[] = {
        {"stream_create", api->stream_create != NULL},     {"stream_destroy", api->stream_destroy != NULL},
        {"upload_2d_async", api->upload_2d_async != NULL}, {"download_2d_async", api->download_2d_async != NULL},
        {"gemm_async", api->gemm_async != NULL},           {"stream_synchronize", api->stream_synchronize != NULL},
    };
    int n_set = 0;
    char missing[160] = "";
    for (size_t i = 0; i < sizeof streams / sizeof streams[0]; i++) {
        n_set += streams[i].set;
        if (!streams[i].set)
            snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%s", *missing ? ", " : "",
                     streams[i].name);
    }
    if (n_set != 0 && n_set != 6) {
        snprintf(buf, size, "offers %d of the 6 stream members (missing: %s); they are all or none", n_set, missing);
        return buf;
    }
    if (!api->host_alloc != !api->host_free) {
        snprintf(buf, size, "offers %s without %s; they are a pair", api->host_alloc ? "host_alloc" : "host_free",
                 api->host_alloc ? "host_free" : "host_alloc");
        return buf;
    }
    return NULL;
}

static int negotiate(gh_loaded_plugin *p)
{
    gh_entry_fn entry = NULL;
    dlerror();
    *(void **)&entry = dlsym(p->handle, GEMMHOST_ENTRY_NAME);
    if (!entry) {
        const char *why = dlerror();
        set_error(p, "%s: no entry symbol %s (%s)", p->path, GEMMHOST_ENTRY_NAME, why ? why : "symbol is NULL");
        return -1;
    }
    gh_entry_request req = {
        .size = sizeof req,
        .host_abi_major = GEMMHOST_ABI_MAJOR,
        .abi_minor = GEMMHOST_ABI_MINOR,
    };
    gh_status s = entry(&req);
    p->abi_major = req.plugin_abi_major;
    if (s == GH_VERSION_MISMATCH || (s == GH_OK && req.plugin_abi_major != GEMMHOST_ABI_MAJOR)) {
        set_error(p,
                  "%s: plugin ABI major %u, host ABI %u.%u: majors must match (rebuild the plugin against this host's "
                  "plugin.h)",
                  p->path, req.plugin_abi_major, GEMMHOST_ABI_MAJOR, GEMMHOST_ABI_MINOR);
        return -1;
    }
    if (s != GH_OK || !req.api) {
        set_error(p, "%s: entry %s failed with status %d", p->path, GEMMHOST_ENTRY_NAME, (int)s);
        return -1;
    }
    if (req.abi_minor > GEMMHOST_ABI_MINOR) {
        set_error(p, "%s: plugin answered ABI minor %u, above the host's %u.%u it was offered", p->path, req.abi_minor,
                  GEMMHOST_ABI_MAJOR, GEMMHOST_ABI_MINOR);
        return -1;
    }
    if (!api_is_complete(req.api)) {
        set_error(p, "%s: function table is incomplete (size %zu, host needs %zu for ABI %u.0)", p->path, req.api->size,
                  (size_t)GH_PLUGIN_API_MINOR0_SIZE, GEMMHOST_ABI_MAJOR);
        return -1;
    }
    char problem[256];
    if (req.abi_minor >= 1 && minor1_problem(req.api, problem, sizeof problem)) {
        set_error(p, "%s: function table %s", p->path, problem);
        return -1;
    }
    p->abi_minor = req.abi_minor;
    p->api = req.api;
    free(p->name);
    p->name = gh_strdup(req.api->name);
    return 0;
}

int gh_plugin_has_batch(const gh_plugin_api *api, uint32_t abi_minor)
{
    if (!api) return 0;
    if (gh_proxy_is(api)) return api->gemm_batch_async != NULL; /* the proxy's own table: always full size */
    return abi_minor >= 6 && GH_HAS_MEMBER(api, gh_plugin_api, gemm_batch_async) && api->gemm_batch_async;
}

int gh_plugin_names_file(const char *name)
{
    size_t len = strlen(name), suffix = strlen(GH_PLUGIN_SUFFIX);
    return strchr(name, '/') || (len > suffix && strcmp(name + len - suffix, GH_PLUGIN_SUFFIX) == 0);
}

int gh_plugin_load(const char *path, gh_loaded_plugin *p)
{
    memset(p, 0, sizeof *p);
    p->path = gh_strdup(path);
    p->name = stem_of(path);
    gh_crash_doing("loading plugin %s", path);
    p->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!p->handle) {
        const char *why = dlerror();
        set_error(p, "%s: cannot load: %s", path, why ? why : "unknown dlopen failure");
        return -1;
    }
    if (negotiate(p) != 0) {
        dlclose(p->handle);
        p->handle = NULL;
        p->api = NULL;
        return -1;
    }
    return 0;
}

gh_status gh_plugin_open(const gh_loaded_plugin *p, const gh_option_value *options, size_t n_options,
                         const gh_worker_settings *worker, gh_plugin **out)
{
    if (gh_proxy_is(p->api)) return gh_proxy_open(p, options, n_options, worker, out);
    return p->api->open(options, n_options, out);
}

/* In this process, or in a worker under isolation. */
static int load_for(const gh_plugin_set *set, const char *path, gh_loaded_plugin *p)
{
    if (!set->isolated) return gh_plugin_load(path, p);
    int rc = gh_proxy_load(path, set->has_timeout ? set->timeout : -1, p);
    if (rc != 0) { /* named by the file, as gh_plugin_load names it */
        free(p->name);
        p->name = stem_of(path);
    }
    return rc;
}

void gh_plugin_unload(gh_loaded_plugin *p)
{
    gh_proxy_unload(p);
    /* Plugins stay mapped until exit: drivers (CUDA, some ICDs) register
     * atexit handlers and crash if their library is unmapped first. */
    free(p->path);
    free(p->name);
    free(p->error);
    free(p->shadowed_by);
    memset(p, 0, sizeof *p);
}

/* The real path of an existing file or folder, else a copy of `path`: the
 * same folder or plugin spelled two ways ("bin/../lib", a symlink) must be
 * seen as one. */
static char *real_or_same(const char *path)
{
    char *real = realpath(path, NULL);
    if (!real) return gh_strdup(path);
    char *out = gh_strdup(real);
    free(real);
    return out;
}

static void add_dir(gh_plugin_set *set, const char *dir)
{
    if (!dir || !*dir) return;
    char *real = real_or_same(dir);
    for (size_t i = 0; i < set->n_dirs; i++)
        if (strcmp(set->dirs[i], real) == 0) {
            free(real);
            return;
        }
    set->dirs = gh_xrealloc(set->dirs, (set->n_dirs + 1) * sizeof *set->dirs);
    set->dirs[set->n_dirs++] = real;
}

/* The first loaded-or-failed plugin of a name found in the search path;
 * plugins named by path and shadowed ones never answer for a name. */
static gh_loaded_plugin *find_by_name(gh_plugin_set *set, const char *name)
{
    for (size_t i = 0; i < set->n; i++) {
        gh_loaded_plugin *p = set->items[i];
        if (!p->shadowed_by && !p->by_path && strcmp(p->name, name) == 0) return p;
    }
    return NULL;
}

static gh_loaded_plugin *find_by_path(gh_plugin_set *set, const char *real)
{
    for (size_t i = 0; i < set->n; i++)
        if (strcmp(set->items[i]->path, real) == 0) return set->items[i];
    return NULL;
}

/* Records are allocated one by one so that a pointer handed out (to a plan's
 * instance) stays valid while the set grows. */
static gh_loaded_plugin *new_record(gh_plugin_set *set)
{
    set->items = gh_xrealloc(set->items, (set->n + 1) * sizeof *set->items);
    gh_loaded_plugin *p = gh_xcalloc(1, sizeof *p);
    set->items[set->n++] = p;
    return p;
}

/* A plugin file met while scanning the search path. */
static void add_found_file(gh_plugin_set *set, const char *path)
{
    char *real = real_or_same(path);
    if (find_by_path(set, real)) {
        free(real);
        return;
    }
    char *stem = stem_of(real);
    gh_loaded_plugin *earlier = find_by_name(set, stem);
    gh_loaded_plugin *p = new_record(set);
    if (earlier) {
        /* A plugin of the same name was found first: keep this one only to report it. */
        p->path = real;
        p->name = stem;
        p->shadowed_by = gh_strdup(earlier->path);
        set_error(p, "%s: not loaded, shadowed by %s found earlier in the search order", real, earlier->path);
        return;
    }
    free(stem);
    load_for(set, real, p);
    free(real);
}

/* A plugin file the config names by path: the user asked for that file, so
 * it is loaded whatever the search path holds. */
static gh_loaded_plugin *add_named_file(gh_plugin_set *set, const char *path)
{
    char *real = real_or_same(path);
    gh_loaded_plugin *p = find_by_path(set, real);
    if (p && !p->shadowed_by) {
        free(real);
        return p;
    }
    if (p) gh_plugin_unload(p); /* found in the search path behind another of its name: load it now */
    else p = new_record(set);
    load_for(set, real, p);
    p->by_path = 1;
    free(real);
    return p;
}

static int is_plugin_file(const char *name)
{
    size_t len = strlen(name), pre = strlen(GH_PLUGIN_PREFIX), suf = strlen(GH_PLUGIN_SUFFIX);
    return len > pre + suf && strncmp(name, GH_PLUGIN_PREFIX, pre) == 0 &&
           strcmp(name + len - suf, GH_PLUGIN_SUFFIX) == 0;
}

static int compare_names(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Plugin files of one folder, in name order so runs are reproducible. */
static void scan_dir(gh_plugin_set *set, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!is_plugin_file(e->d_name)) continue;
        names = gh_xrealloc(names, (n + 1) * sizeof *names);
        names[n++] = gh_strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, compare_names);
    for (size_t i = 0; i < n; i++) {
        char *path = gh_strdupf("%s/%s", dir, names[i]);
        add_found_file(set, path);
        free(path);
        free(names[i]);
    }
    free(names);
}

/* The folder holding the running binary, from /proc/self/exe. */
static char *exe_dir(void)
{
    char buf[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (len <= 0) return NULL;
    buf[len] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash) return NULL;
    *slash = '\0';
    return gh_strdup(buf);
}

/* A plugin_dir the config names but that is no folder is most likely a typo
 * that would leave its plugins unfound: said on stderr, the run goes on. */
static void warn_unless_folder(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        fprintf(stderr, "gemmhost: warning: plugin_dir %s: %s; no plugins are searched there\n", dir, strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        fprintf(stderr, "gemmhost: warning: plugin_dir %s is not a folder; no plugins are searched there\n", dir);
}

void gh_plugins_discover(gh_plugin_set *set, const char *const *extra_dirs, size_t n_extra)
{
    for (size_t i = 0; i < n_extra; i++) {
        warn_unless_folder(extra_dirs[i]);
        add_dir(set, extra_dirs[i]);
    }
    const char *env = getenv("GEMMHOST_PLUGIN_PATH");
    if (env) {
        char *copy = gh_strdup(env), *save = NULL;
        for (char *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) add_dir(set, dir);
        free(copy);
    }
    char *bin = exe_dir();
    if (bin) {
        char *build = gh_strdupf("%s/plugins", bin);
        char *installed = gh_strdupf("%s/../%s", bin, GEMMHOST_PLUGIN_INSTALL_SUBDIR);
        add_dir(set, build);
        add_dir(set, installed);
        free(build);
        free(installed);
        free(bin);
    }
    add_dir(set, GEMMHOST_PLUGIN_INSTALL_DIR);
    for (size_t i = 0; i < set->n_dirs; i++) scan_dir(set, set->dirs[i]);
}

gh_loaded_plugin *gh_plugins_find(gh_plugin_set *set, const char *name)
{
    if (gh_plugin_names_file(name)) return add_named_file(set, name);
    return find_by_name(set, name);
}

void gh_plugins_free(gh_plugin_set *set)
{
    for (size_t i = 0; i < set->n; i++) {
        gh_plugin_unload(set->items[i]);
        free(set->items[i]);
    }
    for (size_t i = 0; i < set->n_dirs; i++) free(set->dirs[i]);
    free(set->items);
    free(set->dirs);
    memset(set, 0, sizeof *set);
}
