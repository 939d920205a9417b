/* The probe over a plan: every selected kernel variant, device and dtype
 * gets the analyses in order, then the table and the JSON. See probe.h. */
#include "probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "data.h"
#include "probe_subject.h"
#include "replace_file.h"
#include "util.h"

#define REPEATS 4 /* runs of the order case that must agree bit for bit */

size_t probe_mismatches(const probe_subject *s)
{
    size_t n = 0;
    for (size_t i = 0; i < s->findings.n; i++) n += s->findings.items[i].mismatch != 0;
    return n;
}

static probe_subject *subject_add(probe_subjects *all, const gh_instance *inst, int device, const gh_kernel_variant *v,
                                  gh_dtype d)
{
    if (all->n == all->cap) {
        all->cap = all->cap ? 2 * all->cap : 16;
        all->items = gh_xrealloc(all->items, all->cap * sizeof *all->items);
    }
    probe_subject *s = &all->items[all->n++];
    memset(s, 0, sizeof *s);
    const gh_device_info *info = inst->plugin->api->device_info(inst->ctx, device);
    snprintf(s->backend, sizeof s->backend, "%s", inst->name);
    snprintf(s->plugin, sizeof s->plugin, "%s", inst->plugin->name);
    s->device_index = device;
    snprintf(s->device, sizeof s->device, "%d:%s", device, info && info->name ? info->name : "?");
    snprintf(s->driver, sizeof s->driver, "%s", info && info->driver_version ? info->driver_version : "");
    snprintf(s->api, sizeof s->api, "%s", info && info->api ? info->api : "");
    snprintf(s->kernel, sizeof s->kernel, "%s", v->info->name);
    snprintf(s->params, sizeof s->params, "%s", v->label);
    s->dtype = d;
    snprintf(s->dtype_name, sizeof s->dtype_name, "%s", gh_dtype_name(d));
    return s;
}

/* Every analysis on one kernel, device and dtype. */
static void probe_subject_run(probe_subject *s, const gh_instance *inst, int device, const gh_kernel_variant *v,
                              const probe_format *fmt)
{
    probe_target t = {inst->plugin->api, inst->ctx, device, v->kernel, v->params, v->info->n_params};
    probe_ctx x = {.target = &t, .fmt = fmt, .out = &s->findings, .acc_bits = -1, .input_bits = -1, .repeats = REPEATS};
    probe_declared_of(v->info, inst->plugin->abi_minor, fmt, &x.decl);
    s->decl = x.decl;
    s->has_decl = 1;
    void (*const analyses[])(probe_ctx *) = {probe_accumulator, probe_inputs, probe_products, probe_subnormals,
                                             probe_specials,    probe_order,  probe_integer};
    for (size_t i = 0; i < sizeof analyses / sizeof analyses[0]; i++) {
        analyses[i](&x);
        /* a kernel that refuses the first case refuses them all: one line says so */
        if (s->findings.n == 1 && s->findings.items[0].outcome == PROBE_UNSUPPORTED) {
            snprintf(s->note, sizeof s->note, "%s", s->findings.items[0].text);
            probe_findings_free(&s->findings);
            return;
        }
    }
}

/* The dtypes probed on a kernel: the run's list (a listed one it lacks says
 * so); with dtype = auto every one it has (a run's auto takes only the wide
 * ones: the probe is as much about f16 and bf16). */
