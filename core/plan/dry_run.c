/* --dry-run; see dry_run.h. */
#include "dry_run.h"

#include <stdio.h>

#include "cli.h"
#include "data.h"
#include "host_memory.h"
#include "split.h"

/* A split: its members, then what each device would hold for every size and
 * dtype (the transposes do not change it). Returns its run count; sets
 * *impossible when a member's memory cannot hold the smallest layout. */
static size_t print_split(const gh_plan *plan, const gh_split_plan *sp, int *impossible)
{
    size_t runs = gh_plan_split_run_count(plan, sp);
    if (sp->problem) {
        printf("  split %s: cannot run: %s\n", sp->name, sp->problem);
        return 0;
    }
    char limit[64];
    if (sp->config->mem_limit) gh_split_format_bytes(sp->config->mem_limit, limit, sizeof limit);
    else snprintf(limit, sizeof limit, "none (90%% of each device's memory)");
    printf("  split %s: %zu runs over %zu member device(s), panel %lld, mem_limit %s\n", sp->name, runs, sp->n_members,
           (long long)sp->config->panel, limit);
    for (size_t m = 0; m < sp->n_members; m++) {
        const gh_split_member *mb = &sp->members[m];
        printf("    member %s/%d (plugin %s): kernel %s%s%s, %s%s\n", mb->backend, mb->device, mb->api->name,
               mb->kernel_info->name, *mb->params_label ? " " : "", mb->params_label,
               gh_split_member_has_streams(mb) ? "streams (transfers overlap)" : "blocking calls",
               gh_split_member_has_host_alloc(mb) ? ", pinned host memory" : "");
    }
    for (size_t i = 0; i < plan->n_cases; i++) {
        const gh_case *c = &plan->cases[i];
        /* another transpose has the same layout; with dtype = auto, a dtype not every member has is not run */
        if (i > 0 && c->size_index == plan->cases[i - 1].size_index && c->dtype_index == plan->cases[i - 1].dtype_index)
            continue;
        if (!(sp->run_dtypes & GH_DTYPE_BIT(c->dtype))) continue;
        printf("    %lldx%lldx%lld %s:\n", (long long)c->shape.m, (long long)c->shape.n, (long long)c->shape.k,
               gh_dtype_name(c->dtype));
        for (size_t m = 0; m < sp->n_members; m++) {
            const gh_member_layout *ml = gh_plan_member_layout(plan, sp, c, m);
            char text[512];
            if (ml->fits) gh_split_layout_describe(&ml->layout, text, sizeof text);
            else *impossible = 1;
            printf("      %s/%d: %s\n", sp->members[m].backend, sp->members[m].device, ml->fits ? text : ml->why);
        }
    }
    return runs;
}

/* "f32, f16": the dtypes of `mask`, in gh_dtype order. */
static const char *dtype_list(uint32_t mask, char *out, size_t size)
{
    size_t used = 0;
    *out = '\0';
    for (int d = 0; d < GH_DTYPE_COUNT && used < size; d++)
        if (mask & GH_DTYPE_BIT(d))
            used += (size_t)snprintf(out + used, size - used, "%s%s", used ? ", " : "", gh_dtype_name((gh_dtype)d));
    return out;
}

int gh_dry_run(const gh_config *cfg, const gh_plan *plan)
{
    size_t total = 0;
    int cannot_run = 0, impossible = 0;
    uint32_t in_cases = 0; /* with dtype = auto: those some kernel runs */
    for (size_t i = 0; i < plan->n_cases; i++) in_cases |= GH_DTYPE_BIT(plan->cases[i].dtype);
    size_t n_dtypes = 0;
    for (int d = 0; d < GH_DTYPE_COUNT; d++) n_dtypes += (in_cases >> d) & 1;
    char names[64], repeat[96];
    if (cfg->run.repeat_auto)
        snprintf(repeat, sizeof repeat, "auto (%d to %d, to a spread of %g)", cfg->run.min_repeat, cfg->run.max_repeat,
                 cfg->run.target_spread);
    else snprintf(repeat, sizeof repeat, "%d", cfg->run.repeat);
    printf("plan: %zu cases (%zu sizes x %zu dtypes%s%s%s x %zu transposes), warmup %d, repeat %s, verify %s%s\n",
           plan->n_cases, cfg->run.n_sizes, cfg->run.dtype_auto ? n_dtypes : cfg->run.n_dtypes,
           cfg->run.dtype_auto ? " (auto: " : "", cfg->run.dtype_auto ? dtype_list(in_cases, names, sizeof names) : "",
           cfg->run.dtype_auto ? ")" : "", cfg->run.n_trans, cfg->run.warmup, repeat,
           gh_verify_method_name(cfg->run.verify), cfg->run.cache_cold ? ", cache cold" : "");
    for (size_t i = 0; i < plan->n_instances; i++) {
        const gh_instance *inst = &plan->instances[i];
        size_t runs = gh_plan_run_count(plan, inst);
        total += runs;
        if (!inst->runs_alone) continue;
        if (inst->problem) {
            printf("  backend %s: cannot run: %s\n", inst->name, inst->problem);
            cannot_run |= inst->requested || inst->plugin_error;
            continue;
        }
        printf("  backend %s (plugin %s): %zu runs on %zu device(s):", inst->name, inst->plugin->name, runs,
               inst->n_devices);
        for (size_t v = 0; v < inst->n_variants; v++) {
            const gh_kernel_variant *kv = &inst->variants[v];
            printf("%s %s%s%s", v ? "," : "", kv->info->name, *kv->label ? " " : "", kv->label);
            if (cfg->run.dtype_auto) printf(" (%s)", dtype_list(kv->run_dtypes, names, sizeof names));
        }
        printf("\n");
    }
    for (size_t i = 0; i < plan->n_splits; i++) {
        total += print_split(plan, &plan->splits[i], &impossible);
        cannot_run |= plan->splits[i].problem != NULL;
    }
    printf("total: %zu runs\n", total);
    char err[1024];
    int memory = gh_check_host_memory(cfg, plan, 1, err, sizeof err);
    if (memory != 0) fprintf(stderr, "gemmhost: %s%s\n", memory > 0 ? "warning: " : "", err);
    if (memory < 0) impossible = 1;
    if (impossible) {
        fprintf(stderr, "gemmhost: the plan cannot run as configured (see above)\n");
        return EXIT_USAGE;
    }
    if (cannot_run || total == 0) {
        fprintf(stderr, "gemmhost: %s\n",
                cannot_run ? "some requested backends or splits cannot run (see above)"
                           : "nothing would run (see above and gemmhost --list)");
        return EXIT_NOT_RUN;
    }
    return EXIT_PASS;
}
