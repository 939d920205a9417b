/* --list; see list.h. Each plugin is opened without options to ask for its
 * devices and kernels, and closed again. */
#define _POSIX_C_SOURCE 200809L
#include "list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "crash.h"
#include "data.h"
#include "encode.h"
#include "kernel_arith.h"
#include "numa.h"
#include "gemmhost_build_info.h"
#include "reported.h"

#ifndef GEMMHOST_VERSION
#define GEMMHOST_VERSION "unknown"
#endif

static const char *yes_no(int v)
{
    return v ? "yes" : "no";
}

/* A plugin opened for listing; ctx NULL with why when it cannot be. */
typedef struct opened {
    gh_plugin *ctx;
    const char *open_error;
    int n_devices;
    char device_error[512]; /* why no device is listed: the plugin's words, or its lie (reported.h) */
} opened;

static void open_plugin(const gh_loaded_plugin *p, opened *o)
{
    memset(o, 0, sizeof *o);
    gh_crash_doing("listing plugin %s (%s)", p->name, p->path);
    if (gh_plugin_open(p, NULL, 0, NULL, &o->ctx) != GH_OK) {
        o->ctx = NULL;
        o->open_error = p->api->last_error(NULL);
        return;
    }
    o->n_devices = gh_reported_devices(p->api, o->ctx, o->device_error, sizeof o->device_error);
    if (o->n_devices < 0) o->n_devices = 0; /* a lie: none of its devices is shown as real */
    else if (o->n_devices == 0) snprintf(o->device_error, sizeof o->device_error, "%s", p->api->last_error(o->ctx));
}

/* ------------------------------------------------------------------------ */
/* Text. */

static void list_device(const gh_plugin_api *api, gh_plugin *ctx, int d)
{
    const gh_device_info *i = api->device_info(ctx, d);
    if (!i) return;
    printf("    device %d: %s\n", d, i->name);
    printf("      vendor %s, driver %s, %s%s%s\n", i->vendor, i->driver_version, i->api,
           *i->platform ? ", platform " : "", i->platform);
    printf("      %s device, %u compute units, %.1f GiB memory, %llu KiB local memory, work-group up to %u, fp64 %s\n",
           i->is_software ? "software" : "hardware", i->compute_units, (double)i->global_mem_bytes / (1 << 30),
           (unsigned long long)(i->local_mem_bytes / 1024), i->max_workgroup_size, yes_no(i->has_fp64));
    const char *pci = gh_device_pci_address(i);
    printf("      PCI address %s\n", *pci ? pci : "unknown");
}

/* (ABI 1.5) The kernel's combinations the host reads: with a plugin of
 * minor >= 5, where the info's size covers them. */
static size_t combos_of(const gh_kernel_info *k, uint32_t abi_minor, const gh_type_combo **combos)
{
    *combos = NULL;
    if (abi_minor < 5 || !GH_HAS_MEMBER(k, gh_kernel_info, n_combos) || !k->combos) return 0;
    *combos = k->combos;
    return k->n_combos;
}

/* "e4m3 x e5m2 -> f32", or "?" for a type this host does not know. */
static void combo_types(const gh_type_combo *cb, char *out, size_t size)
{
    const char *a = (unsigned)cb->a < GH_DTYPE_COUNT ? gh_dtype_name(cb->a) : "?";
    const char *b = (unsigned)cb->b < GH_DTYPE_COUNT ? gh_dtype_name(cb->b) : "?";
    const char *c = (unsigned)cb->c < GH_DTYPE_COUNT ? gh_dtype_name(cb->c) : "?";
    snprintf(out, size, "%s x %s -> %s", a, b, c);
}

