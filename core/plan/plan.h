/* The run plan: each backend section bound to a loaded plugin, an open
 * context, the devices it selected and every kernel/parameter combination it
 * sweeps. Keys that only the plugin can judge are checked here. */
#ifndef GEMMHOST_PLAN_H
#define GEMMHOST_PLAN_H

#include <stddef.h>
#include "config.h"
#include "isolation.h"
#include "loader.h"
#include "split.h"

typedef struct gh_kernel_variant {
    int kernel; /* index in the plugin */
    const gh_kernel_info *info;
    int64_t *params;      /* info->n_params values (an `auto` one: its default until resolved) */
    char label[128];      /* "tile=16", "tile=auto", "" without params */
    uint64_t auto_params; /* bit p: parameter p is `auto`, the tune cache's best per case (tune_auto.h) */
    int named;            /* 1: named in its section's `kernels` or in --kernel: running no case is exit 3 */
    uint32_t run_dtypes;  /* GH_DTYPE_BIT mask of the cases it runs (gh_dtypes_to_run) */
} gh_kernel_variant;

typedef struct gh_instance {
    char *name;               /* the backend section, or the plugin's name in auto mode */
    int requested;            /* 1: named in a [backend] section (or --backend); its errors count for exit 3 */
    gh_loaded_plugin *plugin; /* NULL when the plugin was not found */
    gh_plugin *ctx;           /* open context, NULL when it could not be opened */
    int *devices;             /* selected device indices */
    size_t n_devices;
    gh_kernel_variant *variants;
    size_t n_variants;
    char *problem;            /* why this instance cannot run at all; NULL when it can */
    int runs_alone;           /* 0: filtered out on the command line, kept only as a split's member */
    gh_option_value *options; /* what ctx was opened with (the config's strings): for split members */
    size_t n_options;
    double timeout;   /* its own [backend] timeout, NaN for [run]'s */
    gh_streak streak; /* crashed and timed-out results in a row (isolation) */
    int plugin_error; /* the problem is the plugin's lie (reported.h): counts for exit 3 even when not requested */
} gh_instance;

/* A [split NAME]: one device of a backend instance per member, each with
 * the kernel it runs. Every [backend] section also runs on its own; the
 * split is one more result per case. */
/* What one member device holds for one size and dtype (the transposes do not
 * change it): the layout, or why not even the smallest fits. */
typedef struct gh_member_layout {
    int fits;
    gh_split_layout layout;
    char why[512]; /* when it does not fit */
} gh_member_layout;

typedef struct gh_split_plan {
    char *name;                    /* the section name, reported as the backend */
    const gh_split_config *config; /* panel and mem_limit */
    gh_split_member *members;      /* strings and params owned here (or by the instances) */
    size_t n_members;
    char *device_name;         /* "split: cpu/0 + opencl/0" */
    char *kernel;              /* the members' kernel, "naive+tiled" when they differ */
    char *params;              /* the members' params when they agree, else "" */
    int alike;                 /* same plugin, device model, kernel and params: outputs must repeat bit for bit */
    char *problem;             /* why it cannot run at all; NULL when it can */
    gh_member_layout *layouts; /* [(size * n_dtypes + dtype) * n_members + member] */
    gh_streak streak;          /* crashed and timed-out results in a row (isolation) */
    uint32_t run_dtypes;       /* GH_DTYPE_BIT mask of the cases it runs: the dtypes every member has */
} gh_split_plan;

/* One case: a size, a dtype and a transpose, numbered in the order they run
 * (the same index = the same inputs in every result). */
typedef struct gh_case {
    int index;
    gh_shape shape;
    gh_dtype dtype;
    gh_trans trans;
    size_t size_index, dtype_index; /* into [run] sizes and dtypes */
    gh_case_types types;            /* A's (dtype), B's and C's types and the scales (gh_run_case_types) */
} gh_case;

typedef struct gh_plan {
    gh_instance *instances;
    size_t n_instances;
    gh_split_plan *splits;
    size_t n_splits;
    gh_case *cases; /* sizes x dtypes x trans, in run order */
    size_t n_cases;
    size_t n_dtypes;                        /* for indexing a split's layouts */
    const struct gh_tune_cache *tune_cache; /* where `auto` parameters come from; NULL: none (the caller's) */
} gh_plan;

/* What the command line keeps (--backend, --kernel, --device): comma lists,
 * NULL for no filter. Backends are [backend] or [split] section names (plugin
 * names without sections); devices are indices, all, hardware, software or
 * parts of a device's name, as in a section's `devices`. */
typedef struct gh_plan_filters {
    const char *backends, *kernels, *devices;
} gh_plan_filters;

/* Returns 0, or -1 for a config error (a key, kernel or value the plugin does
 * not accept), with err naming file, line and key, or a filter that matches
 * nothing, with err naming the option and what there is. Plugins that are missing,
 * fail to open or have no matching device are not errors here: their
 * instance gets a problem and the run reports it. */
int gh_plan_build(const gh_config *cfg, gh_plugin_set *plugins, const gh_plan_filters *filters, gh_plan *plan,
                  char *err, size_t err_size);
void gh_plan_free(gh_plan *plan);
/* The dtypes a kernel with mask `has` runs: with dtype = auto, its f32, f64
 * and i32, or its own (f16, bf16) when it has none of them; otherwise every
 * listed dtype (one it lacks is an unsupported result). */
uint32_t gh_dtypes_to_run(const gh_run_config *run, uint32_t has);
/* Runs that the plan will make (cases x devices x variants), for --dry-run. */
size_t gh_plan_run_count(const gh_plan *plan, const gh_instance *inst);
size_t gh_plan_split_run_count(const gh_plan *plan, const gh_split_plan *sp);
/* What member `member` of a split holds for a case's size and dtype. */
const gh_member_layout *gh_plan_member_layout(const gh_plan *plan, const gh_split_plan *sp, const gh_case *c,
                                              size_t member);

#endif