static void probe_variant(const gh_config *cfg, probe_subjects *all, const gh_instance *inst, int device,
                          const gh_kernel_variant *v)
{
    const gh_device_info *info = inst->plugin->api->device_info(inst->ctx, device);
    for (int d = 0; d < GH_DTYPE_COUNT; d++) {
        int listed = 0;
        for (size_t i = 0; i < cfg->run.n_dtypes; i++) listed |= cfg->run.dtypes[i] == (gh_dtype)d;
        const int has = (v->info->dtypes & GH_DTYPE_BIT(d)) != 0;
        if (cfg->run.dtype_auto ? !has : !listed) continue;
        probe_subject *s = subject_add(all, inst, device, v, (gh_dtype)d);
        const probe_format *fmt = probe_format_of((gh_dtype)d);
        if (!has) snprintf(s->note, sizeof s->note, "the kernel has no %s", gh_dtype_name((gh_dtype)d));
        else if (!fmt || d == GH_E4M3 || d == GH_E5M2 || d == GH_I8) /* 8-bit formats: combinations only */
            snprintf(s->note, sizeof s->note, "the probe has no cases for %s yet", gh_dtype_name((gh_dtype)d));
        else if (d == GH_F64 && info && !info->has_fp64) snprintf(s->note, sizeof s->note, "the device has no fp64");
        else probe_subject_run(s, inst, device, v, fmt);
    }
}

static int is_fp8(gh_dtype d)
{
    return d == GH_E4M3 || d == GH_E5M2;
}

/* What the probe has cases for: FP8 A and B (one of each too) into a wider
 * float C, and i8 into i32. */
static int combo_probed(const gh_type_combo *c)
{
    if (c->a == GH_I8) return c->b == GH_I8 && c->c == GH_I32;
    return is_fp8(c->a) && is_fp8(c->b) && (c->c == GH_F32 || c->c == GH_F16 || c->c == GH_BF16);
}

/* The analyses of one combination. The accumulator cases draw their powers
 * of two from the narrower range (e4m3's, which e5m2 holds too). */
static void combo_run(probe_ctx *x, const gh_type_combo *c)
{
    if (c->a == GH_I8) return probe_integer_i8(x);
    const probe_format *a = probe_format_of(c->a), *b = probe_format_of(c->b);
    probe_accumulator_8bit(x, a->emax <= b->emax ? a : b, c->a, c->b);
    if (x->out->n == 1 && x->out->items[0].outcome == PROBE_UNSUPPORTED) return;
    probe_fp8(x, a, b);
}

/* A kernel's type combinations beyond its mask (ABI 1.5): the FP8 ones get
 * the accumulator cases (probe_combo.c), the others say they have none. */
static void probe_combos(const gh_config *cfg, probe_subjects *all, const gh_instance *inst, int device,
                         const gh_kernel_variant *v)
{
    const gh_kernel_info *ki = v->info;
    if (inst->plugin->abi_minor < 5 || !GH_HAS_MEMBER(ki, gh_kernel_info, n_combos) || !ki->combos) return;
    for (size_t i = 0; i < ki->n_combos; i++) {
        const gh_type_combo *c = &ki->combos[i];
        if (!GH_HAS_MEMBER(c, gh_type_combo, promote_every) || (c->a == c->b && c->b == c->c)) continue;
        if (c->a >= GH_DTYPE_COUNT || c->b >= GH_DTYPE_COUNT || c->c >= GH_DTYPE_COUNT) continue;
        int listed = cfg->run.dtype_auto;
        for (size_t d = 0; d < cfg->run.n_dtypes; d++) listed |= cfg->run.dtypes[d] == c->a;
        if (!listed) continue;
        probe_subject *s = subject_add(all, inst, device, v, c->a);
        snprintf(s->dtype_name, sizeof s->dtype_name, "%s*%s->%s", gh_dtype_name(c->a), gh_dtype_name(c->b),
                 gh_dtype_name(c->c));
        if (!combo_probed(c)) {
            snprintf(s->note, sizeof s->note, "the probe has no cases for %s yet", s->dtype_name);
            continue;
        }
        probe_target t = {inst->plugin->api, inst->ctx, device, v->kernel, v->params, v->info->n_params};
        probe_ctx x = {.target = &t,
                       .fmt = probe_format_of(c->c),
                       .out = &s->findings,
                       .acc_bits = -1,
                       .input_bits = -1,
                       .repeats = REPEATS};
        probe_declared_combo(c, x.fmt, &x.decl);
        s->decl = x.decl;
        s->has_decl = 1;
        combo_run(&x, c);
        if (s->findings.n == 1 && s->findings.items[0].outcome == PROBE_UNSUPPORTED) {
            snprintf(s->note, sizeof s->note, "%s", s->findings.items[0].text);
            probe_findings_free(&s->findings);
        }
    }
}