static void list_kernel(const gh_kernel_info *k, uint32_t abi_minor)
{
    if (!k) return; /* a worker that died answering (isolation): its words are in the stderr above */
    printf("    kernel %s: %s\n      dtypes:", k->name, k->description);
    for (int d = 0; d < GH_DTYPE_COUNT; d++)
        if (k->dtypes & GH_DTYPE_BIT(d)) printf(" %s", gh_dtype_name((gh_dtype)d));
    printf("\n");
    const gh_type_combo *combos;
    const size_t n_combos = combos_of(k, abi_minor, &combos);
    for (size_t c = 0; c < n_combos; c++) {
        char types[64], arith[96];
        combo_types(&combos[c], types, sizeof types);
        gh_combo_arith_text(&combos[c], arith, sizeof arith);
        printf("      combo %s: %s\n", types, arith);
    }
    for (size_t p = 0; p < k->n_params; p++) {
        const gh_param_info *pi = &k->params[p];
        printf("      param %s = %lld (", pi->name, (long long)pi->default_value);
        if (pi->n_allowed) {
            printf("allowed:");
            for (size_t v = 0; v < pi->n_allowed; v++) printf("%s %lld", v ? "," : "", (long long)pi->allowed[v]);
        } else {
            printf("range %lld..%lld", (long long)pi->min_value, (long long)pi->max_value);
        }
        printf("): %s\n", pi->description);
    }
}

static void list_text(gh_plugin_set *set)
{
    printf("plugin search path:\n");
    for (size_t i = 0; i < set->n_dirs; i++)
        printf("  %s%s\n", set->dirs[i], access(set->dirs[i], R_OK) == 0 ? "" : " (missing)");
    if (set->n == 0) printf("no plugin files (" GH_PLUGIN_PREFIX "*" GH_PLUGIN_SUFFIX ") found\n");
    for (size_t i = 0; i < set->n; i++) {
        gh_loaded_plugin *p = set->items[i];
        printf("\nplugin %s: %s\n", p->name, p->path);
        if (!p->api) {
            printf("  NOT LOADED: %s\n", p->error);
            continue;
        }
        const gh_plugin_api *api = p->api;
        printf("  ABI %u.%u (host %d.%d), version %s: %s\n", p->abi_major, p->abi_minor, GEMMHOST_ABI_MAJOR,
               GEMMHOST_ABI_MINOR, api->version ? api->version : "?", api->description ? api->description : "");
        for (size_t o = 0; o < api->n_options; o++)
            printf("  option %s (default \"%s\"): %s\n", api->options[o].name, api->options[o].default_value,
                   api->options[o].description);
        opened o;
        open_plugin(p, &o);
        if (!o.ctx) {
            printf("  cannot open: %s\n", o.open_error);
            continue;
        }
        if (o.n_devices <= 0) printf("  no usable device: %s\n", o.device_error);
        for (int d = 0; d < o.n_devices; d++) list_device(api, o.ctx, d);
        for (int k = 0; k < api->kernel_count(o.ctx); k++) list_kernel(api->kernel_info(o.ctx, k), p->abi_minor);
        api->close(o.ctx);
    }
}

/* ------------------------------------------------------------------------ */
/* One line each. */

static void list_summary(gh_plugin_set *set)
{
    if (set->n == 0) printf("no plugin files (" GH_PLUGIN_PREFIX "*" GH_PLUGIN_SUFFIX ") found\n");
    for (size_t i = 0; i < set->n; i++) {
        gh_loaded_plugin *p = set->items[i];
        if (!p->api) {
            printf("plugin %s: not loaded: %s\n", p->name, p->error);
            continue;
        }
        const gh_plugin_api *api = p->api;
        opened o;
        open_plugin(p, &o);
        printf("plugin %s %s (ABI %u.%u): ", p->name, api->version ? api->version : "?", p->abi_major, p->abi_minor);
        if (!o.ctx) {
            printf("cannot open: %s\n", o.open_error);
            continue;
        }
        if (o.n_devices <= 0) printf("no usable device: %s", o.device_error);
        else printf("%d device%s", o.n_devices, o.n_devices == 1 ? "" : "s");
        printf(", kernels");
        for (int k = 0; k < api->kernel_count(o.ctx); k++)
            printf("%s %s", k ? "," : "", api->kernel_info(o.ctx, k) ? api->kernel_info(o.ctx, k)->name : "?");
        printf("; %s\n", p->path);
        for (int d = 0; d < o.n_devices; d++) {
            const gh_device_info *di = api->device_info(o.ctx, d);
            char label[512];
            gh_device_label(label, sizeof label, -1, di ? di->name : NULL);
            if (di)
                printf("  device %s/%d: %s, %s, %s, %.1f GiB%s%s%s\n", p->name, d, label, di->api,
                       di->is_software ? "software" : "hardware", (double)di->global_mem_bytes / (1 << 30),
                       di->has_fp64 ? ", fp64" : "", *gh_device_pci_address(di) ? ", PCI " : "",
                       gh_device_pci_address(di));
        }
        api->close(o.ctx);
    }
}

