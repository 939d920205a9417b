/* See tune_auto.h. */
#include "tune_auto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune_space.h"
#include "util.h"

/* The cache's best for this case into `best`, or 0 with `why`. */
static int cached_best(const gh_tune_cache *cache, const gh_instance *inst, int device, const gh_kernel_info *info,
                       const gh_case_types *types, gh_size_class cls, int64_t *best, char *why, size_t why_size)
{
    if (!cache) {
        snprintf(why, why_size, "no tune cache (neither tune_cache, %s, XDG_CACHE_HOME nor HOME is set)",
                 GH_TUNE_CACHE_ENV);
        return 0;
    }
    if (gh_tune_cache_problem(cache)) {
        snprintf(why, why_size, "the tune cache is unusable (see the warning)");
        return 0;
    }
    const gh_plugin_api *api = inst->plugin->api;
    const gh_device_info *dev = api->device_info(inst->ctx, device);
    gh_tune_key key = {
        api->name, dev ? dev->name : "?", dev && dev->driver_version ? dev->driver_version : "", info->name, types->a,
        *types};
    int stale;
    const gh_tune_entry *e = gh_tune_cache_find(cache, &key, info, &stale);
    if (!e) {
        snprintf(why, why_size, "%s",
                 stale ? "the tune cache's entry was tuned with other parameters" : "no tune cache entry");
        return 0;
    }
    return gh_tune_entry_best(e, info, cls, best, why, why_size);
}

void gh_tune_auto_resolve(const gh_tune_cache *cache, const gh_instance *inst, int device, const gh_kernel_variant *v,
                          const gh_case_types *types, gh_shape shape, gh_kernel_variant *out, char *note,
                          size_t note_size)
{
    const gh_kernel_info *info = v->info;
    const size_t np = info->n_params;
    *out = *v;
    out->params = gh_xcalloc(np ? np : 1, sizeof *out->params);
    memcpy(out->params, v->params, np * sizeof *out->params);
    const gh_size_class cls = gh_size_class_of(shape.m, shape.n, shape.k);
    int64_t *best = gh_xcalloc(np ? np : 1, sizeof *best);
    char why[256];
    int found = cached_best(cache, inst, device, info, types, cls, best, why, sizeof why);
    for (size_t p = 0; p < np && p < 64; p++)
        if ((v->auto_params >> p) & 1) out->params[p] = found ? best[p] : info->params[p].default_value;
    free(best);
    gh_tune_params_label(info, out->params, out->label, sizeof out->label);
    if (found) snprintf(note, note_size, "auto: from the tune cache (size class %s)", gh_size_class_name(cls));
    else snprintf(note, note_size, "auto: %s (size class %s): the default used", why, gh_size_class_name(cls));
}
