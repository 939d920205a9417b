/* --resume: an earlier results JSON read back; see resume.h.
 *
 * Each result object is turned back into the gh_result it was written from
 * (the inverse of encode.c's gh_fields_result), so that the report writes it
 * again through the same code: its CSV row, JSON object and JUnit case come
 * out as they were. Strings point into the jansson document, kept until
 * gh_resume_free. Lookups go through a sorted index of keys. */
#define _POSIX_C_SOURCE 200809L
#include "resume.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "data.h"
#include "encode.h"
#include "fingerprint_json.h"
#include "result_log_read.h"
#include "util.h"

struct gh_resume {
    json_t *doc;
    gh_resumed *results; /* final ones only */
    size_t n_results, n_cancelled;
    char **keys; /* keys[i] belongs to results[order[i]], sorted */
    size_t *order;
    gh_agreement *agreements;
    size_t n_agreements;
};

/* ------------------------------------------------------------------------ */
/* The settings that change results. */

char *gh_resume_settings_json(const gh_config *cfg)
{
    const gh_run_config *run = &cfg->run;
    gh_sbuf b = {0};
    gh_sb_printf(&b, "{\"seed\":%" PRIu64 ",\"alpha\":", run->seed);
    gh_json_num(&b, run->alpha, GH_EXACT_DIGITS);
    gh_sb_puts(&b, ",\"beta\":");
    gh_json_num(&b, run->beta, GH_EXACT_DIGITS);
    gh_sb_printf(&b, ",\"warmup\":%d,\"repeat\":%d,\"verify\":", run->warmup, run->repeat);
    gh_json_str(&b, gh_verify_method_name(run->verify));
    gh_sb_puts(&b, ",\"full_max\":");
    gh_json_num(&b, run->full_max_flops, GH_EXACT_DIGITS);
    gh_sb_printf(&b, ",\"freivalds_trials\":%d,\"samples\":%" PRId64 ",\"ld_pad\":%" PRId64 ",\"guard\":%" PRId64,
                 run->freivalds_trials, run->samples, run->ld_pad, run->guard);
    /* How results are measured, written only where they differ from the
     * defaults, so a file from before these keys still resumes a default run. */
    if (run->cache_cold) gh_sb_printf(&b, ",\"cache\":\"cold\",\"flush_size\":%" PRIu64, run->flush_bytes);
    if (run->repeat_auto) {
        gh_sb_printf(&b, ",\"repeat_mode\":\"auto\",\"min_repeat\":%d,\"max_time\":", run->min_repeat);
        gh_json_num(&b, run->max_time, GH_EXACT_DIGITS);
        gh_sb_puts(&b, ",\"target_spread\":");
        gh_json_num(&b, run->target_spread, GH_EXACT_DIGITS);
    }
    if (run->batch != 1) gh_sb_printf(&b, ",\"batch\":%d", run->batch); /* 0: auto */
    if (run->batch == 0 && run->batch_below != 20e-6) {
        gh_sb_puts(&b, ",\"batch_below\":");
        gh_json_num(&b, run->batch_below, GH_EXACT_DIGITS);
    }
    /* An 8-bit case's other types and scales, where they differ from the
     * defaults (a file from before them resumes a default run). */
    if (run->b_dtype_set) {
        gh_sb_puts(&b, ",\"b_dtype\":");
        gh_json_str(&b, gh_dtype_name(run->b_dtype));
    }
    if (run->c_dtype_set) {
        gh_sb_puts(&b, ",\"c_dtype\":");
        gh_json_str(&b, gh_dtype_name(run->c_dtype));
    }
    const char *scale_names[] = {"scale_a", "scale_b", "scale_c"};
    const double scales[] = {run->scale_a, run->scale_b, run->scale_c};
    for (size_t i = 0; i < 3; i++)
        if (scales[i] > 0 && scales[i] != 1.0) { /* 0: a config built without the keys */
            gh_sb_printf(&b, ",\"%s\":", scale_names[i]);
            gh_json_num(&b, scales[i], GH_EXACT_DIGITS);
        }
    /* A split's panel and memory limit change which device computes what. */
    for (size_t i = 0; i < cfg->n_splits; i++) {
        const gh_split_config *s = &cfg->splits[i];
        gh_sbuf key = {0};
        gh_sb_printf(&key, "split %s.panel", s->name);
        char *k = gh_sb_take(&key);
        gh_sb_putc(&b, ',');
        gh_json_str(&b, k);
        free(k);
        gh_sb_printf(&b, ":%" PRId64 ",", s->panel);
        gh_sb_printf(&key, "split %s.mem_limit", s->name);
        k = gh_sb_take(&key);
        gh_json_str(&b, k);
        free(k);
        gh_sb_printf(&b, ":%" PRIu64 ",", s->mem_limit);
        gh_sb_printf(&key, "split %s.kernel", s->name);
        k = gh_sb_take(&key);
        gh_json_str(&b, k);
        free(k);
        gh_sb_putc(&b, ':');
        gh_json_str(&b, s->kernel ? s->kernel : "");
    }
    gh_sb_putc(&b, '}');
    return gh_sb_take(&b);
}