/* ------------------------------------------------------------------------ */
/* JSON. */

static void json_object(gh_sbuf *b, const gh_fieldset *fs)
{
    gh_sb_putc(b, '{');
    gh_render_json_members(b, fs);
    gh_sb_putc(b, '}');
}

static void json_kernel(gh_sbuf *b, const gh_kernel_info *k, uint32_t abi_minor)
{
    if (!k) {
        gh_sb_puts(b, "null");
        return;
    }
    gh_fieldset fs = {.n = 0};
    gh_fs_str(&fs, "name", k->name);
    gh_fs_str(&fs, "description", k->description);
    gh_sb_putc(b, '{');
    gh_render_json_members(b, &fs);
    gh_sb_puts(b, ",\"dtypes\":[");
    int first = 1;
    for (int d = 0; d < GH_DTYPE_COUNT; d++)
        if (k->dtypes & GH_DTYPE_BIT(d)) {
            gh_sb_puts(b, first ? "" : ",");
            gh_json_str(b, gh_dtype_name((gh_dtype)d));
            first = 0;
        }
    gh_sb_puts(b, "],\"params\":[");
    for (size_t p = 0; p < k->n_params; p++) {
        const gh_param_info *pi = &k->params[p];
        fs.n = 0;
        gh_fs_str(&fs, "name", pi->name);
        gh_fs_str(&fs, "description", pi->description);
        gh_fs_int(&fs, "default", pi->default_value);
        gh_fs_int_if(&fs, "min", !pi->n_allowed, pi->min_value);
        gh_fs_int_if(&fs, "max", !pi->n_allowed, pi->max_value);
        gh_sb_puts(b, p ? ",{" : "{");
        gh_render_json_members(b, &fs);
        gh_sb_puts(b, ",\"allowed\":");
        if (!pi->n_allowed) gh_sb_puts(b, "null");
        else {
            gh_sb_putc(b, '[');
            for (size_t v = 0; v < pi->n_allowed; v++)
                gh_sb_printf(b, "%s%lld", v ? "," : "", (long long)pi->allowed[v]);
            gh_sb_putc(b, ']');
        }
        gh_sb_putc(b, '}');
    }
    gh_sb_puts(b, "],\"combos\":[");
    const gh_type_combo *combos;
    const size_t n_combos = combos_of(k, abi_minor, &combos);
    for (size_t c = 0; c < n_combos; c++) {
        const gh_type_combo *cb = &combos[c];
        char arith[96];
        gh_combo_arith_text(cb, arith, sizeof arith);
        fs.n = 0;
        gh_fs_str(&fs, "a", (unsigned)cb->a < GH_DTYPE_COUNT ? gh_dtype_name(cb->a) : "?");
        gh_fs_str(&fs, "b", (unsigned)cb->b < GH_DTYPE_COUNT ? gh_dtype_name(cb->b) : "?");
        gh_fs_str(&fs, "c", (unsigned)cb->c < GH_DTYPE_COUNT ? gh_dtype_name(cb->c) : "?");
        gh_fs_str(&fs, "arithmetic", arith);
        gh_fs_int(&fs, "accumulate_bits", GH_HAS_MEMBER(cb, gh_type_combo, accumulate_bits) ? cb->accumulate_bits : 0);
        gh_fs_int(&fs, "promote_every", GH_HAS_MEMBER(cb, gh_type_combo, promote_every) ? cb->promote_every : 0);
        gh_sb_puts(b, c ? "," : "");
        json_object(b, &fs);
    }
    gh_sb_puts(b, "]}");
}

/* The open plugin's devices and kernels, after its other members. */
static void json_opened(gh_sbuf *b, const gh_plugin_api *api, uint32_t abi_minor, const opened *o)
{
    gh_sb_puts(b, ",\"open_error\":");
    gh_json_str(b, o->ctx ? NULL : o->open_error);
    gh_sb_puts(b, ",\"device_error\":");
    gh_json_str(b, o->ctx && o->n_devices <= 0 ? o->device_error : NULL);
    gh_sb_puts(b, ",\"devices\":[");
    for (int d = 0; o->ctx && d < o->n_devices; d++) {
        gh_fieldset fs = {.n = 0};
        gh_fs_int(&fs, "index", d);
        gh_fields_device_info(&fs, api->device_info(o->ctx, d));
        gh_sb_puts(b, d ? "," : "");
        json_object(b, &fs);
    }
    gh_sb_puts(b, "],\"kernels\":[");
    for (int k = 0; o->ctx && k < api->kernel_count(o->ctx); k++) {
        gh_sb_puts(b, k ? "," : "");
        json_kernel(b, api->kernel_info(o->ctx, k), abi_minor);
    }
    gh_sb_putc(b, ']');
}

