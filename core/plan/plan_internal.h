/* What the files of the plan share (instance.c, plan_split.c, plan_filter.c,
 * plan.c); not for use outside core/plan. */
#ifndef GEMMHOST_PLAN_INTERNAL_H
#define GEMMHOST_PLAN_INTERNAL_H

#include "plan.h"

/* ---- instance.c ---- */
/* Binds a [backend] section (bc NULL: a plugin at its defaults) to its plugin:
 * context, devices and variants. -1 with err for a config error; a plugin
 * that cannot run gives the instance a problem instead. */
int plan_build_instance(gh_instance *inst, const gh_backend_config *bc, gh_plugin_set *plugins, char *err, size_t size);
/* "naive, tiled" (with_params: each with its parameters), for messages; the caller frees it. */
char *plan_list_kernels(gh_plugin *ctx, const gh_plugin_api *api, int with_params);

/* ---- plan_filter.c ---- */
/* Whether device d is in a `devices` list (all, hardware, software, indices, name parts). */
int plan_device_in_list(const char *list, int d, const gh_device_info *info);
/* Whether `name` is an item of the comma list (any case). */
int plan_in_list(const char *list, const char *name);
/* `list` with ", item" added unless it holds it already; frees the old list. */
char *plan_append_unique(char *list, const char *item);
int plan_check_filter_names(const gh_config *cfg, const gh_plan *plan, const gh_plan_filters *f, char *err,
                            size_t size);
void plan_filter_devices(gh_instance *inst, const gh_plan_filters *f);
void plan_filter_kernels(gh_instance *inst, const gh_plan_filters *f);
int plan_split_wanted(const gh_split_plan *sp, const gh_plan_filters *f);
int plan_something_runs(const gh_plan *plan);

/* ---- plan_split.c ---- */
int plan_build_splits(const gh_config *cfg, const gh_plan_filters *f, gh_plan *plan, char *err, size_t size);
void plan_free_split(gh_split_plan *sp);

#endif
