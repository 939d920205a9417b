/* A [backend] section (or a plugin, without sections) as an instance: its
 * context, devices and kernel variants; keys only the plugin can judge are
 * checked here. */
#define _GNU_SOURCE
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "crash.h"
#include "plan.h"
#include "proxy.h"
#include "reported.h"
#include "shown_value.h"
#include "util.h"
#include "plan_internal.h"

static int config_error(char *err, size_t size, const gh_origin *at, const char *section, const char *fmt, ...)
{
    char where[512];
    int n = snprintf(err, size, "%s: [backend %s] ", gh_origin_format(at, where, sizeof where), section);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < size) vsnprintf(err + n, size - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static void set_problem(gh_instance *inst, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    free(inst->problem);
    inst->problem = gh_vstrdupf(fmt, ap);
    va_end(ap);
}

static const gh_option_info *find_option(const gh_plugin_api *api, const char *name)
{
    for (size_t i = 0; i < api->n_options; i++)
        if (strcmp(api->options[i].name, name) == 0) return &api->options[i];
    return NULL;
}

/* "threads, platform" or "tile" for messages. */
static char *list_options(const gh_plugin_api *api)
{
    char *out = gh_strdup("");
    for (size_t i = 0; i < api->n_options; i++) {
        char *next = gh_strdupf("%s%s%s", out, i ? ", " : "", api->options[i].name);
        free(out);
        out = next;
    }
    return out;
}

char *plan_list_kernels(gh_plugin *ctx, const gh_plugin_api *api, int with_params)
{
    char *out = gh_strdup("");
    int n = api->kernel_count(ctx);
    for (int i = 0; i < n; i++) {
        const gh_kernel_info *k = api->kernel_info(ctx, i);
        if (!with_params) {
            char *next = gh_strdupf("%s%s%s", out, i ? ", " : "", k->name);
            free(out);
            out = next;
            continue;
        }
        for (size_t p = 0; p < k->n_params; p++) {
            if (strstr(out, k->params[p].name)) continue;
            char *next = gh_strdupf("%s%s%s", out, *out ? ", " : "", k->params[p].name);
            free(out);
            out = next;
        }
    }
    return out;
}

static char *describe_allowed(const gh_param_info *p)
{
    if (p->n_allowed == 0) return gh_strdupf("%lld..%lld", (long long)p->min_value, (long long)p->max_value);
    char *out = gh_strdup("");
    for (size_t i = 0; i < p->n_allowed; i++) {
        char *next = gh_strdupf("%s%s%lld", out, i ? ", " : "", (long long)p->allowed[i]);
        free(out);
        out = next;
    }
    return out;
}

static int param_value_allowed(const gh_param_info *p, int64_t v)
{
    if (p->n_allowed == 0) return v >= p->min_value && v <= p->max_value;
    for (size_t i = 0; i < p->n_allowed; i++)
        if (p->allowed[i] == v) return 1;
    return 0;
}

/* The first kernel of the plugin with a parameter of that name, or NULL. */
static const gh_kernel_info *kernel_with_param(const gh_plugin_api *api, gh_plugin *ctx, const char *name)
{
    for (int k = 0; k < api->kernel_count(ctx); k++) {
        const gh_kernel_info *info = api->kernel_info(ctx, k);
        for (size_t p = 0; p < info->n_params; p++)
            if (strcmp(info->params[p].name, name) == 0) return info;
    }
    return NULL;
}

/* Every raw key must be a plugin option or a parameter of a selected kernel,
 * and parameter values must be allowed. Options take one value. */
static int check_keys(const gh_backend_config *bc, const gh_plugin_api *api, gh_plugin *ctx, const int *kernels,
                      size_t n_kernels, char *err, size_t size)
{
    for (size_t i = 0; i < bc->n_keys; i++) {
        const gh_raw_key *key = &bc->keys[i];
        if (find_option(api, key->name)) {
            if (key->n_values != 1)
                return config_error(err, size, &key->origin, bc->name, "%s: plugin option takes one value, got %zu",
                                    key->name, key->n_values);
            continue;
        }
        int used = 0;
        for (size_t k = 0; k < n_kernels; k++) {
            const gh_kernel_info *kinfo = api->kernel_info(ctx, kernels[k]);
            for (size_t p = 0; p < kinfo->n_params; p++) {
                const gh_param_info *param = &kinfo->params[p];
                if (strcmp(param->name, key->name) != 0) continue;
                used = 1;
                for (size_t v = 0; v < key->n_values; v++) {
                    int64_t value;
                    if (strcasecmp(key->values[v], "auto") == 0) continue; /* the tune cache's, per case */
                    if (gh_parse_int64(key->values[v], &value) != 0 || !param_value_allowed(param, value)) {
                        char *allowed = describe_allowed(param), shown[GH_SHOWN_SIZE];
                        config_error(err, size, &key->origin, bc->name,
                                     "%s: \"%s\" is not allowed for kernel %s (allowed: %s)", key->name,
                                     gh_shown_value(key->values[v], shown, sizeof shown), kinfo->name, allowed);
                        free(allowed);
                        return -1;
                    }
                }
            }
        }
        const gh_kernel_info *unselected = kernel_with_param(api, ctx, key->name);
        if (!used && unselected) {
            char *selected = gh_strdup("");
            for (size_t k = 0; k < n_kernels; k++)
                selected = plan_append_unique(selected, api->kernel_info(ctx, kernels[k])->name);
            config_error(err, size, &key->origin, bc->name,
                         "%s: a parameter of kernel %s, which this backend does not run (kernels = %s): add %s to "
                         "kernels, or remove %s",
                         key->name, unselected->name, selected, unselected->name, key->name);
            free(selected);
            return -1;
        }
        if (!used) {
            char *options = list_options(api), *params = plan_list_kernels(ctx, api, 1);
            config_error(
                err, size, &key->origin, bc->name,
                "%s: not an option of plugin %s (options: %s) nor a parameter of its selected kernels (parameters: %s)",
                key->name, api->name, *options ? options : "none", *params ? params : "none");
            free(options);
            free(params);
            return -1;
        }
    }
    return 0;
}

static const gh_raw_key *find_key(const gh_backend_config *bc, const char *name)
{
    for (size_t i = 0; i < bc->n_keys; i++)
        if (strcmp(bc->keys[i].name, name) == 0) return &bc->keys[i];
    return NULL;
}

/* More variants of one kernel than any run could finish: refused before the
 * product is built (and before it could overflow). */
#define MAX_VARIANTS 100000

/* The cartesian product of a kernel's swept parameter values; -1 and err
 * when it is too large. */
static int add_variants(gh_instance *inst, const gh_backend_config *bc, int kernel, const gh_kernel_info *k, char *err,
                        size_t size)
{
    size_t n_combos = 1;
    for (size_t p = 0; p < k->n_params; p++) {
        const gh_raw_key *key = bc ? find_key(bc, k->params[p].name) : NULL;
        if (__builtin_mul_overflow(n_combos, key ? key->n_values : 1, &n_combos) || n_combos > MAX_VARIANTS)
            return config_error(err, size, &bc->origin, bc->name,
                                "kernel %s: its swept parameters give more than %d combinations; sweep fewer values",
                                k->name, MAX_VARIANTS);
    }
    for (size_t combo = 0; combo < n_combos; combo++) {
        inst->variants = gh_xrealloc(inst->variants, (inst->n_variants + 1) * sizeof *inst->variants);
        gh_kernel_variant *v = &inst->variants[inst->n_variants++];
        memset(v, 0, sizeof *v);
        v->kernel = kernel;
        v->info = k;
        v->params = gh_xcalloc(k->n_params ? k->n_params : 1, sizeof *v->params);
        size_t rest = combo, used = 0;
        for (size_t p = 0; p < k->n_params; p++) {
            const gh_raw_key *key = bc ? find_key(bc, k->params[p].name) : NULL;
            int64_t value = k->params[p].default_value;
            if (key) {
                const char *text = key->values[rest % key->n_values];
                rest /= key->n_values;
                if (strcasecmp(text, "auto") == 0 && p < 64) v->auto_params |= (uint64_t)1 << p;
                else gh_parse_int64(text, &value);
            }
            v->params[p] = value;
            int n = (v->auto_params >> p) & 1 ? snprintf(v->label + used, sizeof v->label - used, "%s%s=auto",
                                                         p ? " " : "", k->params[p].name)
                                              : snprintf(v->label + used, sizeof v->label - used, "%s%s=%lld",
                                                         p ? " " : "", k->params[p].name, (long long)value);
            if (n > 0 && used + (size_t)n < sizeof v->label) used += (size_t)n;
        }
    }
    return 0;
}

/* Kernel indices a backend asked for; -1 and err when one does not exist. */
static int select_kernels(const gh_backend_config *bc, const gh_plugin_api *api, gh_plugin *ctx, int *out,
                          size_t *n_out, char *err, size_t size)
{
    int count = api->kernel_count(ctx);
    *n_out = 0;
    if (!bc || bc->n_kernels == 0) {
        for (int i = 0; i < count; i++) out[(*n_out)++] = i;
        return 0;
    }
    for (size_t w = 0; w < bc->n_kernels; w++) {
        int found = -1;
        for (int i = 0; i < count; i++)
            if (strcmp(api->kernel_info(ctx, i)->name, bc->kernels[w]) == 0) found = i;
        if (found < 0) {
            char *names = plan_list_kernels(ctx, api, 0);
            const gh_raw_key at = {.origin = bc->origin};
            config_error(err, size, &at.origin, bc->name, "kernels: plugin %s has no kernel \"%s\" (kernels: %s)",
                         api->name, bc->kernels[w], names);
            free(names);
            return -1;
        }
        out[(*n_out)++] = found;
    }
    return 0;
}

/* "0: NVIDIA H100; 1: llvmpipe" for messages. */
static char *device_names(const gh_plugin_api *api, gh_plugin *ctx, int count)
{
    char *names = gh_strdup("");
    for (int d = 0; d < count; d++) {
        const gh_device_info *info = api->device_info(ctx, d); /* NULL if a worker died since it was counted */
        char *next = gh_strdupf("%s%s%d: %s", names, d ? "; " : "", d, info && info->name ? info->name : "?");
        free(names);
        names = next;
    }
    return names;
}

/* devices = all | hardware | software | 0,2 | name substring, or a list of them */
static void select_devices(gh_instance *inst, const char *spec)
{
    const gh_plugin_api *api = inst->plugin->api;
    char lie[512];
    int count = gh_reported_devices(api, inst->ctx, lie, sizeof lie);
    inst->devices = gh_xcalloc((size_t)(count > 0 ? count : 1), sizeof *inst->devices);
    if (count < 0) {
        set_problem(inst, "%s: a plugin error, nothing runs on it", lie);
        inst->plugin_error = 1;
        return;
    }
    if (count == 0) {
        set_problem(inst, "plugin %s has no usable device: %s", api->name, api->last_error(inst->ctx));
        return;
    }
    for (int d = 0; d < count; d++)
        if (plan_device_in_list(spec, d, api->device_info(inst->ctx, d))) inst->devices[inst->n_devices++] = d;
    if (inst->n_devices == 0) {
        char *names = device_names(api, inst->ctx, count);
        set_problem(inst, "devices = %s matches none of plugin %s's devices (%s)", spec, api->name, names);
        free(names);
    }
}

/* Where the option a plugin refused was written: the key its message names
 * (or the only option given), else the section. */
static const gh_origin *refused_option_origin(const gh_backend_config *bc, const gh_plugin_api *api, const char *why)
{
    const gh_origin *only = NULL;
    size_t n_options = 0;
    for (size_t i = 0; i < bc->n_keys; i++) {
        if (!find_option(api, bc->keys[i].name)) continue;
        n_options++;
        only = &bc->keys[i].origin;
        if (strstr(why, bc->keys[i].name)) return &bc->keys[i].origin;
    }
    return n_options == 1 ? only : &bc->origin;
}

static int open_context(gh_instance *inst, const gh_backend_config *bc, char *err, size_t size)
{
    const gh_plugin_api *api = inst->plugin->api;
    gh_option_value *opts = gh_xcalloc(bc ? bc->n_keys + 1 : 1, sizeof *opts);
    size_t n_opts = 0;
    for (size_t i = 0; bc && i < bc->n_keys; i++)
        if (find_option(api, bc->keys[i].name))
            opts[n_opts++] = (gh_option_value){bc->keys[i].name, bc->keys[i].values[0]};
    gh_crash_doing("opening plugin %s (%s) for backend %s", api->name, inst->plugin->path, inst->name);
    inst->timeout = bc && bc->has_timeout ? bc->timeout : NAN;
    gh_worker_settings worker = {inst->name, inst->timeout};
    gh_status s = gh_plugin_open(inst->plugin, opts, n_opts, &worker, &inst->ctx);
    inst->options = opts; /* kept: a split member under isolation opens its own context with them */
    inst->n_options = n_opts;
    if (s == GH_OK) return 0;
    inst->ctx = NULL;
    if (s == GH_INVALID_ARGUMENT && bc) {
        const char *why = api->last_error(NULL);
        return config_error(err, size, refused_option_origin(bc, api, why), bc->name,
                            "plugin %s refused its options: %s", api->name, why);
    }
    set_problem(inst, "plugin %s could not be opened: %s", api->name, api->last_error(NULL));
    return 0;
}

/* Under isolation a worker that died while the plan asked the plugin about
 * itself (device_count, device_info, kernel_info) leaves a fate: the
 * instance cannot run, and says why. Also every kernel must have an info. */
static void check_discovery(gh_instance *inst)
{
    const gh_plugin_api *api = inst->plugin->api;
    for (int k = 0; inst->ctx && !inst->problem && k < api->kernel_count(inst->ctx); k++)
        if (!api->kernel_info(inst->ctx, k))
            set_problem(inst, "plugin %s: kernel_info(%d) returned nothing for a kernel below kernel_count", api->name,
                        k);
    gh_fate fate;
    if (inst->ctx && gh_proxy_take_fate(api, inst->ctx, &fate))
        set_problem(inst, "plugin %s crashed during discovery: %s%s%s", api->name, fate.what,
                    fate.tail[0] ? "; its stderr ended with:\n" : "", fate.tail);
}

int plan_build_instance(gh_instance *inst, const gh_backend_config *bc, gh_plugin_set *plugins, char *err, size_t size)
{
    if (!inst->plugin) {
        const char *want = bc->plugin;
        inst->plugin = gh_plugins_find(plugins, want);
        if (!inst->plugin) {
            char *dirs = gh_strdup("");
            for (size_t i = 0; i < plugins->n_dirs; i++) {
                char *next = gh_strdupf("%s%s%s", dirs, i ? ", " : "", plugins->dirs[i]);
                free(dirs);
                dirs = next;
            }
            set_problem(inst,
                        "no plugin named \"%s\" (file " GH_PLUGIN_PREFIX "%s" GH_PLUGIN_SUFFIX
                        ") in the search path: %s%s",
                        want, want, dirs,
                        strcmp(want, bc->name) == 0 ? "; a [backend] section without `plugin =` uses its own name "
                                                      "as the plugin name"
                                                    : "");
            free(dirs);
            return 0;
        }
    }
    if (!inst->plugin->api) {
        set_problem(inst, "%s", inst->plugin->error);
        return 0;
    }
    const gh_plugin_api *api = inst->plugin->api;
    if (open_context(inst, bc, err, size) != 0) return -1;
    if (!inst->ctx) return 0;
    check_discovery(inst);
    if (inst->problem) return 0;
    int kernels[256];
    size_t n_kernels = 0;
    if (api->kernel_count(inst->ctx) > 256) {
        set_problem(inst, "plugin %s declares more than 256 kernels", api->name);
        return 0;
    }
    if (select_kernels(bc, api, inst->ctx, kernels, &n_kernels, err, size) != 0) return -1;
    if (bc && check_keys(bc, api, inst->ctx, kernels, n_kernels, err, size) != 0) return -1;
    for (size_t k = 0; k < n_kernels; k++) {
        size_t first = inst->n_variants;
        if (add_variants(inst, bc, kernels[k], api->kernel_info(inst->ctx, kernels[k]), err, size) != 0) return -1;
        for (size_t v = first; v < inst->n_variants; v++) inst->variants[v].named = bc && bc->n_kernels > 0;
    }
    select_devices(inst, bc ? bc->devices : "all");
    check_discovery(inst);
    return 0;
}