/* "seed = 1" for a message; the value as JSON text. */
static char *value_text(const json_t *v)
{
    return v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
}

/* Every setting of this run must be in the file with the same value. */
static int check_settings(const char *path, const json_t *old, const char *settings_json, char *err, size_t err_size)
{
    if (!json_is_object(old)) {
        snprintf(err, err_size,
                 "%s has no \"settings\" (written by an older gemmhost, or not by gemmhost): --resume cannot tell "
                 "whether its results match this run's; use another --output, or --overwrite to start over",
                 path);
        return -1;
    }
    json_error_t jerr;
    json_t *now = json_loads(settings_json, 0, &jerr);
    if (!now) {
        snprintf(err, err_size, "internal: this run's settings are not JSON (%s)", jerr.text);
        return -1;
    }
    int rc = 0;
    const char *key;
    json_t *value;
    json_object_foreach(now, key, value)
    {
        const json_t *was = json_object_get(old, key);
        if (was && json_equal(was, value)) continue;
        char *a = value_text(was), *b = value_text(value);
        snprintf(err, err_size,
                 "%s was written with %s = %s, this run has %s = %s: --resume continues only a run with the same "
                 "settings; give the same config, or another --output (or --overwrite to start over)",
                 path, key, a ? a : "(none)", key, b ? b : "?");
        free(a);
        free(b);
        rc = -1;
        break;
    }
    json_decref(now);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* A result object back into a gh_result. */

static const char *str_of(const json_t *o, const char *name)
{
    return json_string_value(json_object_get(o, name)); /* NULL for null or missing */
}

static int64_t int_of(const json_t *o, const char *name, int64_t if_null)
{
    const json_t *v = json_object_get(o, name);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : if_null;
}

/* A number; null stands for a value that was unknown (then it is not
 * printed whatever it holds) or not finite (JSON has no NaN or Inf). */
static double num_of(const json_t *o, const char *name, double if_null)
{
    const json_t *v = json_object_get(o, name);
    return json_is_number(v) ? json_number_value(v) : if_null;
}

static int bool_of(const json_t *o, const char *name)
{
    return json_is_true(json_object_get(o, name));
}

static void copy_str(char *dst, size_t size, const char *s)
{
    snprintf(dst, size, "%s", s ? s : "");
}

/* The GPU's state of a result (core/device_state); a file from before it
 * has none of these fields, and its results read as never sampled. */
static void parse_gpu_state(const json_t *o, gh_gpu_state *g)
{
    copy_str(g->state, sizeof g->state, str_of(o, "gpu_state"));
    g->samples = (int)int_of(o, "gpu_samples", 0);
    g->sm_clock_mhz_min = num_of(o, "sm_clock_mhz_min", 0);
    g->sm_clock_mhz_median = num_of(o, "sm_clock_mhz_median", 0);
    g->sm_clock_mhz_max = num_of(o, "sm_clock_mhz_max", 0);
    g->mem_clock_mhz_min = num_of(o, "mem_clock_mhz_min", 0);
    g->mem_clock_mhz_median = num_of(o, "mem_clock_mhz_median", 0);
    g->temperature_c_max = num_of(o, "temperature_c_max", -1);
    g->power_w_median = num_of(o, "power_w_median", -1);
    g->energy_j = num_of(o, "energy_j", -1);
    g->gflop_per_j = num_of(o, "gflop_per_j", -1);
    copy_str(g->clock_events_text, sizeof g->clock_events_text, str_of(o, "clock_events"));
    g->throttled = bool_of(o, "throttled");
    copy_str(g->throttle_reason, sizeof g->throttle_reason, str_of(o, "throttle_reason"));
    g->peak_gflops = num_of(o, "peak_gflops", 0);
    copy_str(g->peak_unit, sizeof g->peak_unit, str_of(o, "peak_unit"));
    g->peak_percent = num_of(o, "peak_percent", -1);
    if (!(g->peak_gflops > 0)) copy_str(g->peak_why, sizeof g->peak_why, str_of(o, "peak_note"));
}

static int status_of_name(const char *name, gh_result_status *out)
{
    for (int s = 0; s <= GH_RESULT_CANCELLED; s++)
        if (name && strcmp(name, gh_result_status_name((gh_result_status)s)) == 0) {
            *out = (gh_result_status)s;
            return 0;
        }
    return -1;
}

/* The device members a result row carries (encode.c's device_fields). */
static const gh_device_info *device_of(const json_t *o, gh_device_info *dev)
{
    const json_t *soft = json_object_get(o, "device_is_software");
    memset(dev, 0, sizeof *dev);
    dev->vendor = str_of(o, "device_vendor");
    dev->driver_version = str_of(o, "device_driver_version");
    dev->api = str_of(o, "device_api");
    if (!dev->vendor && !dev->driver_version && !dev->api && json_is_null(soft)) return NULL; /* a split */
    dev->name = str_of(o, "device_name");
    dev->size = json_is_boolean(soft) ? sizeof *dev : offsetof(gh_device_info, is_software);
    dev->is_software = json_is_true(soft);
    return dev;
}

/* A case's layout and shape, as a result and an agreement both store them
 * (trans: two letters, checked by the caller). */
static void shape_of(const json_t *o, const char *trans, int *trans_a, int *trans_b, int64_t *m, int64_t *n, int64_t *k)
{
    *trans_a = trans[0] == 't';
    *trans_b = trans[1] == 't';
    *m = int_of(o, "m", 0);
    *n = int_of(o, "n", 0);
    *k = int_of(o, "k", 0);
}

/* An 8-bit result's B and C types and scales (files before ABI 1.5 have none). */
static void types_of(const json_t *o, gh_result *r)
{
    const char *b = str_of(o, "b_dtype"), *c = str_of(o, "c_dtype");
    gh_dtype bt, ct;
    if (!gh_dtype_is_8bit(r->dtype) || !b || !c || gh_dtype_parse(b, &bt) != 0 || gh_dtype_parse(c, &ct) != 0) return;
    r->types = (gh_case_types){
        r->dtype, bt, ct, num_of(o, "scale_a", 1.0), num_of(o, "scale_b", 1.0), num_of(o, "scale_c", 1.0), 1};
}

static int parse_result(const json_t *o, gh_resumed *out, char *why, size_t why_size)
{
    gh_result *r = &out->result;
    memset(out, 0, sizeof *out);
    const char *dtype = str_of(o, "dtype"), *trans = str_of(o, "trans"), *status = str_of(o, "status");
    r->backend = str_of(o, "backend");
    r->kernel = str_of(o, "kernel");
    if (!json_is_object(o) || !r->backend || !r->kernel || !dtype || gh_dtype_parse(dtype, &r->dtype) != 0 || !trans ||
        strlen(trans) != 2 || status_of_name(status, &r->status) != 0 ||
        !json_is_integer(json_object_get(o, "case_index"))) {
        snprintf(why, why_size, "a result lacks backend, kernel, case_index, a known dtype, trans or status");
        return -1;
    }
    r->case_index = (int)int_of(o, "case_index", -1);
    r->plugin = str_of(o, "plugin");
    r->plugin_path = str_of(o, "plugin_path");
    r->device_index = (int)int_of(o, "device_index", -1);
    r->device_name = str_of(o, "device_name");
    r->device = device_of(o, &out->device);
    copy_str(r->params, sizeof r->params, str_of(o, "params"));
    copy_str(r->params_used, sizeof r->params_used, str_of(o, "params_used"));
    copy_str(r->params_note, sizeof r->params_note, str_of(o, "params_note"));
    copy_str(r->arithmetic, sizeof r->arithmetic, str_of(o, "arithmetic"));
    types_of(o, r);
    r->arith = gh_arith_default(r->types.explicit_types ? r->types.c : r->dtype); /* not stored: only the words are */
    shape_of(o, trans, &r->trans_a, &r->trans_b, &r->m, &r->n, &r->k);
    r->alpha = num_of(o, "alpha", NAN);
    r->beta = num_of(o, "beta", NAN);
    copy_str(r->detail, sizeof r->detail, str_of(o, "detail"));
    r->verify_method = str_of(o, "verify_method");
    gh_verify_result *v = &r->verify;
    v->checked = bool_of(o, "verify_checked");
    v->passed = bool_of(o, "verify_passed");
    v->max_abs_err = num_of(o, "max_abs_err", NAN);
    v->max_err_over_bound = num_of(o, "max_err_over_bound", INFINITY); /* what the verifier gives NaN and Inf */
    v->rel_fro_err = num_of(o, "rel_fro_err", NAN);
    v->fail_i = int_of(o, "fail_i", -1);
    v->fail_j = int_of(o, "fail_j", -1);
    v->fail_got = num_of(o, "fail_got", NAN);
    v->fail_expected = num_of(o, "fail_expected", NAN);
    v->guard_overwrites = int_of(o, "guard_overwrites", 0);
    copy_str(v->message, sizeof v->message, str_of(o, "verify_message"));
    r->deterministic = bool_of(o, "deterministic");
    const char *hash = str_of(o, "output_hash");
    r->output_hash = hash ? strtoull(hash, NULL, 16) : 0;
    r->repeats = (int)int_of(o, "repeats", 0);
    r->kernel_ms_median = num_of(o, "kernel_ms_median", 0);
    r->kernel_ms_min = num_of(o, "kernel_ms_min", 0);
    r->kernel_ms_max = num_of(o, "kernel_ms_max", 0);
    const char *clock = str_of(o, "clock");
    r->clock = clock && strcmp(clock, "host") == 0 ? GH_CLOCK_HOST : GH_CLOCK_DEVICE;
    r->upload_ms = num_of(o, "upload_ms", 0);
    r->download_ms = num_of(o, "download_ms", 0);
    r->gflops = num_of(o, "gflops", 0);
    parse_gpu_state(o, &r->gpu);
    /* absent in files from before cache, repeat = auto and batch: warm, fixed, one */
    const char *cache = str_of(o, "cache"), *mode = str_of(o, "repeat_mode");
    r->cache_cold = cache && strcmp(cache, "cold") == 0;
    r->flush_bytes = (uint64_t)int_of(o, "flush_bytes", 0);
    r->repeat_auto = mode && strcmp(mode, "auto") == 0;
    r->spread = num_of(o, "spread", 0);
    r->target_spread = num_of(o, "target_spread", 0);
    r->spread_reached = bool_of(o, "spread_reached");
    r->batch = (int)int_of(o, "batch", 1);
    copy_str(r->batch_note, sizeof r->batch_note, str_of(o, "batch_note"));
    char fp_err[128];
    if (gh_fingerprint_from_json(o, &r->fingerprint, fp_err, sizeof fp_err) != 0) {
        snprintf(why, why_size, "a result (case %d, %s %s): %s", r->case_index, r->backend, r->kernel, fp_err);
        return -1;
    }
    return 0;
}

/* A split's entry in "splits": its members' rows. */
static int parse_split(const json_t *o, gh_resumed *res)
{
    const json_t *members = json_object_get(o, "members");
    if (!json_is_array(members)) return -1;
    res->has_split = 1;
    res->wall_ms = num_of(o, "wall_ms", 0);
    res->n_members = json_array_size(members);
    res->members = gh_xcalloc(res->n_members ? res->n_members : 1, sizeof *res->members);
    for (size_t i = 0; i < res->n_members; i++) {
        const json_t *m = json_array_get(members, i);
        res->members[i] = (gh_report_split_member){
            .backend = str_of(m, "backend"),
            .plugin = str_of(m, "plugin"),
            .device_index = (int)int_of(m, "device_index", -1),
            .device_name = str_of(m, "device_name"),
            .kernel = str_of(m, "kernel"),
            .params = str_of(m, "params"),
            .streams = bool_of(m, "streams"),
            .layout = str_of(m, "layout"),
            .device_bytes = (uint64_t)int_of(m, "device_bytes", 0),
            .chunks = int_of(m, "chunks", 0),
            .gemms = int_of(m, "gemms", 0),
            .compute_ms = num_of(m, "compute_ms", 0),
            .upload_ms = num_of(m, "upload_ms", 0),
            .download_ms = num_of(m, "download_ms", 0),
            .wait_ms = num_of(m, "wait_ms", 0),
            .bytes_up = (uint64_t)int_of(m, "bytes_up", 0),
            .bytes_down = (uint64_t)int_of(m, "bytes_down", 0),
            .upload_gbps = num_of(m, "upload_gbps", 0),
            .numa_node = (int)int_of(m, "numa_node", -1),
            .numa = str_of(m, "numa"),
            .b_path = str_of(m, "b_path"),
            .download_gbps = num_of(m, "download_gbps", 0),
            .host_memory = str_of(m, "host_memory"),
            .error = str_of(m, "error"),
        };
    }
    return 0;
}

static int parse_agreement(const json_t *o, gh_agreement *a)
{
    const char *dtype = str_of(o, "dtype"), *trans = str_of(o, "trans");
    const json_t *groups = json_object_get(o, "groups");
    memset(a, 0, sizeof *a);
    if (!dtype || gh_dtype_parse(dtype, &a->dtype) != 0 || !trans || strlen(trans) != 2 || !json_is_array(groups))
        return -1;
    a->case_index = (int)int_of(o, "case_index", -1);
    shape_of(o, trans, &a->trans_a, &a->trans_b, &a->m, &a->n, &a->k);
    a->max_diff_in_bounds = num_of(o, "max_diff_in_bounds", INFINITY);
    a->n_groups = json_array_size(groups);
    a->groups = gh_xcalloc(a->n_groups ? a->n_groups : 1, sizeof *a->groups);
    for (size_t g = 0; g < a->n_groups; g++) {
        const json_t *grp = json_array_get(groups, g), *members = json_object_get(grp, "members");
        const char *hash = str_of(grp, "hash");
        a->groups[g].hash = hash ? strtoull(hash, NULL, 16) : 0;
        a->groups[g].n_members = json_array_size(members);
        a->groups[g].members = gh_xcalloc(a->groups[g].n_members + 1, sizeof *a->groups[g].members);
        for (size_t m = 0; m < a->groups[g].n_members; m++) {
            const char *label = json_string_value(json_array_get(members, m));
            a->groups[g].members[m] = label ? label : "";
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Keys. */

static char *key_text(const gh_result_key *k)
{
    /* B's and C's types and the scales only for 8-bit: every other key reads as before. */
    const gh_case_types *t = &k->types;
    if (t->explicit_types)
        return gh_strdupf("%d\x1f%s\x1f%d\x1f%s\x1f%s\x1f%s\x1f%s\x1f%c%c\x1f%" PRId64 "x%" PRId64 "x%" PRId64
                          "\x1f%s\x1f%s\x1f%.17g\x1f%.17g\x1f%.17g",
                          k->case_index, k->backend ? k->backend : "", k->device_index,
                          k->device_name ? k->device_name : "", k->kernel ? k->kernel : "", k->params ? k->params : "",
                          gh_dtype_name(k->dtype), k->trans_a ? 't' : 'n', k->trans_b ? 't' : 'n', k->m, k->n, k->k,
                          gh_dtype_name(t->b), gh_dtype_name(t->c), t->scale_a, t->scale_b, t->scale_c);
    return gh_strdupf("%d\x1f%s\x1f%d\x1f%s\x1f%s\x1f%s\x1f%s\x1f%c%c\x1f%" PRId64 "x%" PRId64 "x%" PRId64,
                      k->case_index, k->backend ? k->backend : "", k->device_index,
                      k->device_name ? k->device_name : "", k->kernel ? k->kernel : "", k->params ? k->params : "",
                      gh_dtype_name(k->dtype), k->trans_a ? 't' : 'n', k->trans_b ? 't' : 'n', k->m, k->n, k->k);
}

static gh_result_key key_of(const gh_result *r)
{
    return (gh_result_key){r->case_index, r->backend, r->device_index, r->device_name, r->kernel,
                           r->params,     r->dtype,   r->trans_a,      r->trans_b,     r->m,
                           r->n,          r->k,       r->types};
}

static const gh_resume *sort_by; /* qsort has no context argument in C11 */

static int compare_keys(const void *x, const void *y)
{
    return strcmp(sort_by->keys[*(const size_t *)x], sort_by->keys[*(const size_t *)y]);
}

static void build_index(gh_resume *r)
{
    r->keys = gh_xcalloc(r->n_results + 1, sizeof *r->keys);
    r->order = gh_xcalloc(r->n_results + 1, sizeof *r->order);
    size_t *perm = gh_xcalloc(r->n_results + 1, sizeof *perm);
    char **unsorted = r->keys;
    for (size_t i = 0; i < r->n_results; i++) {
        gh_result_key k = key_of(&r->results[i].result);
        unsorted[i] = key_text(&k);
        perm[i] = i;
    }
    sort_by = r;
    qsort(perm, r->n_results, sizeof *perm, compare_keys);
    char **sorted = gh_xcalloc(r->n_results + 1, sizeof *sorted);
    for (size_t i = 0; i < r->n_results; i++) {
        sorted[i] = unsorted[perm[i]];
        r->order[i] = perm[i];
    }
    free(unsorted);
    free(perm);
    r->keys = sorted;
}

const gh_resumed *gh_resume_find(const gh_resume *r, const gh_result_key *key)
{
    if (!r || r->n_results == 0) return NULL;
    char *k = key_text(key);
    size_t lo = 0, hi = r->n_results;
    const gh_resumed *found = NULL;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(r->keys[mid], k);
        if (c == 0) {
            r->results[r->order[mid]].found = 1; /* results are the resume's own, not the caller's */
            found = &r->results[r->order[mid]];
            break;
        }
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    free(k);
    return found;
}

const gh_result *gh_resume_first_unfound(const gh_resume *r)
{
    for (size_t i = 0; r && i < r->n_results; i++)
        if (!r->results[i].found) return &r->results[i].result;
    return NULL;
}

const gh_agreement *gh_resume_agreement(const gh_resume *r, int case_index)
{
    for (size_t i = 0; r && i < r->n_agreements; i++)
        if (r->agreements[i].case_index == case_index) return &r->agreements[i];
    return NULL;
}

size_t gh_resume_final_count(const gh_resume *r)
{
    return r ? r->n_results : 0;
}

size_t gh_resume_cancelled_count(const gh_resume *r)
{
    return r ? r->n_cancelled : 0;
}

/* ------------------------------------------------------------------------ */
/* Loading. */

void gh_resume_free(gh_resume *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->n_results; i++) {
        free(r->results[i].members);
        if (r->keys) free(r->keys[i]);
    }
    for (size_t i = 0; i < r->n_agreements; i++) {
        for (size_t g = 0; g < r->agreements[i].n_groups; g++) free((void *)r->agreements[i].groups[g].members);
        free(r->agreements[i].groups);
    }
    free(r->agreements);
    free(r->results);
    free(r->keys);
    free(r->order);
    json_decref(r->doc);
    free(r);
}

static int load_failed(gh_resume *r, char *err, size_t err_size, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int load_failed(gh_resume *r, char *err, size_t err_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
    gh_resume_free(r);
    return -1;
}

/* The split entries of the file, matched to their results by case and name. */
static void attach_splits(gh_resume *r, const json_t *splits)
{
    for (size_t i = 0; i < json_array_size(splits); i++) {
        const json_t *s = json_array_get(splits, i);
        const char *backend = str_of(s, "backend");
        int case_index = (int)int_of(s, "case_index", -1);
        for (size_t j = 0; backend && j < r->n_results; j++) {
            gh_resumed *res = &r->results[j];
            if (res->has_split || res->result.device_index != -1 || res->result.case_index != case_index ||
                strcmp(res->result.backend, backend) != 0)
                continue;
            parse_split(s, res);
            break;
        }
    }
}

/* The earlier run's document: the JSON when it says complete (then it holds
 * every record), else the record log of its run, which is at least as new
 * (every record goes there before a checkpoint puts it in the JSON); the
 * JSON alone when there is no log (an older gemmhost) or the log is another
 * run's. Sets *path to the file read. */
static json_t *load_doc(const char *json_path, const char *log_path, const char **path, char *err, size_t err_size)
{
    struct stat st;
    json_error_t jerr;
    json_t *doc = stat(json_path, &st) == 0 ? json_load_file(json_path, 0, &jerr) : NULL;
    *path = json_path;
    if (doc && json_is_true(json_object_get(doc, "complete"))) return doc;
    if (log_path && stat(log_path, &st) == 0) {
        char why[1024];
        json_t *log;
        if (gh_result_log_load(log_path, &log, why, sizeof why) != 0) {
            snprintf(err, err_size, "cannot resume from %s: %s", log_path, why);
            json_decref(doc);
            return NULL;
        }
        if (!doc || gh_result_log_same_run(doc, log)) { /* else another run's log: the JSON stands */
            json_decref(doc);
            *path = log_path;
            return log;
        }
        json_decref(log);
    }
    if (!doc)
        snprintf(err, err_size, "cannot resume from %s: line %d, column %d: %s", json_path, jerr.line, jerr.column,
                 jerr.text);
    return doc;
}

int gh_resume_load(const char *json_path, const char *log_path, const char *settings_json, gh_resume **out, char *err,
                   size_t err_size)
{
    *out = NULL;
    struct stat st;
    if (stat(json_path, &st) != 0 && errno == ENOENT && (!log_path || stat(log_path, &st) != 0)) return 0;
    gh_resume *r = gh_xcalloc(1, sizeof *r);
    const char *path;
    r->doc = load_doc(json_path, log_path, &path, err, err_size);
    if (!r->doc) {
        gh_resume_free(r);
        return -1;
    }
    const json_t *results = json_object_get(r->doc, "results");
    if (!json_is_object(r->doc) || !json_is_array(results))
        return load_failed(r, err, err_size, "cannot resume from %s: not a gemmhost results file (no \"results\" list)",
                           path);
    if (check_settings(path, json_object_get(r->doc, "settings"), settings_json, err, err_size) != 0) {
        gh_resume_free(r);
        return -1;
    }
    r->results = gh_xcalloc(json_array_size(results) + 1, sizeof *r->results);
    for (size_t i = 0; i < json_array_size(results); i++) {
        char why[256];
        gh_resumed *res = &r->results[r->n_results];
        if (parse_result(json_array_get(results, i), res, why, sizeof why) != 0)
            return load_failed(r, err, err_size, "cannot resume from %s: result %zu: %s", path, i + 1, why);
        if (res->result.status == GH_RESULT_CANCELLED) r->n_cancelled++; /* runs again */
        else r->n_results++;
    }
    const json_t *agreement = json_object_get(r->doc, "agreement");
    r->agreements = gh_xcalloc(json_array_size(agreement) + 1, sizeof *r->agreements);
    for (size_t i = 0; i < json_array_size(agreement); i++)
        if (parse_agreement(json_array_get(agreement, i), &r->agreements[r->n_agreements]) == 0) r->n_agreements++;
    attach_splits(r, json_object_get(r->doc, "splits"));
    build_index(r);
    /* Two results of one key: the file is not one run's. */
    for (size_t i = 1; i < r->n_results; i++)
        if (strcmp(r->keys[i - 1], r->keys[i]) == 0) {
            const gh_result *d = &r->results[r->order[i]].result;
            return load_failed(r, err, err_size,
                               "cannot resume from %s: it holds two results of backend %s, kernel %s%s%s, case %d",
                               path, d->backend, d->kernel, *d->params ? " " : "", d->params, d->case_index);
        }
    *out = r;
    return 0;
}