/* PREFIX.json, or PREFIX/gemmhost-probe.json for a folder (as a run's
 * --output). */
static char *json_path_of(const char *prefix)
{
    const size_t n = strlen(prefix);
    return n && prefix[n - 1] == '/' ? gh_strdupf("%sgemmhost-probe.json", prefix) : gh_strdupf("%s.json", prefix);
}

/* A file there that is not an earlier probe (a run's results, anything
 * else) is not replaced: refused before anything runs. */
static int json_path_free(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return 1;
    char head[256] = "";
    size_t got = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[got] = '\0';
    return strstr(head, "\"gemmhost_probe\"") != NULL;
}

static int write_json(const probe_subjects *all, const char *path)
{
    char *text = probe_json_text(all), err[1024];
    int rc = gh_make_parent_folders(path, err, sizeof err) == 0
                 ? gh_replace_file(path, text, strlen(text), err, sizeof err)
                 : -1;
    if (rc != 0) fprintf(stderr, "gemmhost probe: %s\n", err);
    free(text);
    return rc;
}

int gh_probe(const gh_config *cfg, const gh_plan *plan, const gh_probe_options *o)
{
    char *json_path = o->json_path ? json_path_of(o->json_path) : NULL;
    if (json_path && !json_path_free(json_path)) {
        fprintf(stderr,
                "gemmhost probe: %s holds something other than a probe's JSON: not replaced (give another --output)\n",
                json_path);
        free(json_path);
        return EXIT_USAGE;
    }
    probe_subjects all = {0};
    for (size_t i = 0; i < plan->n_instances; i++) {
        const gh_instance *inst = &plan->instances[i];
        if (inst->problem) {
            if (inst->runs_alone) fprintf(stderr, "gemmhost probe: backend %s: %s\n", inst->name, inst->problem);
            continue;
        }
        if (!inst->runs_alone) continue;
        for (size_t d = 0; d < inst->n_devices; d++)
            for (size_t v = 0; v < inst->n_variants; v++) {
                probe_variant(cfg, &all, inst, inst->devices[d], &inst->variants[v]);
                probe_combos(cfg, &all, inst, inst->devices[d], &inst->variants[v]);
            }
    }
    size_t mismatches = 0, probed = 0;
    for (size_t i = 0; i < all.n; i++) {
        mismatches += probe_mismatches(&all.items[i]);
        probed += all.items[i].findings.n > 0;
    }
    if (o->json_stdout) {
        char *text = probe_json_text(&all);
        fputs(text, stdout);
        fputc('\n', stdout);
        free(text);
    } else if (!o->quiet) {
        probe_table_print(&all, stdout);
    }
    int status = mismatches ? EXIT_VERIFY_FAILED : probed ? EXIT_PASS : EXIT_NOT_RUN;
    if (json_path && write_json(&all, json_path) != 0 && status == EXIT_PASS) status = EXIT_NOT_RUN;
    if (!o->json_stdout)
        printf(
            "%sgemmhost probe: %zu kernel and dtype pairs probed, %zu findings differ from what the kernels declare\n",
            o->quiet ? "" : "\n", probed, mismatches);
    if (!probed) fprintf(stderr, "gemmhost probe: nothing was probed (see the notes above and gemmhost --list)\n");
    if (json_path && !o->quiet && !o->json_stdout) printf("probe: %s\n", json_path);
    for (size_t i = 0; i < all.n; i++) probe_findings_free(&all.items[i].findings);
    free(all.items);
    free(json_path);
    return status;
}
