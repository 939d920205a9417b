/* From config and plugins to instances. */
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

static char *append_unique(char *list, const char *item);

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

static char *list_kernels(gh_plugin *ctx, const gh_plugin_api *api, int with_params)
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
                selected = append_unique(selected, api->kernel_info(ctx, kernels[k])->name);
            config_error(err, size, &key->origin, bc->name,
                         "%s: a parameter of kernel %s, which this backend does not run (kernels = %s): add %s to "
                         "kernels, or remove %s",
                         key->name, unselected->name, selected, unselected->name, key->name);
            free(selected);
            return -1;
        }
        if (!used) {
            char *options = list_options(api), *params = list_kernels(ctx, api, 1);
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
            char *names = list_kernels(ctx, api, 0);
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

/* One item of a device list: all, hardware, software, an index, or part of
 * the device's name (any case). */
static int device_item_matches(const char *item, int d, const gh_device_info *info)
{
    if (strcmp(item, "all") == 0) return 1;
    if (strcmp(item, "hardware") == 0) return !info->is_software;
    if (strcmp(item, "software") == 0) return info->is_software;
    int64_t index;
    if (gh_parse_int64(item, &index) == 0) return index == d;
    return strcasestr(info->name, item) != NULL;
}

/* The items of a comma list, each trimmed; empty items dropped. */
static char **list_items(const char *list, size_t *n)
{
    char **items = NULL;
    *n = 0;
    char *copy = gh_strdup(list), *save = NULL;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        while (isspace((unsigned char)*t)) t++;
        for (char *end = t + strlen(t); end > t && isspace((unsigned char)end[-1]);) *--end = '\0';
        if (!*t) continue;
        items = gh_xrealloc(items, (*n + 1) * sizeof *items);
        items[(*n)++] = gh_strdup(t);
    }
    free(copy);
    return items;
}

static void free_items(char **items, size_t n)
{
    for (size_t i = 0; i < n; i++) free(items[i]);
    free(items);
}

/* A comma list of items ("0,2", "hardware", "H100, lavapipe"): any item. */
static int device_in_list(const char *list, int d, const gh_device_info *info)
{
    if (!info) return 0; /* a worker that died answering: check_discovery says so */
    size_t n;
    char **items = list_items(list, &n);
    int take = 0;
    for (size_t i = 0; i < n && !take; i++) take = device_item_matches(items[i], d, info);
    free_items(items, n);
    return take;
}

