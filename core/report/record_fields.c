/* What goes into each record: the fields of a result, a device, a plugin,
 * an agreement and a split, in CSV column order, and the labels they use
 * (a device's short label, the transpose name); see encode.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encode.h"

void gh_device_label(char *out, size_t size, int index, const char *name)
{
    static const char *const noise[] = {"(R)", "(r)", "(TM)", "(tm)"};
    gh_sbuf b = {0};
    if (!name || !*name) name = "?";
    if (index >= 0) gh_sb_printf(&b, "%d:", index);
    size_t start = b.len;
    for (const char *p = name; *p;) {
        if (strncmp(p, " @ ", 3) == 0) break; /* clock speed suffix */
        size_t skip = 0;
        for (size_t i = 0; i < sizeof noise / sizeof noise[0] && !skip; i++)
            if (strncmp(p, noise[i], strlen(noise[i])) == 0) skip = strlen(noise[i]);
        if (skip) {
            p += skip;
            continue;
        }
        if (*p == ' ' && (b.len == start || b.s[b.len - 1] == ' ')) {
            p++;
            continue;
        }
        gh_sb_putc(&b, *p++);
    }
    while (b.len > start && b.s[b.len - 1] == ' ') b.len--;
    char *s = gh_sb_take(&b);
    snprintf(out, size, "%s", s ? s : name);
    free(s);
}

void gh_trans_name(char out[3], int trans_a, int trans_b)
{
    out[0] = trans_a ? 't' : 'n';
    out[1] = trans_b ? 't' : 'n';
    out[2] = '\0';
}

/* Device info comes from a plugin, maybe built against an older minor: only
 * read members its size covers. */
#define DEV_HAS(info, member) ((info) && GH_HAS_MEMBER(info, gh_device_info, member))

