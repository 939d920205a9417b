/* The run's INI config, read with inih and checked into a gh_config: steps 1
 * and 2 (the text, --set) are in config_ini.c, step 3 (gemmhost's schema)
 * in config_run.c ([run]), config_sections.c ([backend], [split]) and
 * config_values.c (reading one value); this file runs the steps.
 *
 * Three steps, so that --set and the checks across sections see everything:
 *   1. read: inih walks the text through our line reader (read_line), which
 *      counts lines, strips comments and records section headers; every
 *      key = value lands as text in a raw section.
 *   2. override: each --set replaces or adds one key of one section.
 *   3. check: every key is parsed and range-checked into the gh_config,
 *      defaults fill what is missing, split members must be [backend]s.
 * The first error stops everything; its message names file, line, section,
 * key and what is allowed.
 *
 * The language, beyond inih's defaults:
 *  - Sections: [run], [backend NAME], [split NAME]; NAME is letters, digits,
 *    '_' and '-'. A backend and a split may not share a name (a split shows up
 *    in results like a backend).
 *  - ';' or '#' starts a comment at the start of a line or after whitespace.
 *    Debian's inih only strips ';', so the reader strips both itself.
 *  - Lists are comma-separated. An indented line without '=' continues the
 *    previous key's list (as in Python's configparser); an indented line with
 *    '=' is a key of its own, so indenting keys is harmless. Errors in a
 *    continued value name the key's line.
 *  - inih's line buffer is fixed when the library is built (200 bytes in
 *    Debian): a longer line is an error that says to continue the list on the
 *    next line, rather than being split silently.
 *  - [split NAME] kernel = "" (the default) means each member runs the first
 *    kernel of its [backend] section's kernels list, or the plugin's first
 *    kernel when that list is empty.
 *
 * Out of memory aborts: a config is a few kilobytes, and a half-read plan is
 * worse than a clear stop.
 */
#define _POSIX_C_SOURCE 200809L
#include "config.h"
#include "loader.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char gh_default_config_text[] =
    "; The built-in default. No [backend] section: every plugin and device\n"
    "; found runs every kernel. Small shapes, some not a multiple of any tile.\n"
    "[run]\n"
    "sizes   = 64, 100x75x50, 37x53x29, 1x1x1, 129x31x65\n"
    "dtype   = auto         ; f32, f64, i32 where a kernel has them, else its own (f16, bf16)\n"
    "trans   = nn, tt       ; both transposes, each on its own code path\n"
    "alpha   = 1\n"
    "beta    = 0            ; C starts as NaN: an unwritten element fails\n"
    "warmup  = 1\n"
    "repeat  = 3\n"
    "seed    = 1\n"
    "verify  = auto\n"
    "ld_pad  = 3            ; leading dimensions wider than the rows\n"
    "guard   = 64           ; guard elements around every matrix\n"
    "output  = gemmhost-results\n";

#include "config_check.h"

static int check_config(loader *ld, gh_config *cfg)
{
    if (cfg_check_run(ld, &cfg->run) != 0) return -1;
    for (size_t i = 0; i < ld->n_sections; i++) {
        const section *s = &ld->sections[i];
        if (s->kind == SEC_BACKEND && cfg_check_backend(ld, s, cfg) != 0) return -1;
        if (s->kind == SEC_SPLIT && cfg_check_split(ld, s, cfg) != 0) return -1;
    }
    if (cfg_check_split_members(ld, cfg) != 0) return -1;
    cfg->auto_backends = cfg->n_backends == 0;
    return 0;
}

/* ---- the public functions ----------------------------------------------- */

