/* JUnit XML; see junit.h. The testcases are kept rendered, and the document
 * is put together again for every write (report.c says when). */
#include "junit.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encode.h"
#include "replace_file.h"

struct gh_junit {
    char *path, *timestamp, *hostname, *version, *commit, *experiment;
    gh_strlist cases; /* rendered <testcase> elements */
    gh_sbuf notes;    /* system-out text */
    size_t failures, errors, skipped;
    double seconds;
    int complete, cancelled;
};

static char *dup_or_empty(const char *s)
{
    gh_sbuf b = {0};
    gh_sb_puts(&b, s ? s : "");
    return gh_sb_take(&b);
}

void gh_junit_free(gh_junit *j)
{
    if (!j) return;
    free(j->path);
    free(j->timestamp);
    free(j->hostname);
    free(j->version);
    free(j->commit);
    free(j->experiment);
    gh_sl_free(&j->cases);
    free(gh_sb_take(&j->notes));
    free(j);
}

/* name="value" with the value escaped. */
static void attr(gh_sbuf *b, const char *name, const char *value)
{
    gh_sb_printf(b, " %s=\"", name);
    gh_xml_str(b, value);
    gh_sb_putc(b, '"');
}

static void counts(gh_sbuf *b, const gh_junit *j)
{
    gh_sb_printf(b, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.6f\"", j->cases.n,
                 j->failures, j->errors, j->skipped, j->seconds);
}

static void property(gh_sbuf *b, const char *name, const char *value)
{
    gh_sb_puts(b, "      <property");
    attr(b, "name", name);
    attr(b, "value", value);
    gh_sb_puts(b, "/>\n");
}

int gh_junit_write(gh_junit *j, size_t *written, char *err, size_t err_size)
{
    if (!j) return 0;
    gh_sbuf b = {0};
    gh_sb_puts(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"gemmhost\"");
    counts(&b, j);
    gh_sb_puts(&b, ">\n  <testsuite name=\"gemmhost\"");
    counts(&b, j);
    attr(&b, "timestamp", j->timestamp);
    attr(&b, "hostname", j->hostname);
    gh_sb_puts(&b, ">\n    <properties>\n");
    property(&b, "gemmhost.version", j->version);
    property(&b, "gemmhost.git_commit", j->commit);
    if (j->experiment[0]) property(&b, "gemmhost.experiment", j->experiment); /* what a second run compares */
    property(&b, "complete", j->complete ? "true" : "false"); /* false: the run was killed or cancelled */
    if (j->cancelled) property(&b, "cancelled", "true");
    gh_sb_puts(&b, "    </properties>\n");
    for (size_t i = 0; i < j->cases.n; i++) gh_sb_puts(&b, j->cases.items[i]);
    gh_sb_puts(&b, "    <system-out>");
    if (j->notes.s) gh_sb_puts(&b, j->notes.s);
    gh_sb_puts(&b, "</system-out>\n  </testsuite>\n</testsuites>\n");
    char *text = gh_sb_take(&b);
    if (!text) {
        snprintf(err, err_size, "cannot write %s: out of memory", j->path);
        return -1;
    }
    size_t len = strlen(text);
    int rc = gh_replace_file(j->path, text, len, err, err_size);
    free(text);
    if (rc == 0 && written) *written += len;
    return rc;
}

gh_junit *gh_junit_open(const gh_junit_info *info, char *err, size_t err_size)
{
    gh_junit *j = calloc(1, sizeof *j);
    if (j) {
        j->path = dup_or_empty(info->path);
        j->timestamp = dup_or_empty(info->timestamp);
        j->hostname = dup_or_empty(info->hostname);
        j->version = dup_or_empty(info->version);
        j->commit = dup_or_empty(info->commit);
        j->experiment = dup_or_empty(info->experiment);
    }
    if (!j || !j->path || !j->timestamp || !j->hostname || !j->version || !j->commit || !j->experiment) {
        snprintf(err, err_size, "cannot open %s: out of memory", info->path);
        gh_junit_free(j);
        return NULL;
    }
    return j;
}

