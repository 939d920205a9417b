/* From config and plugins to instances. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "plan.h"
#include "util.h"

static int config_error(char *err, size_t size, const gh_origin *at, const char *section, const char *fmt, ...)
{
    int n = snprintf(err, size, "%s:%d: [backend %s] ", at->file, at->line, section);
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

/* Every raw key must be a plugin option or a parameter of a selected kernel,
 * and parameter values must be allowed. Options take one value. */
static int check_keys(const gh_backend_config *bc, const gh_plugin_api *api, gh_plugin *ctx,
                      const int *kernels, size_t n_kernels, char *err, size_t size)
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
                    if (gh_parse_int64(key->values[v], &value) != 0 || !param_value_allowed(param, value)) {
                        char *allowed = describe_allowed(param);
                        config_error(err, size, &key->origin, bc->name, "%s: \"%s\" is not allowed for kernel %s (allowed: %s)",
                                     key->name, key->values[v], kinfo->name, allowed);
                        free(allowed);
                        return -1;
                    }
                }
            }
        }
        if (!used) {
            char *options = list_options(api), *params = list_kernels(ctx, api, 1);
            config_error(err, size, &key->origin, bc->name,
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

/* The cartesian product of a kernel's swept parameter values. */
static void add_variants(gh_instance *inst, const gh_backend_config *bc, int kernel, const gh_kernel_info *k)
{
    size_t n_combos = 1;
    for (size_t p = 0; p < k->n_params; p++) {
        const gh_raw_key *key = bc ? find_key(bc, k->params[p].name) : NULL;
        n_combos *= key ? key->n_values : 1;
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
                gh_parse_int64(key->values[rest % key->n_values], &value);
                rest /= key->n_values;
            }
            v->params[p] = value;
            int n = snprintf(v->label + used, sizeof v->label - used, "%s%s=%lld", p ? " " : "",
                             k->params[p].name, (long long)value);
            if (n > 0 && used + (size_t)n < sizeof v->label) used += (size_t)n;
        }
    }
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

static int name_matches(const char *haystack, const char *needle)
{
    return strcasestr(haystack, needle) != NULL;
}

/* devices = all | hardware | software | 0,2 | name substring */
static void select_devices(gh_instance *inst, const char *spec)
{
    const gh_plugin_api *api = inst->plugin->api;
    int count = api->device_count(inst->ctx);
    inst->devices = gh_xcalloc((size_t)(count > 0 ? count : 1), sizeof *inst->devices);
    if (count <= 0) {
        set_problem(inst, "plugin %s has no usable device: %s", api->name, api->last_error(inst->ctx));
        return;
    }
    int is_index_list = spec[0] != '\0';
    for (const char *c = spec; *c; c++)
        if (!isdigit((unsigned char)*c) && *c != ',' && *c != ' ') is_index_list = 0;
    for (int d = 0; d < count; d++) {
        const gh_device_info *info = api->device_info(inst->ctx, d);
        int take;
        if (strcmp(spec, "all") == 0) take = 1;
        else if (strcmp(spec, "hardware") == 0) take = !info->is_software;
        else if (strcmp(spec, "software") == 0) take = info->is_software;
        else if (is_index_list) {
            take = 0;
            char *copy = gh_strdup(spec), *save = NULL;
            for (char *t = strtok_r(copy, ", ", &save); t; t = strtok_r(NULL, ", ", &save))
                if (atoi(t) == d) take = 1;
            free(copy);
        } else take = name_matches(info->name, spec);
        if (take) inst->devices[inst->n_devices++] = d;
    }
    if (inst->n_devices == 0) {
        char *names = gh_strdup("");
        for (int d = 0; d < count; d++) {
            char *next = gh_strdupf("%s%s%d: %s", names, d ? "; " : "", d, api->device_info(inst->ctx, d)->name);
            free(names);
            names = next;
        }
        set_problem(inst, "devices = %s matches none of plugin %s's devices (%s)", spec, api->name, names);
        free(names);
    }
}

static int open_context(gh_instance *inst, const gh_backend_config *bc, char *err, size_t size)
{
    const gh_plugin_api *api = inst->plugin->api;
    gh_option_value *opts = gh_xcalloc(bc ? bc->n_keys + 1 : 1, sizeof *opts);
    size_t n_opts = 0;
    for (size_t i = 0; bc && i < bc->n_keys; i++)
        if (find_option(api, bc->keys[i].name))
            opts[n_opts++] = (gh_option_value){bc->keys[i].name, bc->keys[i].values[0]};
    gh_status s = api->open(opts, n_opts, &inst->ctx);
    free(opts);
    if (s == GH_OK) return 0;
    inst->ctx = NULL;
    if (s == GH_INVALID_ARGUMENT && bc)
        return config_error(err, size, &bc->origin, bc->name, "plugin %s refused its options: %s", api->name,
                            api->last_error(NULL));
    set_problem(inst, "plugin %s could not be opened: %s", api->name, api->last_error(NULL));
    return 0;
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
            set_problem(inst, "no plugin named \"%s\" (file " GH_PLUGIN_PREFIX "%s" GH_PLUGIN_SUFFIX
                              ") in the search path: %s",
                        want, want, dirs);
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
    int kernels[256];
    size_t n_kernels = 0;
    if (api->kernel_count(inst->ctx) > 256) {
        set_problem(inst, "plugin %s declares more than 256 kernels", api->name);
        return 0;
    }
    if (select_kernels(bc, api, inst->ctx, kernels, &n_kernels, err, size) != 0) return -1;
    if (bc && check_keys(bc, api, inst->ctx, kernels, n_kernels, err, size) != 0) return -1;
    for (size_t k = 0; k < n_kernels; k++) add_variants(inst, bc, kernels[k], api->kernel_info(inst->ctx, kernels[k]));
    select_devices(inst, bc ? bc->devices : "all");
    return 0;
}

int gh_plan_build(const gh_config *cfg, gh_plugin_set *plugins, gh_plan *plan, char *err, size_t err_size)
{
    memset(plan, 0, sizeof *plan);
    plan->n_cases = cfg->run.n_sizes * cfg->run.n_dtypes * cfg->run.n_trans;
    if (cfg->auto_backends) {
        /* Every loaded plugin, every device, every kernel at its defaults. */
        for (size_t i = 0; i < plugins->n; i++) {
            gh_loaded_plugin *p = &plugins->items[i];
            if (!p->api) continue;
            plan->instances = gh_xrealloc(plan->instances, (plan->n_instances + 1) * sizeof *plan->instances);
            gh_instance *inst = &plan->instances[plan->n_instances++];
            memset(inst, 0, sizeof *inst);
            inst->name = gh_strdup(p->name);
            inst->plugin = p;
            if (build_instance(inst, NULL, plugins, err, err_size) != 0) return -1;
        }
        return 0;
    }
    for (size_t b = 0; b < cfg->n_backends; b++) {
        const gh_backend_config *bc = &cfg->backends[b];
        plan->instances = gh_xrealloc(plan->instances, (plan->n_instances + 1) * sizeof *plan->instances);
        gh_instance *inst = &plan->instances[plan->n_instances++];
        memset(inst, 0, sizeof *inst);
        inst->name = gh_strdup(bc->name);
        inst->requested = 1;
        if (build_instance(inst, bc, plugins, err, err_size) != 0) return -1;
    }
    return 0;
}

size_t gh_plan_run_count(const gh_plan *plan, const gh_instance *inst)
{
    if (inst->problem) return 0;
    return plan->n_cases * inst->n_devices * inst->n_variants;
}

void gh_plan_free(gh_plan *plan)
{
    for (size_t i = 0; i < plan->n_instances; i++) {
        gh_instance *inst = &plan->instances[i];
        if (inst->ctx && inst->plugin && inst->plugin->api) inst->plugin->api->close(inst->ctx);
        for (size_t v = 0; v < inst->n_variants; v++) free(inst->variants[v].params);
        free(inst->variants);
        free(inst->devices);
        free(inst->problem);
        free(inst->name);
    }
    free(plan->instances);
    memset(plan, 0, sizeof *plan);
}