#define DEV_STR(info, member) (DEV_HAS(info, member) ? (info)->member : NULL)
#define DEV_INT(fs, info, member) \
    gh_fs_int_if(fs, #member, DEV_HAS(info, member), DEV_HAS(info, member) ? (int64_t)(info)->member : 0)
#define DEV_BOOL(fs, info, member) \
    (DEV_HAS(info, member) ? gh_fs_bool(fs, #member, (info)->member) : gh_fs_null(fs, #member))

static void device_fields(gh_fieldset *fs, const gh_device_info *dev)
{
    gh_fs_str(fs, "device_vendor", DEV_STR(dev, vendor));
    gh_fs_str(fs, "device_driver_version", DEV_STR(dev, driver_version));
    gh_fs_str(fs, "device_api", DEV_STR(dev, api));
    if (DEV_HAS(dev, is_software)) gh_fs_bool(fs, "device_is_software", dev->is_software);
    else gh_fs_null(fs, "device_is_software");
}

static void verify_fields(gh_fieldset *fs, const gh_result *res)
{
    const gh_verify_result *v = &res->verify;
    int checked = v->checked != 0;
    int failed_at = checked && v->fail_i >= 0;
    /* An output exists only when the kernel ran to the end. */
    int ran = gh_result_status_ran(res->status);

    gh_fs_str(fs, "verify_method", res->verify_method);
    gh_fs_bool(fs, "verify_checked", checked);
    if (checked) gh_fs_bool(fs, "verify_passed", v->passed);
    else gh_fs_null(fs, "verify_passed");
    gh_fs_num_if(fs, "max_abs_err", checked, v->max_abs_err, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "max_err_over_bound", checked, v->max_err_over_bound, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "rel_fro_err", checked, v->rel_fro_err, GH_NUM_DIGITS);
    gh_fs_int_if(fs, "fail_i", failed_at, v->fail_i);
    gh_fs_int_if(fs, "fail_j", failed_at, v->fail_j);
    gh_fs_num_if(fs, "fail_got", failed_at, v->fail_got, GH_EXACT_DIGITS);
    gh_fs_num_if(fs, "fail_expected", failed_at, v->fail_expected, GH_EXACT_DIGITS);
    gh_fs_int_if(fs, "guard_overwrites", ran, v->guard_overwrites);
    if (ran) gh_fs_bool(fs, "deterministic", res->deterministic);
    else gh_fs_null(fs, "deterministic");
    if (ran) gh_fs_str(fs, "output_hash", fs->hash);
    else gh_fs_null(fs, "output_hash");
}

static void timing_fields(gh_fieldset *fs, const gh_result *res)
{
    int timed = res->repeats > 0;
    gh_fs_int(fs, "repeats", res->repeats);
    gh_fs_num_if(fs, "kernel_ms_median", timed, res->kernel_ms_median, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "kernel_ms_min", timed, res->kernel_ms_min, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "kernel_ms_max", timed, res->kernel_ms_max, GH_NUM_DIGITS);
    if (timed) gh_fs_str(fs, "clock", res->clock == GH_CLOCK_DEVICE ? "device" : "host");
    else gh_fs_null(fs, "clock");
    gh_fs_num_if(fs, "upload_ms", timed, res->upload_ms, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "download_ms", timed, res->download_ms, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "gflops", timed, res->gflops, GH_NUM_DIGITS);
}

/* The GPU's state while timed (core/device_state): "" state means the
 * result never reached its timed repetitions, and every field is null. */
static void gpu_fields(gh_fieldset *fs, const gh_result *res)
{
    const gh_gpu_state *g = &res->gpu;
    int known = g->state[0] != '\0';
    int sampled = known && g->samples > 0;
    int clocks = sampled && g->sm_clock_mhz_median > 0;
    if (known) gh_fs_str(fs, "gpu_state", g->state);
    else gh_fs_null(fs, "gpu_state");
    gh_fs_int_if(fs, "gpu_samples", known, g->samples);
    gh_fs_num_if(fs, "sm_clock_mhz_min", clocks, g->sm_clock_mhz_min, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "sm_clock_mhz_median", clocks, g->sm_clock_mhz_median, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "sm_clock_mhz_max", known && g->sm_clock_mhz_max > 0, g->sm_clock_mhz_max, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "mem_clock_mhz_min", clocks, g->mem_clock_mhz_min, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "mem_clock_mhz_median", clocks, g->mem_clock_mhz_median, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "temperature_c_max", sampled && g->temperature_c_max >= 0, g->temperature_c_max, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "power_w_median", sampled && g->power_w_median >= 0, g->power_w_median, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "energy_j", sampled && g->energy_j >= 0, g->energy_j, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "gflop_per_j", sampled && g->gflop_per_j >= 0, g->gflop_per_j, GH_NUM_DIGITS);
    gh_fs_str(fs, "energy_note", sampled ? g->energy_why : "");
    if (sampled) gh_fs_str(fs, "clock_events", g->clock_events_text);
    else gh_fs_null(fs, "clock_events");
    if (sampled) gh_fs_bool(fs, "throttled", g->throttled);
    else gh_fs_null(fs, "throttled");
    gh_fs_str(fs, "throttle_reason", g->throttle_reason);
    gh_fs_num_if(fs, "peak_gflops", g->peak_gflops > 0, g->peak_gflops, GH_NUM_DIGITS);
    gh_fs_str(fs, "peak_unit", g->peak_unit);
    gh_fs_num_if(fs, "peak_percent", g->peak_gflops > 0 && g->peak_percent >= 0, g->peak_percent, GH_NUM_DIGITS);
    gh_fs_str(fs, "peak_note", g->peak_gflops > 0 ? "dense, at the max SM clock" : g->peak_why);
}

/* How the times were taken: cache state, repetition policy, batching. */
static void measure_fields(gh_fieldset *fs, const gh_result *res)
{
    int timed = res->repeats > 0;
    gh_fs_str(fs, "cache", res->cache_cold ? "cold" : "warm");
    gh_fs_int_if(fs, "flush_bytes", res->cache_cold, (int64_t)res->flush_bytes);
    gh_fs_str(fs, "repeat_mode", res->repeat_auto ? "auto" : "fixed");
    gh_fs_num_if(fs, "spread", timed, res->spread, GH_NUM_DIGITS);
    gh_fs_num_if(fs, "target_spread", res->repeat_auto, res->target_spread, GH_NUM_DIGITS);
    if (timed && res->repeat_auto) gh_fs_bool(fs, "spread_reached", res->spread_reached);
    else gh_fs_null(fs, "spread_reached");
    gh_fs_int_if(fs, "batch", timed, res->batch > 1 ? res->batch : 1);
    gh_fs_str(fs, "batch_note", res->batch_note);
}

/* Every member of gh_result, in CSV column order. */
void gh_fields_result(gh_fieldset *fs, const gh_result *res)
{
    fs->n = 0;
    snprintf(fs->hash, sizeof fs->hash, "%016" PRIx64, res->output_hash);
    gh_trans_name(fs->trans, res->trans_a, res->trans_b);

    gh_fs_int(fs, "case_index", res->case_index);
    gh_fs_str(fs, "backend", res->backend);
    gh_fs_str(fs, "plugin", res->plugin);
    gh_fs_str(fs, "plugin_path", res->plugin_path);
    gh_fs_int(fs, "device_index", res->device_index);
    gh_fs_str(fs, "device_name", res->device_name);
    device_fields(fs, res->device);
    gh_fs_str(fs, "kernel", res->kernel);
    gh_fs_str(fs, "params", res->params);
    gh_fs_str(fs, "params_used", res->params_used);
    gh_fs_str(fs, "params_note", res->params_note);
    gh_fs_str(fs, "dtype", gh_dtype_name(res->dtype));
    /* B's and C's types: the dtype's but for the 8-bit ones (ABI 1.5) */
    const gh_case_types *t = &res->types;
    gh_fs_str(fs, "b_dtype", gh_dtype_name(t->explicit_types ? t->b : res->dtype));
    gh_fs_str(fs, "c_dtype", gh_dtype_name(t->explicit_types ? t->c : res->dtype));
    gh_fs_str(fs, "arithmetic", res->arithmetic);
    gh_fs_str(fs, "trans", fs->trans);
    gh_fs_int(fs, "m", res->m);
    gh_fs_int(fs, "n", res->n);
    gh_fs_int(fs, "k", res->k);
    gh_fs_num_digits(fs, "alpha", res->alpha, GH_EXACT_DIGITS);
    gh_fs_num_digits(fs, "beta", res->beta, GH_EXACT_DIGITS);
    gh_fs_num_digits(fs, "scale_a", t->explicit_types ? t->scale_a : 1.0, GH_EXACT_DIGITS);
    gh_fs_num_digits(fs, "scale_b", t->explicit_types ? t->scale_b : 1.0, GH_EXACT_DIGITS);
    gh_fs_num_digits(fs, "scale_c", t->explicit_types ? t->scale_c : 1.0, GH_EXACT_DIGITS);
    gh_fs_str(fs, "status", gh_result_status_name(res->status));
    verify_fields(fs, res);
    timing_fields(fs, res);
    measure_fields(fs, res);
    gh_fs_str(fs, "detail", res->detail);
    gh_fs_str(fs, "verify_message", res->verify.message);
    gpu_fields(fs, res);
}

void gh_fields_device(gh_fieldset *fs, const char *backend, int index, const gh_device_info *d)
{
    fs->n = 0;
    gh_fs_str(fs, "backend", backend);
    gh_fs_int(fs, "device_index", index);
    gh_fields_device_info(fs, d);
}

void gh_fields_device_info(gh_fieldset *fs, const gh_device_info *d)
{
    gh_fs_str(fs, "name", DEV_STR(d, name));
    gh_fs_str(fs, "vendor", DEV_STR(d, vendor));
    gh_fs_str(fs, "driver_version", DEV_STR(d, driver_version));
    gh_fs_str(fs, "api", DEV_STR(d, api));
    gh_fs_str(fs, "platform", DEV_STR(d, platform));
    DEV_INT(fs, d, global_mem_bytes);
    DEV_INT(fs, d, local_mem_bytes);
    DEV_INT(fs, d, compute_units);
    DEV_INT(fs, d, max_workgroup_size);
    DEV_BOOL(fs, d, is_software);
    DEV_BOOL(fs, d, has_fp64);
    const char *pci = DEV_STR(d, pci_address);
    gh_fs_str(fs, "pci_address", pci ? pci : "");
}

void gh_fields_plugin(gh_fieldset *fs, const gh_report_plugin *p)
{
    fs->n = 0;
    gh_fs_str(fs, "name", p->name);
    gh_fs_str(fs, "path", p->path);
    gh_fs_str(fs, "version", p->version);
    gh_fs_int(fs, "abi_major", p->abi_major);
    gh_fs_int(fs, "abi_minor", p->abi_minor);
    gh_fs_bool(fs, "loaded", p->error == NULL);
    gh_fs_str(fs, "error", p->error);
}

/* The agreement without its groups, which are nested and rendered apart. */
static void agreement_fields(gh_fieldset *fs, const gh_agreement *a)
{
    fs->n = 0;
    gh_trans_name(fs->trans, a->trans_a, a->trans_b);
    gh_fs_int(fs, "case_index", a->case_index);
    gh_fs_str(fs, "dtype", gh_dtype_name(a->dtype));
    gh_fs_str(fs, "trans", fs->trans);
    gh_fs_int(fs, "m", a->m);
    gh_fs_int(fs, "n", a->n);
    gh_fs_int(fs, "k", a->k);
    gh_fs_num(fs, "max_diff_in_bounds", a->max_diff_in_bounds);
}

static void split_member_fields(gh_fieldset *fs, const gh_report_split_member *m)
{
    fs->n = 0;
    gh_fs_str(fs, "backend", m->backend);
    gh_fs_str(fs, "plugin", m->plugin);
    gh_fs_int(fs, "device_index", m->device_index);
    gh_fs_str(fs, "device_name", m->device_name);
    gh_fs_str(fs, "kernel", m->kernel);
    gh_fs_str(fs, "params", m->params);
    gh_fs_bool(fs, "streams", m->streams);
    gh_fs_str(fs, "layout", m->layout);
    gh_fs_int(fs, "device_bytes", (int64_t)m->device_bytes);
    gh_fs_int(fs, "chunks", m->chunks);
    gh_fs_int(fs, "gemms", m->gemms);
    gh_fs_num(fs, "compute_ms", m->compute_ms);
    gh_fs_num(fs, "upload_ms", m->upload_ms);
    gh_fs_num(fs, "download_ms", m->download_ms);
    gh_fs_num(fs, "wait_ms", m->wait_ms);
    gh_fs_int(fs, "bytes_up", (int64_t)m->bytes_up);
    gh_fs_int(fs, "bytes_down", (int64_t)m->bytes_down);
    gh_fs_num(fs, "upload_gbps", m->upload_gbps);
    if (m->numa_node >= 0) gh_fs_int(fs, "numa_node", m->numa_node);
    else gh_fs_null(fs, "numa_node");
    gh_fs_str(fs, "numa", m->numa ? m->numa : "");
    gh_fs_str(fs, "b_path", m->b_path ? m->b_path : "");
    gh_fs_num(fs, "download_gbps", m->download_gbps);
    gh_fs_str(fs, "host_memory", m->host_memory ? m->host_memory : "");
    if (m->error && m->error[0]) gh_fs_str(fs, "error", m->error);
    else gh_fs_null(fs, "error");
}

char *gh_render_split_json(const gh_result *res, double wall_ms, const gh_report_split_member *members, size_t n)
{
    gh_fieldset fs;
    fs.n = 0;
    gh_fs_int(&fs, "case_index", res->case_index);
    gh_fs_str(&fs, "backend", res->backend);
    gh_fs_str(&fs, "status", gh_result_status_name(res->status));
    gh_fs_num(&fs, "wall_ms", wall_ms);
    gh_sbuf b = {0};
    gh_sb_putc(&b, '{');
    gh_render_json_members(&b, &fs);
    gh_sb_puts(&b, ",\"members\":[");
    for (size_t i = 0; i < n; i++) {
        split_member_fields(&fs, &members[i]);
        if (i) gh_sb_putc(&b, ',');
        gh_sb_putc(&b, '{');
        gh_render_json_members(&b, &fs);
        gh_sb_putc(&b, '}');
    }
    gh_sb_puts(&b, "]}");
    return gh_sb_take(&b);
}

char *gh_render_agreement_json(const gh_agreement *a)
{
    gh_fieldset fs;
    agreement_fields(&fs, a);
    gh_sbuf b = {0};
    gh_sb_putc(&b, '{');
    gh_render_json_members(&b, &fs);
    gh_sb_puts(&b, ",\"groups\":[");
    for (size_t g = 0; g < a->n_groups; g++) {
        const gh_agreement_group *grp = &a->groups[g];
        gh_sb_printf(&b, "%s{\"hash\":\"%016" PRIx64 "\",\"members\":[", g ? "," : "", grp->hash);
        for (size_t m = 0; m < grp->n_members; m++) {
            if (m) gh_sb_putc(&b, ',');
            gh_json_str(&b, grp->members[m]);
        }
        gh_sb_puts(&b, "]}");
    }
    gh_sb_puts(&b, "]}");
    return gh_sb_take(&b);
}