/* <failure message="first line of why" type="FAIL">all of why</failure> */
static void outcome(gh_sbuf *b, const char *element, const char *type, const char *why)
{
    size_t first = strcspn(why, "\n");
    char *message = malloc(first + 1);
    if (message) {
        memcpy(message, why, first);
        message[first] = '\0';
    }
    gh_sb_printf(b, "      <%s", element);
    attr(b, "message", message ? message : why);
    attr(b, "type", type);
    if (strcmp(element, "skipped") == 0) gh_sb_puts(b, "/>\n");
    else {
        gh_sb_putc(b, '>');
        gh_xml_str(b, why);
        gh_sb_printf(b, "</%s>\n", element);
    }
    free(message);
}

/* A property of one testcase, indented under its <properties>. */
static void case_property(gh_sbuf *b, const char *name, const char *value)
{
    gh_sb_puts(b, "    ");
    property(b, name, value);
}

/* How a timed result was measured: cache, repetitions, spread, batch. */
static void measure_properties(gh_sbuf *b, const gh_result *res)
{
    char text[64];
    case_property(b, "cache", res->cache_cold ? "cold" : "warm");
    if (res->cache_cold) {
        snprintf(text, sizeof text, "%llu", (unsigned long long)res->flush_bytes);
        case_property(b, "flush_bytes", text);
    }
    case_property(b, "repeat_mode", res->repeat_auto ? "auto" : "fixed");
    snprintf(text, sizeof text, "%d", res->repeats);
    case_property(b, "repeats", text);
    snprintf(text, sizeof text, "%.6g", res->spread);
    case_property(b, "spread", text);
    if (res->repeat_auto) {
        snprintf(text, sizeof text, "%.6g", res->target_spread);
        case_property(b, "target_spread", text);
        case_property(b, "spread_reached", res->spread_reached ? "true" : "false");
    }
    snprintf(text, sizeof text, "%d", res->batch > 1 ? res->batch : 1);
    case_property(b, "batch", text);
    if (res->batch_note[0]) case_property(b, "batch_note", res->batch_note);
}

/* The GPU's state while timed (core/device_state); only for results timed
 * on a device NVML knows. */
static void gpu_properties(gh_sbuf *b, const gh_result *res)
{
    const gh_gpu_state *g = &res->gpu;
    char v[64];
    struct {
        const char *name;
        int known;
        double value;
    } nums[] = {
        {"sm_clock_mhz_min", g->samples > 0 && g->sm_clock_mhz_median > 0, g->sm_clock_mhz_min},
        {"sm_clock_mhz_median", g->samples > 0 && g->sm_clock_mhz_median > 0, g->sm_clock_mhz_median},
        {"mem_clock_mhz_median", g->samples > 0 && g->mem_clock_mhz_median > 0, g->mem_clock_mhz_median},
        {"temperature_c_max", g->samples > 0 && g->temperature_c_max >= 0, g->temperature_c_max},
        {"power_w_median", g->samples > 0 && g->power_w_median >= 0, g->power_w_median},
        {"energy_j", g->samples > 0 && g->energy_j >= 0, g->energy_j},
        {"gflop_per_j", g->samples > 0 && g->gflop_per_j >= 0, g->gflop_per_j},
        {"peak_percent", g->peak_gflops > 0 && g->peak_percent >= 0, g->peak_percent},
    };
    case_property(b, "gpu_state", g->state);
    case_property(b, "throttled", g->throttled ? "true" : "false");
    if (g->throttled) case_property(b, "throttle_reason", g->throttle_reason);
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        if (!nums[i].known) continue;
        snprintf(v, sizeof v, "%.6g", nums[i].value);
        case_property(b, nums[i].name, v);
    }
}

/* A timed result's one <properties>: how it was measured, and the GPU's state. */
static void case_properties(gh_sbuf *b, const gh_result *res)
{
    gh_sb_puts(b, "      <properties>\n");
    measure_properties(b, res);
    if (res->gpu.samples) gpu_properties(b, res);
    gh_sb_puts(b, "      </properties>\n");
}