/* Whether `name` is an item of a comma list. */
static int in_list(const char *list, const char *name)
{
    size_t n;
    char **items = list_items(list, &n);
    int found = 0;
    for (size_t i = 0; i < n && !found; i++) found = strcmp(items[i], name) == 0;
    free_items(items, n);
    return found;
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
        if (device_in_list(spec, d, api->device_info(inst->ctx, d))) inst->devices[inst->n_devices++] = d;
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
    gh_status s = gh_plugin_open(inst->plugin, opts, n_opts, &inst->ctx);
    inst->options = opts; /* kept: a split member under isolation opens its own context with them */
    inst->n_options = n_opts;
    inst->timeout = bc && bc->has_timeout ? bc->timeout : NAN;
    if (s == GH_OK) {
        gh_proxy_set_label(api, inst->ctx, inst->name);
        if (!isnan(inst->timeout)) gh_proxy_set_timeout(api, inst->ctx, inst->timeout);
        return 0;
    }
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

static int build_instance(gh_instance *inst, const gh_backend_config *bc, gh_plugin_set *plugins, char *err,
                          size_t size)
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

/* ---- splits ---- */

static void set_split_problem(gh_split_plan *sp, const char *fmt, ...)
{
    if (sp->problem) return; /* the first reason is the one to fix */
    va_list ap;
    va_start(ap, fmt);
    sp->problem = gh_vstrdupf(fmt, ap);
    va_end(ap);
}

static gh_instance *find_instance(gh_plan *plan, const char *name)
{
    for (size_t i = 0; i < plan->n_instances; i++)
        if (strcmp(plan->instances[i].name, name) == 0) return &plan->instances[i];
    return NULL;
}

/* The kernel a member runs: the split's `kernel`, with the parameters of its
 * first variant in the member's [backend] (the plugin's defaults when the
 * backend does not select it); with no `kernel`, the backend's first variant. */
static int member_kernel(const gh_split_config *sc, const gh_instance *inst, int *kernel, const gh_kernel_info **info,
                         const int64_t **params, const char **label, char *err, size_t size)
{
    for (size_t v = 0; v < inst->n_variants; v++) {
        const gh_kernel_variant *kv = &inst->variants[v];
        if (sc->kernel[0] && strcmp(kv->info->name, sc->kernel) != 0) continue;
        *kernel = kv->kernel;
        *info = kv->info;
        *params = kv->params;
        *label = kv->label;
        return 0;
    }
    const gh_plugin_api *api = inst->plugin->api;
    for (int k = 0; sc->kernel[0] && k < api->kernel_count(inst->ctx); k++) {
        const gh_kernel_info *ki = api->kernel_info(inst->ctx, k);
        if (strcmp(ki->name, sc->kernel) != 0) continue;
        *kernel = k;
        *info = ki;
        *params = NULL; /* defaults, filled by the caller */
        *label = "";
        return 0;
    }
    char *names = list_kernels(inst->ctx, api, 0);
    char where[512];
    snprintf(err, size, "%s: [split %s] kernel: plugin %s of member %s has no kernel \"%s\" (kernels: %s)",
             gh_origin_format(&sc->origin, where, sizeof where), sc->name, api->name, inst->name, sc->kernel, names);
    free(names);
    return -1;
}

/* A member's context: the instance's in process; under isolation a worker
 * of its own, opened with the instance's options, so that two members of
 * one plugin run at once (closed in free_split). NULL with the split's
 * problem set when it cannot be opened. */
static gh_plugin *member_context(gh_split_plan *sp, const gh_instance *inst, int device)
{
    const gh_plugin_api *api = inst->plugin->api;
    if (!gh_proxy_is(api)) return inst->ctx;
    gh_plugin *ctx = NULL;
    if (gh_plugin_open(inst->plugin, inst->options, inst->n_options, &ctx) != GH_OK) {
        set_split_problem(sp, "member %s/%d: its worker could not open plugin %s: %s", inst->name, device, api->name,
                          api->last_error(NULL));
        return NULL;
    }
    char label[128];
    snprintf(label, sizeof label, "%s/%s/%d", sp->name, inst->name, device);
    gh_proxy_set_label(api, ctx, label);
    if (!isnan(inst->timeout)) gh_proxy_set_timeout(api, ctx, inst->timeout);
    return ctx;
}

/* One member per selected device of the backend instance. */
static int add_members(gh_split_plan *sp, const gh_instance *inst, char *err, size_t size)
{
    int kernel;
    const gh_kernel_info *info;
    const int64_t *params;
    const char *label;
    if (member_kernel(sp->config, inst, &kernel, &info, &params, &label, err, size) != 0) return -1;
    for (size_t d = 0; d < inst->n_devices; d++) {
        gh_plugin *ctx = member_context(sp, inst, inst->devices[d]);
        if (!ctx) continue;
        sp->members = gh_xrealloc(sp->members, (sp->n_members + 1) * sizeof *sp->members);
        int64_t *own = gh_xcalloc(info->n_params ? info->n_params : 1, sizeof *own);
        for (size_t p = 0; p < info->n_params; p++) own[p] = params ? params[p] : info->params[p].default_value;
        sp->members[sp->n_members++] = (gh_split_member){
            .backend = inst->name,
            .api = inst->plugin->api,
            .abi_minor = inst->plugin->abi_minor,
            .ctx = ctx,
            .device = inst->devices[d],
            .kernel = kernel,
            .kernel_info = info,
            .params = own,
            .params_label = gh_strdup(label),
            .isolated = gh_proxy_is(inst->plugin->api),
        };
    }
    return 0;
}

/* "cpu/0 + opencl/0": every member device. */
static char *member_devices(const gh_split_plan *sp)
{
    char *out = gh_strdup("");
    for (size_t i = 0; i < sp->n_members; i++) {
        char *next = gh_strdupf("%s%s%s/%d", out, i ? " + " : "", sp->members[i].backend, sp->members[i].device);
        free(out);
        out = next;
    }
    return out;
}

/* "tiled", or "naive+tiled" when members run different kernels. */
static char *member_kernels(const gh_split_plan *sp)
{
    char *out = gh_strdup("");
    for (size_t i = 0; i < sp->n_members; i++) {
        const char *name = sp->members[i].kernel_info->name;
        int seen = 0;
        for (size_t j = 0; j < i; j++) seen |= strcmp(sp->members[j].kernel_info->name, name) == 0;
        if (seen) continue;
        char *next = gh_strdupf("%s%s%s", out, *out ? "+" : "", name);
        free(out);
        out = next;
    }
    return out;
}

static int same_member_kind(const gh_split_member *x, const gh_split_member *y)
{
    const gh_device_info *dx = x->api->device_info(x->ctx, x->device), *dy = y->api->device_info(y->ctx, y->device);
    return strcmp(x->api->name, y->api->name) == 0 && dx && dy && strcmp(dx->name, dy->name) == 0 &&
           strcmp(x->kernel_info->name, y->kernel_info->name) == 0 && strcmp(x->params_label, y->params_label) == 0;
}

static void describe_split(gh_split_plan *sp)
{
    char *devices = member_devices(sp);
    sp->device_name = gh_strdupf("split: %s", devices);
    free(devices);
    sp->kernel = member_kernels(sp);
    int same_params = 1;
    sp->alike = sp->n_members > 0;
    for (size_t i = 1; i < sp->n_members; i++) {
        sp->alike &= same_member_kind(&sp->members[0], &sp->members[i]);
        same_params &= strcmp(sp->members[0].params_label, sp->members[i].params_label) == 0;
    }
    sp->params = gh_strdup(sp->n_members && same_params ? sp->members[0].params_label : "");
}

static int build_split(gh_split_plan *sp, const gh_split_config *sc, gh_plan *plan, char *err, size_t size)
{
    memset(sp, 0, sizeof *sp);
    sp->name = gh_strdup(sc->name);
    sp->config = sc;
    for (size_t b = 0; b < sc->n_backends; b++) {
        gh_instance *inst = find_instance(plan, sc->backends[b]);
        if (!inst) { /* the config checks this; kept for a plan built otherwise */
            set_split_problem(sp, "member %s is not a [backend] section", sc->backends[b]);
            continue;
        }
        if (inst->problem) {
            set_split_problem(sp, "member %s cannot run: %s", inst->name, inst->problem);
            continue;
        }
        if (add_members(sp, inst, err, size) != 0) return -1;
    }
    if (!sp->problem && sp->n_members == 0) set_split_problem(sp, "no member device");
    describe_split(sp);
    return 0;
}

static void free_split(gh_split_plan *sp);

static char *append_unique(char *list, const char *item)
{
    if (in_list(list, item)) return list;
    char *next = gh_strdupf("%s%s%s", list, *list ? ", " : "", item);
    free(list);
    return next;
}

static int backend_exists(const gh_config *cfg, const gh_plan *plan, const char *name)
{
    for (size_t i = 0; i < plan->n_instances; i++)
        if (strcmp(plan->instances[i].name, name) == 0) return 1;
    for (size_t i = 0; i < cfg->n_splits; i++)
        if (strcmp(cfg->splits[i].name, name) == 0) return 1;
    return 0;
}

static char *backend_choices(const gh_config *cfg, const gh_plan *plan)
{
    char *out = gh_strdup("");
    for (size_t i = 0; i < plan->n_instances; i++) out = append_unique(out, plan->instances[i].name);
    for (size_t i = 0; i < cfg->n_splits; i++) out = append_unique(out, cfg->splits[i].name);
    return out;
}

/* Every kernel of the plugins the plan opened, "" when none. */
static char *kernel_choices(const gh_plan *plan)
{
    char *out = gh_strdup("");
    for (size_t i = 0; i < plan->n_instances; i++) {
        const gh_instance *inst = &plan->instances[i];
        for (int k = 0; inst->ctx && k < inst->plugin->api->kernel_count(inst->ctx); k++)
            out = append_unique(out, inst->plugin->api->kernel_info(inst->ctx, k)->name);
    }
    return out;
}

/* Each item of --backend and --kernel must name something, or the run would
 * quietly do less than asked: -1 and err naming the item and what there is. */
static int check_filter_names(const gh_config *cfg, const gh_plan *plan, const gh_plan_filters *f, char *err,
                              size_t size)
{
    int rc = 0;
    size_t n;
    char **items = f->backends ? list_items(f->backends, &n) : NULL;
    for (size_t i = 0; items && i < n && rc == 0; i++) {
        if (backend_exists(cfg, plan, items[i])) continue;
        char *there = backend_choices(cfg, plan), list[GH_SHOWN_SIZE], item[GH_SHOWN_SIZE];
        snprintf(err, size, "--backend %s: no %s named \"%s\" (there are: %s)",
                 gh_shown_value(f->backends, list, sizeof list),
                 cfg->auto_backends ? "loaded plugin" : "[backend] or [split] section",
                 gh_shown_value(items[i], item, sizeof item), *there ? there : "none");
        free(there);
        rc = -1;
    }
    if (items) free_items(items, n);
    char *kernels = kernel_choices(plan);
    items = f->kernels && rc == 0 ? list_items(f->kernels, &n) : NULL;
    for (size_t i = 0; items && i < n && rc == 0; i++) {
        if (in_list(kernels, items[i])) continue;
        char list[GH_SHOWN_SIZE], item[GH_SHOWN_SIZE];
        snprintf(err, size, "--kernel %s: no kernel named \"%s\" in the selected plugins (there are: %s)",
                 gh_shown_value(f->kernels, list, sizeof list), gh_shown_value(items[i], item, sizeof item),
                 *kernels ? kernels : "none");
        rc = -1;
    }
    if (items) free_items(items, n);
    free(kernels);
    return rc;
}

/* --device narrows an instance's devices (and so a split's members); --backend
 * decides whether it runs on its own (a split may still use it). */
static void filter_devices(gh_instance *inst, const gh_plan_filters *f)
{
    inst->runs_alone = !f->backends || in_list(f->backends, inst->name);
    if (f->backends && inst->runs_alone) inst->requested = 1; /* named on the command line: asked for */
    if (f->devices && inst->problem) inst->runs_alone = 0;    /* it has no device to match */
    if (inst->problem || !f->devices) return;
    size_t kept = 0;
    const gh_plugin_api *api = inst->plugin->api;
    for (size_t d = 0; d < inst->n_devices; d++)
        if (device_in_list(f->devices, inst->devices[d], api->device_info(inst->ctx, inst->devices[d])))
            inst->devices[kept++] = inst->devices[d];
    inst->n_devices = kept;
    if (kept == 0) inst->runs_alone = 0;
}

/* --kernel narrows the variants an instance runs on its own; done after the
 * splits are built, so a split's members run what the config says. */
static void filter_kernels(gh_instance *inst, const gh_plan_filters *f)
{
    if (!f->kernels) return;
    size_t kept = 0;
    for (size_t v = 0; v < inst->n_variants; v++) {
        if (in_list(f->kernels, inst->variants[v].info->name)) {
            inst->variants[v].named = 1; /* asked for by name: it must run something */
            inst->variants[kept++] = inst->variants[v];
        } else free(inst->variants[v].params);
    }
    inst->n_variants = kept;
    if (kept == 0 && !inst->problem) inst->runs_alone = 0;
}

/* A split runs when --backend names it (or there is no --backend) and each
 * of its members' kernels passes --kernel. */
static int split_wanted(const gh_split_plan *sp, const gh_plan_filters *f)
{
    if (f->backends && !in_list(f->backends, sp->name)) return 0;
    for (size_t m = 0; f->kernels && m < sp->n_members; m++)
        if (!in_list(f->kernels, sp->members[m].kernel_info->name)) return 0;
    return 1;
}

static int something_runs(const gh_plan *plan)
{
    for (size_t i = 0; i < plan->n_instances; i++)
        if (plan->instances[i].runs_alone) return 1;
    for (size_t i = 0; i < plan->n_splits; i++)
        if (!plan->splits[i].problem) return 1;
    return 0;
}

/* Each member's layout for every size and dtype, planned once for --dry-run. */
static void plan_layouts(const gh_config *cfg, gh_split_plan *sp)
{
    const gh_run_config *run = &cfg->run;
    sp->layouts = gh_xcalloc(run->n_sizes * run->n_dtypes * sp->n_members + 1, sizeof *sp->layouts);
    for (size_t s = 0; s < run->n_sizes; s++)
        for (size_t d = 0; d < run->n_dtypes; d++)
            for (size_t m = 0; m < sp->n_members; m++) {
                const gh_split_member *mb = &sp->members[m];
                gh_member_layout *ml = &sp->layouts[(s * run->n_dtypes + d) * sp->n_members + m];
                gh_split_shape shape = {run->dtypes[d], run->sizes[s].m, run->sizes[s].n, run->sizes[s].k};
                ml->fits = gh_split_plan_layout(
                               &shape, sp->config->panel, gh_split_member_limit(mb, sp->config->mem_limit),
                               gh_split_member_has_streams(mb) ? 2 : 1, &ml->layout, ml->why, sizeof ml->why) == 0;
            }
}

static int build_splits(const gh_config *cfg, const gh_plan_filters *f, gh_plan *plan, char *err, size_t size)
{
    plan->splits = gh_xcalloc(cfg->n_splits ? cfg->n_splits : 1, sizeof *plan->splits);
    for (size_t i = 0; i < cfg->n_splits; i++) {
        gh_split_plan *sp = &plan->splits[plan->n_splits++];
        if (build_split(sp, &cfg->splits[i], plan, err, size) != 0) return -1;
        if (split_wanted(sp, f)) {
            if (!sp->problem) plan_layouts(cfg, sp);
            continue;
        }
        free_split(sp);
        plan->n_splits--;
    }
    return 0;
}

#define ALL_DTYPES  ((1u << GH_DTYPE_COUNT) - 1)
#define WIDE_DTYPES (GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_I32))

uint32_t gh_dtypes_to_run(const gh_run_config *run, uint32_t has)
{
    if (!run->dtype_auto) return ALL_DTYPES;
    has &= ALL_DTYPES;
    return has & WIDE_DTYPES ? has & WIDE_DTYPES : has;
}

/* Each variant's and split's dtypes (a split: those all its members have),
 * then, with dtype = auto, only the cases some of them run, numbered anew. */
static void choose_dtypes(const gh_run_config *run, gh_plan *plan)
{
    uint32_t used = 0;
    for (size_t i = 0; i < plan->n_instances; i++) {
        gh_instance *inst = &plan->instances[i];
        for (size_t v = 0; v < inst->n_variants; v++) {
            inst->variants[v].run_dtypes = gh_dtypes_to_run(run, inst->variants[v].info->dtypes);
            if (!inst->problem && inst->runs_alone) used |= inst->variants[v].run_dtypes;
        }
    }
    for (size_t s = 0; s < plan->n_splits; s++) {
        gh_split_plan *sp = &plan->splits[s];
        uint32_t shared = ALL_DTYPES;
        for (size_t m = 0; m < sp->n_members; m++) shared &= sp->members[m].kernel_info->dtypes;
        sp->run_dtypes = gh_dtypes_to_run(run, shared);
        if (!sp->problem) used |= sp->run_dtypes;
    }
    if (!run->dtype_auto) return;
    size_t kept = 0;
    for (size_t c = 0; c < plan->n_cases; c++) {
        if (!(used & GH_DTYPE_BIT(plan->cases[c].dtype))) continue;
        plan->cases[kept] = plan->cases[c];
        plan->cases[kept].index = (int)kept;
        kept++;
    }
    plan->n_cases = kept;
}

/* Every size x dtype x transpose, in the order the run takes them. */
static void list_cases(const gh_run_config *run, gh_plan *plan)
{
    plan->n_dtypes = run->n_dtypes;
    plan->cases = gh_xcalloc(run->n_sizes * run->n_dtypes * run->n_trans + 1, sizeof *plan->cases);
    for (size_t s = 0; s < run->n_sizes; s++)
        for (size_t d = 0; d < run->n_dtypes; d++)
            for (size_t t = 0; t < run->n_trans; t++) {
                gh_case *c = &plan->cases[plan->n_cases];
                *c = (gh_case){(int)plan->n_cases, run->sizes[s], run->dtypes[d], run->trans[t], s, d};
                plan->n_cases++;
            }
}

static gh_instance *new_instance(gh_plan *plan, const char *name)
{
    plan->instances = gh_xrealloc(plan->instances, (plan->n_instances + 1) * sizeof *plan->instances);
    gh_instance *inst = &plan->instances[plan->n_instances++];
    memset(inst, 0, sizeof *inst);
    inst->name = gh_strdup(name);
    inst->runs_alone = 1;
    return inst;
}

int gh_plan_build(const gh_config *cfg, gh_plugin_set *plugins, const gh_plan_filters *filters, gh_plan *plan,
                  char *err, size_t err_size)
{
    static const gh_plan_filters none = {0};
    const gh_plan_filters *f = filters ? filters : &none;
    memset(plan, 0, sizeof *plan);
    list_cases(&cfg->run, plan);
    /* Without [backend] sections: every loaded plugin, every device, every
     * kernel at its defaults. */
    for (size_t i = 0; cfg->auto_backends && i < plugins->n; i++) {
        gh_loaded_plugin *p = plugins->items[i];
        if (!p->api) continue;
        gh_instance *inst = new_instance(plan, p->name);
        inst->plugin = p;
        if (build_instance(inst, NULL, plugins, err, err_size) != 0) return -1;
    }
    for (size_t b = 0; !cfg->auto_backends && b < cfg->n_backends; b++) {
        gh_instance *inst = new_instance(plan, cfg->backends[b].name);
        inst->requested = 1;
        if (build_instance(inst, &cfg->backends[b], plugins, err, err_size) != 0) return -1;
    }
    if (check_filter_names(cfg, plan, f, err, err_size) != 0) return -1;
    for (size_t i = 0; i < plan->n_instances; i++) filter_devices(&plan->instances[i], f);
    if (build_splits(cfg, f, plan, err, err_size) != 0) return -1;
    for (size_t i = 0; i < plan->n_instances; i++) filter_kernels(&plan->instances[i], f);
    if ((f->backends || f->kernels || f->devices) && !something_runs(plan)) {
        char b[GH_SHOWN_SIZE], k[GH_SHOWN_SIZE], d[GH_SHOWN_SIZE];
        snprintf(err, err_size, "the filters%s%s%s%s%s%s leave nothing to run (see gemmhost --list)",
                 f->backends ? " --backend " : "", f->backends ? gh_shown_value(f->backends, b, sizeof b) : "",
                 f->kernels ? " --kernel " : "", f->kernels ? gh_shown_value(f->kernels, k, sizeof k) : "",
                 f->devices ? " --device " : "", f->devices ? gh_shown_value(f->devices, d, sizeof d) : "");
        return -1;
    }
    choose_dtypes(&cfg->run, plan);
    return 0;
}

/* Cases of the plan in the dtypes of `mask`. */
static size_t cases_in(const gh_plan *plan, uint32_t mask)
{
    size_t n = 0;
    for (size_t c = 0; c < plan->n_cases; c++) n += (mask & GH_DTYPE_BIT(plan->cases[c].dtype)) != 0;
    return n;
}

size_t gh_plan_run_count(const gh_plan *plan, const gh_instance *inst)
{
    if (inst->problem || !inst->runs_alone) return 0;
    size_t n = 0;
    for (size_t v = 0; v < inst->n_variants; v++) n += cases_in(plan, inst->variants[v].run_dtypes);
    return n * inst->n_devices;
}

size_t gh_plan_split_run_count(const gh_plan *plan, const gh_split_plan *sp)
{
    return sp->problem ? 0 : cases_in(plan, sp->run_dtypes);
}

static void free_split(gh_split_plan *sp)
{
    for (size_t i = 0; i < sp->n_members; i++) {
        if (gh_proxy_is(sp->members[i].api)) sp->members[i].api->close(sp->members[i].ctx); /* its own worker */
        free((void *)sp->members[i].params);
        free((void *)sp->members[i].params_label);
    }
    free(sp->members);
    free(sp->name);
    free(sp->device_name);
    free(sp->kernel);
    free(sp->params);
    free(sp->problem);
    free(sp->layouts);
    free(sp->streak.given_up);
}

void gh_plan_free(gh_plan *plan)
{
    for (size_t i = 0; i < plan->n_splits; i++) free_split(&plan->splits[i]);
    free(plan->splits);
    for (size_t i = 0; i < plan->n_instances; i++) {
        gh_instance *inst = &plan->instances[i];
        if (inst->ctx && inst->plugin && inst->plugin->api) inst->plugin->api->close(inst->ctx);
        for (size_t v = 0; v < inst->n_variants; v++) free(inst->variants[v].params);
        free(inst->variants);
        free(inst->devices);
        free(inst->problem);
        free(inst->name);
        free(inst->options);
        free(inst->streak.given_up);
    }
    free(plan->instances);
    free(plan->cases);
    memset(plan, 0, sizeof *plan);
}

const gh_member_layout *gh_plan_member_layout(const gh_plan *plan, const gh_split_plan *sp, const gh_case *c,
                                              size_t member)
{
    if (!sp->layouts) return NULL;
    return &sp->layouts[(c->size_index * plan->n_dtypes + c->dtype_index) * sp->n_members + member];
}