__attribute__((format(printf, 3, 4))) static void set_error(char *err, size_t err_size, const char *fmt, ...)
{
    if (!err || err_size == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
}

/* A file with no section (empty, only comments, /dev/null) is most likely
 * the wrong file: refused, not run as the built-in default. */
static int check_not_empty(loader *ld, int from_file)
{
    if (!from_file || ld->n_sections > 0) return 0;
    return ini_fail_line(ld, 0,
                         "the config is empty (no sections, no keys); write at least a [run] section, or leave out "
                         "--config to run the built-in default");
}

/* text: len bytes plus a terminating NUL, ours to cut into lines. */
static int load(char *text, size_t len, const char *name, int from_file, const char *const *overrides,
                size_t n_overrides, gh_config *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    out->path = gh_strdup(name);
    loader ld = {.file = out->path, .text = text, .len = len, .current = -1, .err = err, .err_size = err_size};
    const char *slash = strrchr(name, '/');
    if (from_file) ld.dir = slash ? gh_strdupf("%.*s", (int)(slash - name), name) : gh_strdup(".");
    int rc = -1;
    if (memchr(text, '\0', len)) ini_fail_line(&ld, 0, "contains a NUL byte; is it a text file?");
    else if (ini_read_sections(&ld) == 0 && check_not_empty(&ld, from_file) == 0 &&
             ini_apply_overrides(&ld, overrides, n_overrides) == 0 && check_config(&ld, out) == 0)
        rc = 0;
    ini_free_sections(&ld);
    free(ld.dir);
    out->origin_texts = ld.origin_texts; /* the origins point into them */
    out->n_origin_texts = ld.n_origin_texts;
    if (rc != 0) gh_config_free(out);
    return rc;
}

/* The whole file, NUL-terminated. */
static int read_file(const char *path, char **data, size_t *len, char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        set_error(err, err_size, "cannot open config file %s: %s", path, strerror(errno));
        return -1;
    }
    char *buf = NULL;
    size_t n = 0, cap = 0, got;
    do {
        if (n == cap) {
            cap = cap ? 2 * cap : 4096;
            buf = gh_xrealloc(buf, cap + 1);
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    int failed = ferror(f), saved_errno = errno;
    fclose(f);
    if (failed) {
        free(buf);
        set_error(err, err_size, "cannot read config file %s: %s", path, strerror(saved_errno));
        return -1;
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return 0;
}

int gh_config_load_file(const char *path, const char *const *overrides, size_t n_overrides, gh_config *out, char *err,
                        size_t err_size)
{
    memset(out, 0, sizeof *out);
    char *text;
    size_t len;
    if (!path) {
        set_error(err, err_size, "no config file given");
        return -1;
    }
    if (read_file(path, &text, &len, err, err_size) != 0) return -1;
    int rc = load(text, len, path, 1, overrides, n_overrides, out, err, err_size);
    free(text);
    return rc;
}

int gh_config_load_text(const char *text, const char *name, const char *const *overrides, size_t n_overrides,
                        gh_config *out, char *err, size_t err_size)
{
    char *copy = gh_strdup(text ? text : "");
    int rc = load(copy, strlen(copy), name ? name : "<text>", 0, overrides, n_overrides, out, err, err_size);
    free(copy);
    return rc;
}

void gh_config_free(gh_config *cfg)
{
    if (!cfg) return;
    gh_run_config *run = &cfg->run;
    free(run->sizes);
    free(run->dtypes);
    free(run->trans);
    free(run->output);
    free(run->tune_cache);
    ini_free_strings(run->plugin_dirs, run->n_plugin_dirs);
    for (size_t i = 0; i < cfg->n_backends; i++) {
        gh_backend_config *b = &cfg->backends[i];
        free(b->name);
        free(b->plugin);
        free(b->devices);
        ini_free_strings(b->kernels, b->n_kernels);
        for (size_t k = 0; k < b->n_keys; k++) {
            free(b->keys[k].name);
            ini_free_strings(b->keys[k].values, b->keys[k].n_values);
        }
        free(b->keys);
        gh_placement_free(&b->place);
    }
    free(cfg->backends);
    for (size_t i = 0; i < cfg->n_splits; i++) {
        free(cfg->splits[i].name);
        ini_free_strings(cfg->splits[i].backends, cfg->splits[i].n_backends);
        free(cfg->splits[i].kernel);
        gh_placement_free(&cfg->splits[i].place);
    }
    free(cfg->splits);
    ini_free_strings(cfg->origin_texts, cfg->n_origin_texts);
    free(cfg->path);
    memset(cfg, 0, sizeof *cfg);
}

const char *gh_origin_format(const gh_origin *o, char *buf, size_t size)
{
    if (o->line > 0) snprintf(buf, size, "%s:%d", o->file, o->line);
    else snprintf(buf, size, "%s", o->file ? o->file : "?");
    return buf;
}
