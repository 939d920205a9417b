/* The tuner's searches; see tune.h. */
#include "tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kernel_arith.h"
#include "util.h"

static const gh_backend_config *backend_config(const gh_config *cfg, const gh_instance *inst)
{
    for (size_t i = 0; !cfg->auto_backends && i < cfg->n_backends; i++)
        if (strcmp(cfg->backends[i].name, inst->name) == 0) return &cfg->backends[i];
    return NULL;
}

static int tuned(const gh_config *cfg, const gh_instance *inst, const gh_tune_options *o)
{
    if (!inst->runs_alone) return 0;
    const gh_backend_config *bc = backend_config(cfg, inst);
    return o->every_backend || (bc && bc->tune);
}

int gh_tune_wanted(const gh_config *cfg, const gh_plan *plan, const gh_tune_options *o)
{
    for (size_t i = 0; i < plan->n_instances; i++)
        if (tuned(cfg, &plan->instances[i], o)) return 1;
    return 0;
}

static double budget_of(const gh_config *cfg, const gh_backend_config *bc, const gh_tune_options *o)
{
    if (o->budget_override >= 0) return o->budget_override;
    if (bc && !isnan(bc->tune_budget)) return bc->tune_budget;
    return cfg->run.tune_budget;
}

/* Each kernel of the instance's variants that has parameters, once. */
static size_t tunable_kernels(const gh_instance *inst, int *out)
{
    size_t n = 0;
    for (size_t v = 0; v < inst->n_variants; v++) {
        const gh_kernel_variant *kv = &inst->variants[v];
        int seen = kv->info->n_params == 0;
        for (size_t j = 0; j < n && !seen; j++) seen = out[j] == kv->kernel;
        if (!seen) out[n++] = kv->kernel;
    }
    return n;
}

int gh_tune_run(const gh_config *cfg, gh_plan *plan, gh_tune_cache *cache, gh_tune_report *report,
                const gh_tune_options *o, gh_tune_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    gh_run_config run = cfg->run;
    if (run.verify == GH_VERIFY_NONE) {
        run.verify = GH_VERIFY_AUTO; /* a candidate is never timed unverified */
        gh_tune_report_note(report, "verify = none: the tuner verifies every candidate anyway (verify = auto)");
    }
    int rc = 0;
    for (size_t i = 0; i < plan->n_instances && rc == 0; i++) {
        gh_instance *inst = &plan->instances[i];
        if (!tuned(cfg, inst, o)) continue;
        if (inst->problem) {
            gh_tune_report_note(report, "backend %s could not run: %s", inst->name, inst->problem);
            if (o->messages)
                fprintf(o->messages, "gemmhost: tune: backend %s could not run: %s\n", inst->name, inst->problem);
            if (inst->requested || inst->plugin_error) sum->requested_not_run++;
            continue;
        }
        int *kernels = gh_xcalloc(inst->n_variants + 1, sizeof *kernels);
        size_t n_kernels = tunable_kernels(inst, kernels);
        if (n_kernels == 0) {
            gh_tune_report_note(report, "backend %s: none of its kernels has parameters to tune", inst->name);
            if (o->messages)
                fprintf(o->messages, "gemmhost: tune: backend %s: none of its kernels has parameters to tune\n",
                        inst->name);
        }
        const gh_backend_config *bc = backend_config(cfg, inst);
        for (size_t d = 0; d < inst->n_devices && rc == 0; d++)
            for (size_t k = 0; k < n_kernels && rc == 0; k++) {
                const gh_kernel_info *info = inst->plugin->api->kernel_info(inst->ctx, kernels[k]);
                for (size_t t = 0; t < run.n_dtypes && rc == 0; t++) {
                    /* it declares it has none, or dtype = auto leaves it out */
                    const gh_case_types types = gh_run_case_types(&run, run.dtypes[t]);
                    if (types.explicit_types
                            ? !gh_kernel_offers(info, inst->plugin->abi_minor, &types)
                            : !(info->dtypes & gh_dtypes_to_run(&run, info->dtypes) & GH_DTYPE_BIT(run.dtypes[t])))
                        continue; /* an 8-bit case: its combination must be listed */
                    gh_tune_search s = {
                        &run,  inst,   bc,     inst->devices[d], kernels[k], run.dtypes[t], budget_of(cfg, bc, o),
                        cache, report, o->out, o->messages};
                    rc = gh_tune_search_run(&s, sum);
                }
            }
        free(kernels);
    }
    return rc;
}

int gh_tune_exit_status(const gh_tune_summary *sum)
{
    if (sum->failed || sum->crashed || sum->timeouts) return EXIT_VERIFY_FAILED;
    if (sum->requested_not_run || sum->no_winner || sum->searches == 0) return EXIT_NOT_RUN;
    return EXIT_PASS;
}