static void json_plugin(gh_sbuf *b, const gh_loaded_plugin *p)
{
    const gh_plugin_api *api = p->api;
    gh_fieldset fs = {.n = 0};
    gh_fs_str(&fs, "name", p->name);
    gh_fs_str(&fs, "path", p->path);
    gh_fs_bool(&fs, "loaded", api != NULL);
    gh_fs_str(&fs, "error", p->error);
    gh_fs_str(&fs, "shadowed_by", p->shadowed_by);
    gh_fs_int(&fs, "abi_major", p->abi_major);
    gh_fs_int(&fs, "abi_minor", p->abi_minor);
    gh_fs_str(&fs, "version", api ? api->version : NULL);
    gh_fs_str(&fs, "description", api ? api->description : NULL);
    gh_sb_puts(b, "    {");
    gh_render_json_members(b, &fs);
    gh_sb_puts(b, ",\"options\":[");
    for (size_t o = 0; api && o < api->n_options; o++) {
        fs.n = 0;
        gh_fs_str(&fs, "name", api->options[o].name);
        gh_fs_str(&fs, "default", api->options[o].default_value);
        gh_fs_str(&fs, "description", api->options[o].description);
        gh_sb_puts(b, o ? "," : "");
        json_object(b, &fs);
    }
    gh_sb_putc(b, ']');
    if (api) {
        opened o;
        open_plugin(p, &o);
        json_opened(b, api, p->abi_minor, &o);
        if (o.ctx) api->close(o.ctx);
    } else {
        gh_sb_puts(b, ",\"open_error\":null,\"device_error\":null,\"devices\":[],\"kernels\":[]");
    }
    gh_sb_putc(b, '}');
}

static int list_json(gh_plugin_set *set)
{
    gh_sbuf b = {0};
    gh_sb_puts(&b, "{\n  \"gemmhost\": {\"version\": ");
    gh_json_str(&b, GEMMHOST_VERSION);
    gh_sb_puts(&b, ", \"git_commit\": ");
    gh_json_str(&b, GEMMHOST_GIT_COMMIT);
    gh_sb_puts(&b, ", \"build_type\": ");
    gh_json_str(&b, GEMMHOST_BUILD_TYPE);
    gh_sb_printf(&b, ", \"abi_major\": %d, \"abi_minor\": %d},\n  \"search_path\": [", GEMMHOST_ABI_MAJOR,
                 GEMMHOST_ABI_MINOR);
    for (size_t i = 0; i < set->n_dirs; i++) {
        gh_sb_puts(&b, i ? ", {\"path\": " : "{\"path\": ");
        gh_json_str(&b, set->dirs[i]);
        gh_sb_printf(&b, ", \"exists\": %s}", access(set->dirs[i], R_OK) == 0 ? "true" : "false");
    }
    gh_sb_puts(&b, "],\n  \"plugins\": [");
    for (size_t i = 0; i < set->n; i++) {
        gh_sb_puts(&b, i ? ",\n" : "\n");
        json_plugin(&b, set->items[i]);
    }
    gh_sb_puts(&b, set->n ? "\n  ]\n}\n" : "]\n}\n");
    char *text = gh_sb_take(&b);
    if (!text) {
        fprintf(stderr, "gemmhost: --list --json: out of memory\n");
        return EXIT_NOT_RUN;
    }
    fputs(text, stdout);
    free(text);
    return EXIT_PASS;
}

int gh_list_plugins(gh_plugin_set *set, gh_list_mode mode)
{
    switch (mode) {
    case GH_LIST_JSON: return list_json(set);
    case GH_LIST_SUMMARY: list_summary(set); break;
    case GH_LIST_TEXT: list_text(set); break;
    }
    return EXIT_PASS;
}
