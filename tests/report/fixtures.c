/* See fixtures.h. */
#include "fixtures.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *tricky_detail = "bad value, got \"x\"\nat (1, 2)";

gh_device_info sample_device(void)
{
    gh_device_info d;
    memset(&d, 0, sizeof d);
    d.size = sizeof d;
    d.name = "Intel(R) Core(TM) i7-8700 Very Long Name CPU @ 3.20GHz";
    d.vendor = "GenuineIntel, \"Inc\"";
    d.driver_version = "1.2.3";
    d.api = "C (4 threads)";
    d.platform = "";
    d.global_mem_bytes = 16ull << 30;
    d.compute_units = 4;
    d.is_software = 1;
    d.has_fp64 = 1;
    return d;
}

gh_result pass_result(const gh_device_info *dev, int case_index)
{
    gh_result r;
    memset(&r, 0, sizeof r);
    r.case_index = case_index;
    r.backend = "cpu";
    r.plugin = "cpu";
    r.plugin_path = "/usr/lib/gemmhost/gemmhost-cpu.so";
    r.device_index = 0;
    r.device_name = dev->name;
    r.device = dev;
    r.kernel = "tiled";
    snprintf(r.params, sizeof r.params, "tile=16");
    r.dtype = GH_F32;
    r.trans_b = 1;
    r.m = 100;
    r.n = 75;
    r.k = 50;
    r.alpha = 1;
    r.beta = 0.5;
    r.status = GH_RESULT_PASS;
    r.verify_method = "full";
    r.verify.passed = 1;
    r.verify.checked = 1;
    r.verify.max_abs_err = 1.5e-7;
    r.verify.max_err_over_bound = 0.01;
    r.verify.rel_fro_err = 2e-8;
    r.verify.fail_i = r.verify.fail_j = -1;
    r.deterministic = 1;
    r.output_hash = 0x00ab00cd00ef0012ull;
    r.repeats = 5;
    r.kernel_ms_median = 0.25;
    r.kernel_ms_min = 0.2;
    r.kernel_ms_max = 0.5;
    r.clock = GH_CLOCK_DEVICE;
    r.upload_ms = 0.1;
    r.download_ms = 0.05;
    r.gflops = 2.0 * 100 * 75 * 50 / 0.25e-3 / 1e9;
    return r;
}

/* A wrong result: NaN and Inf in the numbers, a detail that needs quoting. */
gh_result fail_result(const gh_device_info *dev)
{
    gh_result r = pass_result(dev, 1);
    r.kernel = "naive";
    r.params[0] = '\0';
    r.status = GH_RESULT_FAIL;
    snprintf(r.detail, sizeof r.detail, "%s", tricky_detail);
    r.verify.passed = 0;
    r.verify.max_abs_err = NAN;
    r.verify.max_err_over_bound = INFINITY;
    r.verify.rel_fro_err = -INFINITY;
    r.verify.fail_i = 1;
    r.verify.fail_j = 2;
    r.verify.fail_got = NAN;
    r.verify.fail_expected = 0.125;
    r.verify.guard_overwrites = 3;
    r.deterministic = 0;
    r.gflops = NAN;
    return r;
}

/* Declined before running: no verify, no timing, no device (a split group). */
gh_result unsupported_result(void)
{
    gh_result r;
    memset(&r, 0, sizeof r);
    r.case_index = 2;
    r.backend = "gpus";
    r.plugin = "opencl";
    r.device_index = -1;
    r.device_name = "split(gpu0,gpu1)";
    r.kernel = "tiled";
    r.dtype = GH_F64;
    r.m = r.n = r.k = 16384;
    r.status = GH_RESULT_UNSUPPORTED;
    snprintf(r.detail, sizeof r.detail, "f64 needs cl_khr_fp64");
    r.verify_method = "none";
    r.verify.fail_i = r.verify.fail_j = -1;
    return r;
}

char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *s = read_stream(f);
    fclose(f);
    return s;
}

char *read_stream(FILE *f)
{
    rewind(f);
    size_t cap = 4096, len = 0;
    char *s = malloc(cap);
    for (size_t n; s && (n = fread(s + len, 1, cap - len - 1, f)) > 0;) {
        len += n;
        if (cap - len < 2) {
            cap *= 2;
            s = realloc(s, cap);
        }
    }
    if (s) s[len] = '\0';
    return s;
}

int count_lines_starting(const char *text, const char *start)
{
    int n = 0;
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "")
        if (strncmp(p, start, strlen(start)) == 0) n++;
    return n;
}