static char *render_case(const gh_result *res, double seconds)
{
    char device[512], trans[3];
    gh_device_label(device, sizeof device, res->device_index, res->device_name);
    gh_trans_name(trans, res->trans_a, res->trans_b);
    gh_sbuf cls = {0}, name = {0}, b = {0};
    gh_sb_printf(&cls, "%s.%s%s%s%s on %s", res->backend, res->kernel, res->params[0] ? "[" : "", res->params,
                 res->params[0] ? "]" : "", device);
    char types[128];
    gh_sb_printf(&name, "%s %s %" PRId64 "x%" PRId64 "x%" PRId64, gh_result_types_label(res, types, sizeof types),
                 trans, res->m, res->n, res->k);
    char *c = gh_sb_take(&cls), *n = gh_sb_take(&name);
    gh_sb_puts(&b, "    <testcase");
    attr(&b, "classname", c);
    attr(&b, "name", n);
    gh_sb_printf(&b, " time=\"%.6f\"", seconds);
    free(c);
    free(n);
    const char *why = res->detail[0] ? res->detail : res->verify.message;
    const int timed = res->repeats > 0;
    if (!timed && res->status == GH_RESULT_PASS) {
        gh_sb_puts(&b, "/>\n");
        return gh_sb_take(&b);
    }
    gh_sb_puts(&b, ">\n");
    if (timed) case_properties(&b, res);
    switch (res->status) {
    case GH_RESULT_PASS: break;
    case GH_RESULT_FAIL: outcome(&b, "failure", "FAIL", why[0] ? why : "failed"); break;
    case GH_RESULT_ERROR:
    case GH_RESULT_CRASHED:
    case GH_RESULT_TIMEOUT: outcome(&b, "error", gh_result_status_name(res->status), why[0] ? why : "error"); break;
    case GH_RESULT_UNSUPPORTED: outcome(&b, "skipped", "unsupported", why[0] ? why : "unsupported"); break;
    case GH_RESULT_UNCHECKED:
        outcome(&b, "skipped", "unchecked", "unchecked: ran with verify = none, the values were not compared");
        break;
    case GH_RESULT_CANCELLED: outcome(&b, "skipped", "cancelled", why[0] ? why : "cancelled"); break;
    }
    gh_sb_puts(&b, "    </testcase>\n");
    return gh_sb_take(&b);
}

int gh_junit_result(gh_junit *j, const gh_result *res, char *err, size_t err_size)
{
    if (!j) return 0;
    double seconds = res->repeats > 0 && res->kernel_ms_median > 0 ? res->kernel_ms_median / 1000 : 0;
    if (gh_sl_push(&j->cases, render_case(res, seconds)) != 0) {
        snprintf(err, err_size, "cannot update %s: out of memory", j->path);
        return -1;
    }
    j->seconds += seconds;
    if (res->status == GH_RESULT_FAIL) j->failures++;
    else if (res->status == GH_RESULT_ERROR || res->status == GH_RESULT_CRASHED || res->status == GH_RESULT_TIMEOUT)
        j->errors++;
    else if (res->status != GH_RESULT_PASS) j->skipped++;
    return 0;
}

int gh_junit_note(gh_junit *j, const char *text, char *err, size_t err_size)
{
    if (!j) return 0;
    gh_xml_str(&j->notes, text);
    gh_sb_puts(&j->notes, "&#10;");
    if (!j->notes.oom) return 0;
    snprintf(err, err_size, "cannot update %s: out of memory", j->path);
    return -1;
}

int gh_junit_close(gh_junit *j, size_t *written, char *err, size_t err_size)
{
    if (!j) return 0;
    j->complete = !j->cancelled;
    int rc = gh_junit_write(j, written, err, err_size);
    gh_junit_free(j);
    return rc;
}

void gh_junit_cancelled(gh_junit *j)
{
    if (j) j->cancelled = 1;
}
