/* Unit tests for core/config: good files parse into the expected plan,
 * defaults apply, --set works, and every bad input gets a message naming the
 * file, the line and the key. Prints "N passed, M failed"; exits 1 on any
 * failure. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

#ifndef CONFIG_TEST_FILES
#error "CONFIG_TEST_FILES must name tests/config/files"
#endif

#define CHECK_MAIN /* this file holds the check counters */
#include "../check.h"

static const char *case_name; /* the test running, for failure messages */

/* A check through tests/check.h, named by its test, condition and line. */
#define CHECK_CONFIG(cond) EXPECT(cond, "%s: %s (test_config.c:%d)", case_name, #cond, __LINE__)

static void run_test(const char *name, void (*fn)(void))
{
    case_name = name;
    fn();
}

static char err[1024];

static int load_text(const char *text, const char *set, gh_config *cfg)
{
    const char *sets[1] = {set};
    memset(err, 0, sizeof err);
    return gh_config_load_text(text, "test.ini", sets, set ? 1 : 0, cfg, err, sizeof err);
}

static int shape_is(const gh_shape *s, int64_t m, int64_t n, int64_t k)
{
    return s->m == m && s->n == n && s->k == k;
}

static const gh_raw_key *raw_key(const gh_backend_config *b, const char *name)
{
    for (size_t i = 0; i < b->n_keys; i++)
        if (strcmp(b->keys[i].name, name) == 0) return &b->keys[i];
    return NULL;
}

static const gh_backend_config *backend(const gh_config *cfg, const char *name)
{
    for (size_t i = 0; i < cfg->n_backends; i++)
        if (strcmp(cfg->backends[i].name, name) == 0) return &cfg->backends[i];
    return NULL;
}

static int values_are(char **values, size_t n, const char *a, const char *b)
{
    return n == (b ? 2u : 1u) && strcmp(values[0], a) == 0 && (!b || strcmp(values[1], b) == 0);
}

/* ---- good input -------------------------------------------------------- */

static void check_defaults(const gh_config *cfg)
{
    const gh_run_config *r = &cfg->run;
    CHECK_CONFIG(r->n_sizes == 5 && shape_is(&r->sizes[0], 64, 64, 64) && shape_is(&r->sizes[1], 100, 75, 50) &&
                 shape_is(&r->sizes[4], 129, 31, 65));
    CHECK_CONFIG(r->n_dtypes == 3 && r->dtypes[0] == GH_F32 && r->dtypes[1] == GH_F64 && r->dtypes[2] == GH_I32);
    CHECK_CONFIG(r->n_trans == 2 && r->trans[0].a == 0 && r->trans[0].b == 0 && r->trans[1].a == 1 &&
                 r->trans[1].b == 1);
    CHECK_CONFIG(r->alpha == 1.0 && r->beta == 0.0);
    CHECK_CONFIG(r->warmup == 1 && r->repeat == 3 && r->seed == 1);
    CHECK_CONFIG(r->verify == GH_VERIFY_AUTO);
    CHECK_CONFIG(r->full_max_flops == 2.0 * 512 * 512 * 512);
    CHECK_CONFIG(r->freivalds_trials == 3 && r->samples == 4096);
    CHECK_CONFIG(r->ld_pad == 3 && r->guard == 64);
    CHECK_CONFIG(r->output && strcmp(r->output, "gemmhost-results") == 0);
    CHECK_CONFIG(r->n_plugin_dirs == 0 && r->plugin_dirs == NULL);
    CHECK_CONFIG(cfg->n_backends == 0 && cfg->n_splits == 0 && cfg->auto_backends == 1);
}

static void test_empty_text_gives_defaults(void)
{
    gh_config cfg;
    if (!CHECK_CONFIG(load_text("", NULL, &cfg) == 0)) return;
    check_defaults(&cfg);
    CHECK_CONFIG(strcmp(cfg.path, "test.ini") == 0);
    gh_config_free(&cfg);
    if (CHECK_CONFIG(load_text("; only a comment\n[run]\n\n", NULL, &cfg) == 0)) check_defaults(&cfg);
    gh_config_free(&cfg);
}

/* dtype = auto: f32, f64, i32, f16, bf16 (never the 8-bit ones) */
#define N_AUTO_DTYPES 5

static void test_builtin_default(void)
{
    gh_config cfg;
    memset(err, 0, sizeof err);
    int rc = gh_config_load_text(gh_default_config_text, "<built-in>", NULL, 0, &cfg, err, sizeof err);
    if (!CHECK_CONFIG(rc == 0)) {
        fprintf(stderr, "  %s\n", err);
        return;
    }
    const gh_run_config *r = &cfg.run;
    CHECK_CONFIG(cfg.auto_backends == 1 && cfg.n_backends == 0 && cfg.n_splits == 0);
    CHECK_CONFIG(r->n_sizes >= 4);
    int odd = 0, tiny = 0; /* a shape no tile divides, and a 1x1x1 */
    for (size_t i = 0; i < r->n_sizes; i++) {
        odd |= r->sizes[i].m % 2 && r->sizes[i].n % 2 && r->sizes[i].k % 2 && r->sizes[i].m > 16;
        tiny |= shape_is(&r->sizes[i], 1, 1, 1);
    }
    CHECK_CONFIG(odd && tiny);
    /* dtype = auto: every dtype listed, each kernel runs its own (the plan chooses) */
    /* but the 8-bit ones, which need a C type chosen (docs/configuration.md) */
    CHECK_CONFIG(r->dtype_auto == 1 && r->n_dtypes == N_AUTO_DTYPES && r->n_trans == 2);
    for (int d = 0; d < N_AUTO_DTYPES && d < (int)r->n_dtypes; d++) CHECK_CONFIG(r->dtypes[d] == (gh_dtype)d);
    CHECK_CONFIG(r->ld_pad == 3 && r->guard == 64 && r->verify == GH_VERIFY_AUTO && r->beta == 0.0);
    CHECK_CONFIG(strcmp(r->output, "gemmhost-results") == 0);
    CHECK_CONFIG(strcmp(cfg.path, "<built-in>") == 0);
    gh_config_free(&cfg);
    /* the rest is what a config without the key gets; a listed dtype turns auto off */
    const char *listed[] = {"run.dtype=f32, f64, i32"};
    if (CHECK_CONFIG(gh_config_load_text(gh_default_config_text, "<built-in>", listed, 1, &cfg, err, sizeof err) ==
                     0)) {
        CHECK_CONFIG(cfg.run.dtype_auto == 0);
        check_defaults(&cfg);
    }
    gh_config_free(&cfg);
    if (CHECK_CONFIG(load_text("[run]\ndtype = AUTO\n", NULL, &cfg) == 0))
        CHECK_CONFIG(cfg.run.dtype_auto == 1 && cfg.run.n_dtypes == N_AUTO_DTYPES);
    gh_config_free(&cfg);
    /* auto keeps only the dtypes that hold alpha and beta, instead of refusing them */
    if (CHECK_CONFIG(load_text("[run]\ndtype = auto\nalpha = 0.5\n", NULL, &cfg) == 0))
        CHECK_CONFIG(cfg.run.n_dtypes == N_AUTO_DTYPES - 1 && cfg.run.dtypes[2] == GH_F16);
    gh_config_free(&cfg);
    if (CHECK_CONFIG(load_text("[run]\ndtype = auto\nbeta = 100000\n", NULL, &cfg) == 0))
        CHECK_CONFIG(cfg.run.n_dtypes == N_AUTO_DTYPES - 1 && cfg.run.dtypes[2] == GH_I32 &&
                     cfg.run.dtypes[3] == GH_BF16);
    gh_config_free(&cfg);
}

static void test_good_file(void)
{
    gh_config cfg;
    const char *path = CONFIG_TEST_FILES "/good.ini";
    if (!CHECK_CONFIG(gh_config_load_file(path, NULL, 0, &cfg, err, sizeof err) == 0)) {
        fprintf(stderr, "  %s\n", err);
        return;
    }
    const gh_run_config *r = &cfg.run;
    CHECK_CONFIG(strcmp(cfg.path, path) == 0);
    CHECK_CONFIG(r->n_sizes == 3 && shape_is(&r->sizes[0], 64, 64, 64) && shape_is(&r->sizes[1], 100, 75, 50) &&
                 shape_is(&r->sizes[2], 512, 512, 512));
    CHECK_CONFIG(r->n_dtypes == 3 && r->dtypes[0] == GH_F32 && r->dtypes[1] == GH_F64 && r->dtypes[2] == GH_I32);
    CHECK_CONFIG(r->n_trans == 3 && r->trans[0].a == 0 && r->trans[0].b == 0 && r->trans[1].a == 1 &&
                 r->trans[1].b == 0 && r->trans[2].a == 1 && r->trans[2].b == 1);
    CHECK_CONFIG(r->alpha == 2.0 && r->beta == -1.0 && r->warmup == 0 && r->repeat == 7);
    CHECK_CONFIG(r->seed == 0xDEADBEEFull && r->verify == GH_VERIFY_FREIVALDS && r->full_max_flops == 1e6);
    CHECK_CONFIG(r->freivalds_trials == 5 && r->samples == 100 && r->ld_pad == 3 && r->guard == 0);
    CHECK_CONFIG(strcmp(r->output, "out/run1") == 0);
    CHECK_CONFIG(r->n_plugin_dirs == 2 && strcmp(r->plugin_dirs[0], "/opt/gemmhost/plugins") == 0 &&
                 strcmp(r->plugin_dirs[1], CONFIG_TEST_FILES "/../build/plugins") == 0); /* relative to the file */

    CHECK_CONFIG(cfg.n_backends == 2 && cfg.auto_backends == 0);
    const gh_backend_config *cpu = backend(&cfg, "cpu"), *big = backend(&cfg, "cpu-big");
    if (CHECK_CONFIG(cpu && big)) {
        CHECK_CONFIG(strcmp(cpu->plugin, "cpu") == 0 && strcmp(cpu->devices, "all") == 0);
        CHECK_CONFIG(values_are(cpu->kernels, cpu->n_kernels, "naive", "tiled"));
        CHECK_CONFIG(cpu->origin.line == 20 && strcmp(cpu->origin.file, path) == 0);
        const gh_raw_key *tile = raw_key(cpu, "tile");
        CHECK_CONFIG(cpu->n_keys == 1 && tile && values_are(tile->values, tile->n_values, "8", "16"));
        CHECK_CONFIG(tile && tile->origin.line == 24 && strcmp(tile->origin.file, path) == 0);
        CHECK_CONFIG(strcmp(big->plugin, "cpu") == 0 && values_are(big->kernels, big->n_kernels, "tiled", NULL));
        tile = raw_key(big, "tile");
        CHECK_CONFIG(tile && values_are(tile->values, tile->n_values, "32", "64") && tile->origin.line == 29);
        const gh_raw_key *threads = raw_key(big, "threads");
        CHECK_CONFIG(big->n_keys == 2 && threads && values_are(threads->values, threads->n_values, "2", NULL));
    }
    if (CHECK_CONFIG(cfg.n_splits == 1)) {
        const gh_split_config *sp = &cfg.splits[0];
        CHECK_CONFIG(strcmp(sp->name, "both") == 0 && sp->origin.line == 33);
        CHECK_CONFIG(values_are(sp->backends, sp->n_backends, "cpu", "cpu-big"));
        CHECK_CONFIG(sp->panel == 100 && sp->mem_limit == 4ull << 30 && strcmp(sp->kernel, "tiled") == 0);
    }
    gh_config_free(&cfg);
    CHECK_CONFIG(cfg.path == NULL && cfg.n_backends == 0);
}

static void test_crlf_and_bom(void)
{
    gh_config cfg;
    if (!CHECK_CONFIG(gh_config_load_file(CONFIG_TEST_FILES "/crlf_bom.ini", NULL, 0, &cfg, err, sizeof err) == 0)) {
        fprintf(stderr, "  %s\n", err);
        return;
    }
    CHECK_CONFIG(cfg.run.n_sizes == 1 && shape_is(&cfg.run.sizes[0], 8, 9, 10));
    CHECK_CONFIG(cfg.run.n_dtypes == 1 && cfg.run.dtypes[0] == GH_F64);
    const gh_backend_config *cpu = backend(&cfg, "cpu");
    CHECK_CONFIG(cpu && raw_key(cpu, "tile") && strcmp(raw_key(cpu, "tile")->values[0], "4") == 0);
    gh_config_free(&cfg);
}

static void test_comments(void)
{
    gh_config cfg;
    const char *text =
        "# leading comment\n"
        "[run]   ; section comment\n"
        "sizes = 64 ; semicolon comment\n"
        "dtype = f64 # hash comment\n"
        "output = a#b;c ; '#' and ';' inside a word stay\n"
        "  ; indented comment\n"
        "[backend cpu]  #header comment\n"
        "plugin = /opt/x#1/libcpu.so\n";
    if (!CHECK_CONFIG(load_text(text, NULL, &cfg) == 0)) {
        fprintf(stderr, "  %s\n", err);
        return;
    }
    CHECK_CONFIG(cfg.run.n_sizes == 1 && shape_is(&cfg.run.sizes[0], 64, 64, 64));
    CHECK_CONFIG(cfg.run.n_dtypes == 1 && cfg.run.dtypes[0] == GH_F64);
    CHECK_CONFIG(strcmp(cfg.run.output, "a#b;c") == 0);
    CHECK_CONFIG(cfg.n_backends == 1 && strcmp(cfg.backends[0].plugin, "/opt/x#1/libcpu.so") == 0);
    gh_config_free(&cfg);
}

static void test_backend_defaults(void)
{
    gh_config cfg;
    if (!CHECK_CONFIG(load_text("[run]\nsizes = 8\n\n[backend ocl_1]\n", NULL, &cfg) == 0)) return;
    const gh_backend_config *b = backend(&cfg, "ocl_1");
    if (CHECK_CONFIG(b)) {
        CHECK_CONFIG(strcmp(b->plugin, "ocl_1") == 0 && strcmp(b->devices, "all") == 0);
        CHECK_CONFIG(b->n_kernels == 0 && b->n_keys == 0 && b->origin.line == 4);
    }
    CHECK_CONFIG(cfg.auto_backends == 0);
    gh_config_free(&cfg);
}

static void test_split_defaults_and_forward_reference(void)
{
    gh_config cfg;
    const char *text = "[split pair]\nbackends = a, b\n[backend a]\n[backend b]\ndevices = 0, 2\n";
    if (!CHECK_CONFIG(load_text(text, NULL, &cfg) == 0)) {
        fprintf(stderr, "  %s\n", err);
        return;
    }
    if (CHECK_CONFIG(cfg.n_splits == 1)) {
        CHECK_CONFIG(cfg.splits[0].panel == 2048 && cfg.splits[0].mem_limit == 0);
        CHECK_CONFIG(strcmp(cfg.splits[0].kernel, "") == 0);
    }
    CHECK_CONFIG(backend(&cfg, "b") && strcmp(backend(&cfg, "b")->devices, "0,2") == 0);
    gh_config_free(&cfg);
}

static void test_continuation_lines(void)
{
    gh_config cfg;
    const char *text =
        "[run]\n"
        "sizes = 64,\n"
        "        100x75x50\n"
        "        , 7\n"
        "\n"
        "  dtype = f32\n";
    if (!CHECK_CONFIG(load_text(text, NULL, &cfg) == 0)) {
        fprintf(stderr, "  %s\n", err);
        return;
    }
    CHECK_CONFIG(cfg.run.n_sizes == 3 && shape_is(&cfg.run.sizes[2], 7, 7, 7));
    CHECK_CONFIG(cfg.run.n_dtypes == 1);
    gh_config_free(&cfg);
}

static void test_long_lines(void)
{
    char text[1024] = "[run]\nsizes = 1";
    for (int i = 2; strlen(text) < 180; i++) snprintf(text + strlen(text), sizeof text - strlen(text), ", %d", i);
    strcat(text, "   ; a comment that makes the raw line longer than inih's buffer ...........\n");
    gh_config cfg;
    if (CHECK_CONFIG(load_text(text, NULL, &cfg) == 0)) CHECK_CONFIG(cfg.run.n_sizes > 30);
    gh_config_free(&cfg);
}

static void test_set_overrides(void)
{
    const char *text =
        "[run]\nsizes = 64\n[backend cpu]\ntile = 8, 16\n"
        "[backend gpu]\nplugin = cuda\n[split g]\nbackends = cpu, gpu\n";
    const char *sets[] = {
        "run.sizes=128, 3x4x5",
        "cpu.tile=16",
        "backend.cpu.kernels = naive",
        "backend gpu.devices=1",
        "split.g.panel=512",
        "split g.mem_limit=1M",
        "run.output=",
        "gpu.platform=NVIDIA CUDA",
    };
    gh_config cfg;
    int rc = gh_config_load_text(text, "test.ini", sets, sizeof sets / sizeof sets[0], &cfg, err, sizeof err);
    if (!CHECK_CONFIG(rc == 0)) {
        fprintf(stderr, "  %s\n", err);
        return;
    }
    CHECK_CONFIG(cfg.run.n_sizes == 2 && shape_is(&cfg.run.sizes[0], 128, 128, 128) &&
                 shape_is(&cfg.run.sizes[1], 3, 4, 5));
    CHECK_CONFIG(strcmp(cfg.run.sizes_origin.file, "--set run.sizes=128, 3x4x5") == 0);
    CHECK_CONFIG(strcmp(cfg.run.output, "") == 0);
    const gh_backend_config *cpu = backend(&cfg, "cpu"), *gpu = backend(&cfg, "gpu");
    if (CHECK_CONFIG(cpu && gpu)) {
        const gh_raw_key *tile = raw_key(cpu, "tile");
        CHECK_CONFIG(tile && values_are(tile->values, tile->n_values, "16", NULL));
        /* the origin names the override, for messages after loading */
        CHECK_CONFIG(tile && strcmp(tile->origin.file, "--set cpu.tile=16") == 0 && tile->origin.line == 0);
        CHECK_CONFIG(values_are(cpu->kernels, cpu->n_kernels, "naive", NULL));
        CHECK_CONFIG(strcmp(gpu->devices, "1") == 0 && strcmp(gpu->plugin, "cuda") == 0);
        const gh_raw_key *platform = raw_key(gpu, "platform");
        CHECK_CONFIG(platform && values_are(platform->values, platform->n_values, "NVIDIA CUDA", NULL));
    }
    CHECK_CONFIG(cfg.n_splits == 1 && cfg.splits[0].panel == 512 && cfg.splits[0].mem_limit == 1u << 20);
    gh_config_free(&cfg);

    /* [run] is created when the text has none; the default config takes --set. */
    if (CHECK_CONFIG(load_text("[backend cpu]\n", "run.dtype=i32,f64", &cfg) == 0))
        CHECK_CONFIG(cfg.run.n_dtypes == 2 && cfg.run.dtypes[0] == GH_I32 && cfg.run.n_sizes == 5);
    gh_config_free(&cfg);
    const char *one[] = {"run.sizes=1x2x3"};
    if (CHECK_CONFIG(gh_config_load_text(gh_default_config_text, "<built-in>", one, 1, &cfg, err, sizeof err) == 0))
        CHECK_CONFIG(cfg.run.n_sizes == 1 && shape_is(&cfg.run.sizes[0], 1, 2, 3) && cfg.run.ld_pad == 3);
    gh_config_free(&cfg);
}

static void test_number_helpers(void)
{
    int64_t i;
    uint64_t u;
    CHECK_CONFIG(gh_parse_int64("42", &i) == 0 && i == 42);
    CHECK_CONFIG(gh_parse_int64("-9223372036854775808", &i) == 0 && i == INT64_MIN);
    CHECK_CONFIG(gh_parse_int64("9223372036854775808", &i) != 0);
    CHECK_CONFIG(gh_parse_int64("", &i) != 0 && gh_parse_int64(" 1", &i) != 0 && gh_parse_int64("1 ", &i) != 0);
    CHECK_CONFIG(gh_parse_int64("12abc", &i) != 0 && gh_parse_int64("1.5", &i) != 0);
    CHECK_CONFIG(gh_parse_size_bytes("1024", &u) == 0 && u == 1024);
    CHECK_CONFIG(gh_parse_size_bytes("1k", &u) == 0 && u == 1024);
    CHECK_CONFIG(gh_parse_size_bytes("512M", &u) == 0 && u == 512ull << 20);
    CHECK_CONFIG(gh_parse_size_bytes("4G", &u) == 0 && u == 4ull << 30);
    CHECK_CONFIG(gh_parse_size_bytes("4GiB", &u) == 0 && u == 4ull << 30);
    CHECK_CONFIG(gh_parse_size_bytes("2TB", &u) == 0 && u == 2ull << 40);
    CHECK_CONFIG(gh_parse_size_bytes("0", &u) == 0 && u == 0);
    CHECK_CONFIG(gh_parse_size_bytes("-1", &u) != 0 && gh_parse_size_bytes("4Q", &u) != 0);
    CHECK_CONFIG(gh_parse_size_bytes("1.5G", &u) != 0 && gh_parse_size_bytes("", &u) != 0);
    CHECK_CONFIG(gh_parse_size_bytes("99999999999T", &u) != 0);
    char buf[64];
    gh_origin o = {"run.ini", 12}, s = {"--set", 0};
    CHECK_CONFIG(strcmp(gh_origin_format(&o, buf, sizeof buf), "run.ini:12") == 0);
    CHECK_CONFIG(strcmp(gh_origin_format(&s, buf, sizeof buf), "--set") == 0);
}

/* A subnormal double is a number (strtod's ERANGE on underflow), and f64
 * takes any finite alpha. */
static void test_scalar_ranges(void)
{
    gh_config cfg;
    if (CHECK_CONFIG(load_text("[run]\ndtype = f64, f32\nalpha = 4.9e-324\nbeta = -1e-310\n", NULL, &cfg) == 0)) {
        CHECK_CONFIG(cfg.run.alpha == 4.9e-324 && cfg.run.beta == -1e-310);
        gh_config_free(&cfg);
    } else fprintf(stderr, "  %s\n", err);
    if (CHECK_CONFIG(load_text("[run]\ndtype = f64\nalpha = 1e300\nbeta = -1e308\n", NULL, &cfg) == 0))
        gh_config_free(&cfg);
    if (CHECK_CONFIG(load_text("[run]\ndtype = f16, bf16\nalpha = 65504\nbeta = -0.5\n", NULL, &cfg) == 0))
        gh_config_free(&cfg);
}

static void test_seed_range(void)
{
    gh_config cfg;
    if (CHECK_CONFIG(load_text("[run]\nseed = 18446744073709551615\n", NULL, &cfg) == 0))
        CHECK_CONFIG(cfg.run.seed == UINT64_MAX);
    gh_config_free(&cfg);
}

/* The keys of how results are measured: defaults, and what each sets. */
static void test_measure_keys(void)
{
    gh_config cfg;
    if (!CHECK_CONFIG(load_text("[run]\n", NULL, &cfg) == 0)) return;
    CHECK_CONFIG(cfg.run.cache_cold == 0 && cfg.run.flush_bytes == 256u << 20 && cfg.run.repeat_auto == 0 &&
                 cfg.run.repeat == 3 && cfg.run.min_repeat == 5 && cfg.run.max_repeat == 100 &&
                 cfg.run.max_time == 10 && cfg.run.target_spread == 0.02 && cfg.run.batch == 1 &&
                 fabs(cfg.run.batch_below - 20e-6) < 1e-18);
    gh_config_free(&cfg);
    if (!CHECK_CONFIG(load_text("[run]\ncache = cold\nflush_size = 64M\nrepeat = auto\nmin_repeat = 3\n"
                                "max_repeat = 40\nmax_time = 500ms\ntarget_spread = 0.05\nbatch = 8\n"
                                "batch_below = 0.1ms\n",
                                NULL, &cfg) == 0))
        return;
    CHECK_CONFIG(cfg.run.cache_cold == 1 && cfg.run.flush_bytes == 64u << 20 && cfg.run.repeat_auto == 1 &&
                 cfg.run.repeat == 40 && cfg.run.min_repeat == 3 && cfg.run.max_time == 0.5 &&
                 cfg.run.target_spread == 0.05 && cfg.run.batch == 8 && fabs(cfg.run.batch_below - 1e-4) < 1e-18);
    gh_config_free(&cfg);
    /* fleet_outputs_max (docs/fleet.md): none by default, a size in bytes */
    if (!CHECK_CONFIG(load_text("[run]\n", NULL, &cfg) == 0)) return;
    CHECK_CONFIG(cfg.run.fleet_outputs_max == 0 && cfg.run.kept_outputs == NULL);
    gh_config_free(&cfg);
    if (!CHECK_CONFIG(load_text("[run]\nfleet_outputs_max = 1MiB\n", NULL, &cfg) == 0)) return;
    CHECK_CONFIG(cfg.run.fleet_outputs_max == 1u << 20);
    gh_config_free(&cfg);
    if (!CHECK_CONFIG(load_text("[run]\nrepeat = 7\nbatch_below = 50us\n", NULL, &cfg) == 0)) return;
    CHECK_CONFIG(cfg.run.repeat_auto == 0 && cfg.run.repeat == 7 && fabs(cfg.run.batch_below - 50e-6) < 1e-18);
    gh_config_free(&cfg);
}

/* ---- bad input: every message names where and what ----------------------- */

typedef struct bad_case {
    const char *text;
    const char *set;       /* one --set, or NULL */
    const char *expect[5]; /* substrings of the message */
} bad_case;

static const bad_case bad_cases[] = {
    {"[run]\ndtype = f8\n",
     NULL,
     {"test.ini:2: [run] dtype: \"f8\" is not a dtype (allowed: f32, f64, i32, f16, bf16, e4m3, e5m2, i8)"}},
    {"[run]\nsizes = 0\n", NULL, {"test.ini:2:", "[run] sizes:", "\"0\" is not a size", "2147483647"}},
    {"[run]\nsizes = 8, -5\n", NULL, {"test.ini:2:", "[run] sizes:", "\"-5\""}},
    {"[run]\nsizes = 12x0x3\n", NULL, {"test.ini:2:", "[run] sizes:", "\"12x0x3\""}},
    {"[run]\nsizes = abc\n", NULL, {"test.ini:2:", "[run] sizes:", "\"abc\"", "MxNxK"}},
    {"[run]\nsizes = 64x64\n", NULL, {"test.ini:2:", "[run] sizes:", "\"64x64\""}},
    {"[run]\nsizes = 1x2x3x4\n", NULL, {"test.ini:2:", "[run] sizes:", "\"1x2x3x4\""}},
    {"[run]\nsizes = 2147483648\n", NULL, {"test.ini:2:", "[run] sizes:", "\"2147483648\""}},
    {"[run]\nsizes = 99999999999999999999999\n", NULL, {"test.ini:2:", "[run] sizes:", "not a size"}},
    {"[run]\nsizes = 64,,100\n", NULL, {"test.ini:2:", "[run] sizes:", "empty item"}},
    {"[run]\nsizes = 64,\n", NULL, {"test.ini:2:", "[run] sizes:", "empty item"}},
    {"[run]\n\nsizes =\n", NULL, {"test.ini:3:", "[run] sizes:", "list is empty"}},
    {"[run]\nsizes = 64, 64x64x64\n", NULL, {"test.ini:2:", "[run] sizes:", "repeats"}},
    {"[run]\ntrans = nn, xx\n", NULL, {"test.ini:2:", "[run] trans:", "\"xx\"", "allowed: nn, nt, tn, tt"}},
    {"[run]\ndtype = f32, F32\n", NULL, {"test.ini:2:", "[run] dtype:", "listed twice"}},
    {"[run]\ndtype = auto, f16\n", NULL, {"test.ini:2:", "[run] dtype:", "\"auto\" is not a dtype"}},
    {"[run]\nalpha = abc\n", NULL, {"test.ini:2:", "[run] alpha:", "not a number"}},
    {"[run]\nalpha = nan\n", NULL, {"test.ini:2:", "[run] alpha:", "not a number"}},
    {"[run]\nbeta = 1e999\n", NULL, {"test.ini:2:", "[run] beta:", "not a number"}},
    {"[run]\nbeta = 1,5\n", NULL, {"test.ini:2:", "[run] beta:", "takes one value"}},
    {"[run]\nwarmup = -1\n", NULL, {"test.ini:2:", "[run] warmup:", "from 0 to 1000000"}},
    {"[run]\nrepeat = 0\n", NULL, {"test.ini:2:", "[run] repeat:", "from 1 to"}},
    {"[run]\nrepeat = 1.5\n", NULL, {"test.ini:2:", "[run] repeat:", "\"1.5\" is not an integer"}},
    {"[run]\nrepeat = 5 6\n", NULL, {"test.ini:2:", "[run] repeat:", "\"5 6\""}},
    {"[run]\nfleet_outputs_max = lots\n",
     NULL,
     {"test.ini:2: [run] fleet_outputs_max: \"lots\" is not a size in bytes"}},
    /* how results are measured (config_measure.c) */
    {"[run]\ncache = lukewarm\n",
     NULL,
     {"test.ini:2: [run] cache: \"lukewarm\" is not a cache state (allowed: warm, cold)"}},
    {"[run]\nrepeat = auto\nmin_repeat = 10\nmax_repeat = 5\n",
     NULL,
     {"test.ini:3: [run] min_repeat:", "min_repeat (10) at most max_repeat (5)"}},
    {"[run]\nrepeat = auto\nmax_repeat = 3\n", NULL, {"test.ini:3: [run] max_repeat:", "at most max_repeat (3)"}},
    {"[run]\ntarget_spread = 0\n", NULL, {"test.ini:2: [run] target_spread:", "\"0\" is not a spread", "above 0"}},
    {"[run]\ntarget_spread = -0.1\n", NULL, {"test.ini:2: [run] target_spread:", "above 0"}},
    {"[run]\nmax_time = -1s\n", NULL, {"test.ini:2: [run] max_time: \"-1s\" is not a duration above 0"}},
    {"[run]\nmax_time = 0\n", NULL, {"test.ini:2: [run] max_time:", "above 0"}},
    {"[run]\nrepeat = soon\n", NULL, {"test.ini:2: [run] repeat:", "\"soon\" is not an integer"}},
    {"[run]\nmin_repeat = 0\n", NULL, {"test.ini:2: [run] min_repeat:", "from 1 to"}},
    {"[run]\nflush_size = 0\n", NULL, {"test.ini:2: [run] flush_size:", "not a size in bytes above 0"}},
    {"[run]\nbatch = 0\n", NULL, {"test.ini:2: [run] batch:", "from 1 to"}},
    {"[run]\nbatch_below = fast\n", NULL, {"test.ini:2: [run] batch_below:", "\"fast\" is not a duration"}},
    {"[run]\n", "run.cache=tepid", {"--set run.cache=tepid: [run] cache:", "allowed: warm, cold"}},
    {"[run]\nseed = -1\n", NULL, {"test.ini:2:", "[run] seed:", "not a seed"}},
    {"[run]\nseed = 18446744073709551616\n", NULL, {"test.ini:2:", "[run] seed:", "not a seed"}},
    {"[run]\nseed = 0x\n", NULL, {"test.ini:2:", "[run] seed:", "not a seed"}},
    {"[run]\nverify = maybe\n",
     NULL,
     {"test.ini:2:", "[run] verify:", "\"maybe\"", "allowed: auto, full, freivalds, sample, none"}},
    {"[run]\nfull_max = -1\n", NULL, {"test.ini:2:", "[run] full_max:", "negative"}},
    {"[run]\nfreivalds_trials = 0\n", NULL, {"test.ini:2:", "[run] freivalds_trials:", "from 1 to"}},
    {"[run]\nsamples = 0\n", NULL, {"test.ini:2:", "[run] samples:", "from 1 to"}},
    {"[run]\nld_pad = -1\n", NULL, {"test.ini:2:", "[run] ld_pad:", "from 0 to"}},
    {"[run]\nguard = lots\n", NULL, {"test.ini:2:", "[run] guard:", "from 0 to"}},
    {"[run]\noutput = a, b\n", NULL, {"test.ini:2:", "[run] output:", "takes one value"}},
    {"[run]\nplugin_dir =\n", NULL, {"test.ini:2:", "[run] plugin_dir:", "list is empty"}},
    {"[run]\nsizes = 8\nsizez = 64\n", NULL, {"test.ini:3:", "[run] sizez:", "unknown key", "allowed: sizes,"}},
    {"[run]\ndtype = i32\nalpha = 0.5\n", NULL, {"test.ini:3:", "[run] alpha:", "i32"}},
    {"[run]\nbeta = 2.5\ndtype = f32, i32\n", NULL, {"test.ini:2:", "[run] beta:", "i32"}},
    /* alpha and beta in each dtype's range: beyond it they are infinite in the kernels */
    {"[run]\ndtype = f32\nalpha = 1e300\n",
     NULL,
     {"test.ini:3: [run] alpha: \"1e300\" is outside the range of dtype f32", "leave f32 out of dtype"}},
    {"[run]\ndtype = f64, f16\nbeta = -70000\n", NULL, {"test.ini:3: [run] beta:", "range of dtype f16"}},
    {"[run]\ndtype = bf16\nalpha = 3.4e38\n", NULL, {"test.ini:3: [run] alpha:", "range of dtype bf16"}},
    {"[run]\ndtype = i32\nalpha = 3e9\n", NULL, {"test.ini:3: [run] alpha:", "which dtype i32 needs"}},
    {"[run]\nalpha = 1e300\n", "run.dtype=f64, f32", {"test.ini:2: [run] alpha:", "range of dtype f32"}},
    {"[run]\nalpha = -1e309\n", NULL, {"test.ini:2: [run] alpha:", "not a number a double can hold"}},
    /* sections */
    {"[foo]\n", NULL, {"test.ini:1:", "[foo]", "unknown section", "[backend NAME]"}},
    {"[run]\n[Backend cpu]\n", NULL, {"test.ini:2:", "[Backend cpu]", "unknown section"}},
    {"[backend]\n", NULL, {"test.ini:1:", "[backend]", "needs a name"}},
    {"[backend my gpu]\n", NULL, {"test.ini:1:", "\"my gpu\" is not a section name"}},
    {"[backend a.b]\n", NULL, {"test.ini:1:", "\"a.b\" is not a section name"}},
    {"[split]\n", NULL, {"test.ini:1:", "[split]", "needs a name"}},
    {"[run x]\n", NULL, {"test.ini:1:", "[run x]", "takes no name"}},
    {"[run\nsizes = 8\n", NULL, {"test.ini:1:", "expected \"]\""}},
    {"[run]\n[backend cpu]#no blank before the comment\n", NULL, {"test.ini:2:", "expected \"]\""}},
    {"[run]\n[run]\n", NULL, {"test.ini:2:", "[run]", "duplicate section (first at line 1)"}},
    {"[backend cpu]\n\n[backend cpu]\n", NULL, {"test.ini:3:", "[backend cpu]", "duplicate section (first at line 1)"}},
    {"[backend cpu]\n[split cpu]\nbackends = cpu\n",
     NULL,
     {"test.ini:2:", "[split cpu]", "already used by [backend cpu] at line 1"}},
    /* lines and keys */
    {"sizes = 64\n", NULL, {"test.ini:1:", "outside any section"}},
    {"[run]\nsizes 64\n", NULL, {"test.ini:2:", "expected \"[section]\" or \"key = value\"", "sizes 64"}},
    {"[run]\n= 64\n", NULL, {"test.ini:2:", "key name is missing"}},
    {"[run]\n    64\n", NULL, {"test.ini:2:", "continues no key"}},
    {"[run]\nsizes = 64\nrepeat = 3\nsizes = 65\n",
     NULL,
     {"test.ini:4:", "[run] sizes:", "duplicate key (first at line 2)"}},
    {"[backend cpu]\ntile = 8\ntile = 16\n", NULL, {"test.ini:3:", "[backend cpu] tile:", "duplicate key"}},
    {"[backend cpu]\ntile = 8,\n", NULL, {"test.ini:2:", "[backend cpu] tile:", "empty item"}},
    {"[backend cpu]\nkernels =\n", NULL, {"test.ini:2:", "[backend cpu] kernels:", "list is empty"}},
    {"[backend cpu]\nkernels = naive, naive\n", NULL, {"test.ini:2:", "[backend cpu] kernels:", "listed twice"}},
    {"[backend cpu]\nplugin =\n", NULL, {"test.ini:2:", "[backend cpu] plugin:", "empty"}},
    {"[backend cpu]\ndevices = 0,,1\n", NULL, {"test.ini:2:", "[backend cpu] devices:", "empty item"}},
    /* splits */
    {"[split g]\npanel = 4\n", NULL, {"test.ini:1:", "[split g]", "missing key backends"}},
    {"[backend cpu]\n[split g]\nbackends = cpu, gpu9\n",
     NULL,
     {"test.ini:3:", "[split g] backends:", "\"gpu9\" is not a [backend] section", "backends: cpu"}},
    {"[split g]\nbackends = gpu9\n", NULL, {"test.ini:2:", "[split g] backends:", "there are none"}},
    {"[backend cpu]\n[split g]\nbackends = cpu, cpu\n", NULL, {"test.ini:3:", "[split g] backends:", "listed twice"}},
    {"[backend cpu]\n[split g]\nbackends = cpu\npanel = 0\n", NULL, {"test.ini:4:", "[split g] panel:", "from 1 to"}},
    {"[backend cpu]\n[split g]\nbackends = cpu\nmem_limit = 4Q\n",
     NULL,
     {"test.ini:4:", "[split g] mem_limit:", "\"4Q\" is not a size in bytes"}},
    {"[backend cpu]\n[split g]\nbackends = cpu\nstream_width = 4\n",
     NULL,
     {"test.ini:4:", "[split g] stream_width:",
      "unknown key (allowed: backends, panel, mem_limit, kernel, numa, b_copy, ranks, hosts)"}},
    {"[backend cpu]\n[split g]\nbackends = cpu\nnuma = maybe\n",
     NULL,
     {"test.ini:4:", "[split g] numa:", "\"maybe\" is not a NUMA mode (allowed: auto, off)"}},
    /* --set */
    {"[run]\n", "run.dtype=f8", {"--set run.dtype=f8: [run] dtype: \"f8\" is not a dtype"}},
    {"[run]\ndtype = f32\n", "run.dtype=f8", {"--set run.dtype=f8:", "[run] dtype:"}},
    /* 8-bit types (config_types.c) */
    {"[run]\ndtype = e4m3\nc_dtype = i32\n", NULL, {"test.ini:3: [run] c_dtype:", "i32 does not fit dtype e4m3"}},
    {"[run]\ndtype = i8\nc_dtype = f16\n", NULL, {"test.ini:3: [run] c_dtype:", "f16 does not fit dtype i8"}},
    {"[run]\ndtype = e4m3\nc_dtype = e4m3\n", NULL, {"test.ini:3: [run] c_dtype:", "\"e4m3\" is not C's type"}},
    {"[run]\ndtype = i8\nb_dtype = e5m2\n", NULL, {"test.ini:3: [run] b_dtype:", "e5m2 does not fit dtype i8"}},
    {"[run]\ndtype = e5m2\nb_dtype = i8\n", NULL, {"test.ini:3: [run] b_dtype:", "i8 does not fit dtype e5m2"}},
    {"[run]\ndtype = e4m3\nb_dtype = f32\n", NULL, {"test.ini:3: [run] b_dtype:", "\"f32\" is not B's"}},
    {"[run]\ndtype = e4m3\nscale_a = 0\n", NULL, {"test.ini:3: [run] scale_a: \"0\" is not a scale"}},
    {"[run]\ndtype = e4m3\nscale_b = -2\n", NULL, {"test.ini:3: [run] scale_b: \"-2\" is not a scale"}},
    {"[run]\ndtype = e4m3\nscale_c = nan\n", NULL, {"test.ini:3: [run] scale_c: \"nan\" is not a scale"}},
    {"[run]\ndtype = e4m3\nscale_c = inf\n", NULL, {"test.ini:3: [run] scale_c:", "not a scale"}},
    {"[run]\ndtype = e4m3\nscale_a = 1e-300\n", NULL, {"test.ini:3: [run] scale_a:", "that f32 holds"}},
    {"[run]\ndtype = i8\nalpha = 0.5\n", NULL, {"test.ini:3: [run] alpha:", "whole number", "dtype i8 needs"}},
    {"[run]\ndtype = e4m3, i8\nbeta = 1.5\n", NULL, {"test.ini:3: [run] beta:", "dtype i8 needs"}},
    {"[run]\ndtype = i8\nscale_b = 2\n", NULL, {"test.ini:3: [run] scale_b:", "i8 takes scales of 1 only"}},
    {"[run]\ndtype = f32\nc_dtype = f16\n", NULL, {"test.ini:3: [run] c_dtype:", "8-bit dtypes", "has none"}},
    {"[run]\ndtype = auto\nscale_a = 2\n", NULL, {"test.ini:3: [run] scale_a:", "auto never picks them"}},
    {"[run]\ndtype = e4m3\nc_dtype = f16\nalpha = 1e5\n", NULL, {"test.ini:4: [run] alpha:", "range of dtype f16"}},
    {"[run]\ndtype = e4m3\n", "run.c_dtype=i32", {"--set run.c_dtype=i32: [run] c_dtype:", "does not fit"}},
    {"[backend cpu]\n", "gpu.tile=1", {"--set gpu.tile=1:", "no [backend gpu] section in test.ini"}},
    {"[backend cpu]\n", "backend.gpu.tile=1", {"--set backend.gpu.tile=1:", "no [backend gpu] section"}},
    {"[backend cpu]\n", "split.nope.panel=1", {"--set split.nope.panel=1:", "no [split nope] section"}},
    {"[run]\n", "runsizes=64", {"--set runsizes=64:", "expected SECTION.KEY=VALUE"}},
    {"[run]\n", "run.sizes", {"--set run.sizes:", "expected SECTION.KEY=VALUE"}},
    {"[run]\n", ".sizes=4", {"--set .sizes=4:", "a section and a key"}},
    {"[run]\n", "run.=4", {"--set run.=4:", "a section and a key"}},
    {"[run]\n", "run.bogus=1", {"--set run.bogus=1:", "[run] bogus:", "unknown key"}},
    {"[backend cpu]\n[split g]\nbackends = cpu\n", "split.g.panel=0", {"--set split.g.panel=0:", "[split g] panel:"}},
    {"[backend cpu]\n", "cpu.kernels=", {"--set cpu.kernels=:", "[backend cpu] kernels:", "list is empty"}},
};

/* The 8-bit dtypes' other types and scales (config_types.c). */
static void test_8bit_types(void)
{
    gh_config cfg;
    if (CHECK_CONFIG(load_text("[run]\ndtype = e4m3, e5m2, i8, f32\n", NULL, &cfg) == 0)) {
        gh_case_types t = gh_run_case_types(&cfg.run, GH_E4M3);
        CHECK_CONFIG(t.a == GH_E4M3 && t.b == GH_E4M3 && t.c == GH_F32 && t.explicit_types == 1 && t.scale_a == 1 &&
                     t.scale_b == 1 && t.scale_c == 1);
        t = gh_run_case_types(&cfg.run, GH_I8);
        CHECK_CONFIG(t.a == GH_I8 && t.b == GH_I8 && t.c == GH_I32 && t.explicit_types == 1);
        t = gh_run_case_types(&cfg.run, GH_F32);
        CHECK_CONFIG(t.a == GH_F32 && t.b == GH_F32 && t.c == GH_F32 && t.explicit_types == 0);
        gh_config_free(&cfg);
    }
    if (CHECK_CONFIG(load_text("[run]\ndtype = e4m3, e5m2\nb_dtype = e5m2\nc_dtype = bf16\nscale_a = 0.5\n"
                               "scale_b = 4\nscale_c = 0.125\n",
                               NULL, &cfg) == 0)) {
        gh_case_types t = gh_run_case_types(&cfg.run, GH_E4M3);
        CHECK_CONFIG(t.a == GH_E4M3 && t.b == GH_E5M2 && t.c == GH_BF16 && t.scale_a == 0.5 && t.scale_b == 4 &&
                     t.scale_c == 0.125);
        gh_config_free(&cfg);
    }
    if (CHECK_CONFIG(load_text("[run]\ndtype = i8\nc_dtype = i32\nalpha = -3\nbeta = 2\n", NULL, &cfg) == 0))
        gh_config_free(&cfg);
}

/* Each case is one check. */
static void run_bad_cases(void)
{
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_case *c = &bad_cases[i];
        case_name = "bad input";
        gh_config cfg;
        memset(&cfg, 0x5a, sizeof cfg);
        int rc = load_text(c->text, c->set, &cfg);
        int ok = rc == -1 && cfg.path == NULL && cfg.n_backends == 0 && strchr(err, '\n') == NULL;
        for (int j = 0; j < 5 && c->expect[j]; j++) ok = ok && strstr(err, c->expect[j]) != NULL;
        if (!CHECK_CONFIG(ok))
            fprintf(stderr, "  case %zu: text \"%s\" set %s\n  got rc %d: %s\n", i, c->text, c->set ? c->set : "-", rc,
                    err);
        if (rc == 0) gh_config_free(&cfg);
    }
}

static void test_too_long_line(void)
{
    char text[600] = "[run]\nsizes = 1";
    for (int i = 2; strlen(text) < 400; i++) snprintf(text + strlen(text), sizeof text - strlen(text), ", %d", i);
    strcat(text, "\n");
    gh_config cfg;
    CHECK_CONFIG(load_text(text, NULL, &cfg) == -1);
    CHECK_CONFIG(strstr(err, "test.ini:2:") && strstr(err, "longer than") && strstr(err, "next line"));
}

/* A 5000-character value is echoed shortened, so the reason after it fits
 * in the message (it was cut off inside the value). */
static void test_long_values_shortened(void)
{
    static char text[6000], set[6000];
    char value[5002];
    memset(value, '9', 5000);
    strcpy(value + 5000, "x");
    /* a list continued over 250 lines, with a doubled comma at its end */
    strcpy(text, "[run]\nsizes = 1");
    for (int line = 0; line < 250; line++) strcat(text, "\n  2, 3, 4, 5, 6");
    strcat(text, ",,\n");
    gh_config cfg;
    if (!CHECK_CONFIG(load_text(text, NULL, &cfg) == -1 && strlen(err) < 300 &&
                      strstr(err, "test.ini:2: [run] sizes:") &&
                      strstr(err, "... (3753 characters)\" has an empty item")))
        fprintf(stderr, "  got: %.300s\n", err);
    snprintf(set, sizeof set, "run.alpha=%s", value);
    if (!CHECK_CONFIG(load_text("[run]\n", set, &cfg) == -1 && strlen(err) < 300 &&
                      strstr(err, "--set run.alpha=999") && strstr(err, "(5011 characters): [run] alpha: \"999") &&
                      strstr(err, "9... (5001 characters)\" is not a number")))
        fprintf(stderr, "  got: %.300s\n", err);
    snprintf(text, sizeof text, "[run]\n%s\n", value);
    if (!CHECK_CONFIG(load_text(text, NULL, &cfg) == -1 && strlen(err) < 300 && strstr(err, "(5001 characters)\"") &&
                      strstr(err, "expected \"[section]\" or \"key = value\"")))
        fprintf(stderr, "  got: %.300s\n", err);
}

/* Expects loading `path` to fail with a message holding each substring. */
static void expect_file_error(const char *path, const char *a, const char *b, const char *c)
{
    gh_config cfg;
    int rc = gh_config_load_file(path, NULL, 0, &cfg, err, sizeof err);
    if (!CHECK_CONFIG(rc == -1 && strstr(err, a) && strstr(err, b) && (!c || strstr(err, c))))
        fprintf(stderr, "  %s: got rc %d: %s\n", path, rc, err);
    if (rc == 0) gh_config_free(&cfg);
}

static void test_bad_files(void)
{
    expect_file_error(CONFIG_TEST_FILES "/bad_dtype.ini", CONFIG_TEST_FILES "/bad_dtype.ini:7: [run] dtype: ",
                      "\"f8\" is not a dtype (allowed: f32, f64, i32, f16, bf16, e4m3, e5m2, i8)", NULL);
    expect_file_error(CONFIG_TEST_FILES "/bad_line.ini", "bad_line.ini:3:", "this line has no equals sign", NULL);
    expect_file_error(CONFIG_TEST_FILES "/bad_split.ini", "bad_split.ini:2: [split gpus] backends:", "\"gpu9\"",
                      "backends: cpu");
    expect_file_error(CONFIG_TEST_FILES "/no-such-file.ini", "no-such-file.ini", "No such file or directory", NULL);
    expect_file_error(CONFIG_TEST_FILES, CONFIG_TEST_FILES, "Is a directory", NULL);
    expect_file_error("/dev/null", "/dev/null: the config is empty (no sections, no keys)", "--config", NULL);
    expect_file_error(CONFIG_TEST_FILES "/comments_only.ini", "comments_only.ini: the config is empty", "[run]", NULL);
}

static void test_nul_byte(void)
{
    char path[] = "/tmp/gemmhost-config-test-XXXXXX";
    int fd = mkstemp(path);
    if (!CHECK_CONFIG(fd >= 0)) return;
    const char data[] = "[run]\nsizes = 6\0 4\n";
    CHECK_CONFIG(write(fd, data, sizeof data - 1) == (ssize_t)(sizeof data - 1));
    close(fd);
    expect_file_error(path, path, "NUL byte", NULL);
    unlink(path);
}

int main(void)
{
    check_quiet = 1; /* failures and the summary only */
    run_test("empty text gives defaults", test_empty_text_gives_defaults);
    run_test("built-in default", test_builtin_default);
    run_test("good file", test_good_file);
    run_test("measure keys", test_measure_keys);
    run_test("CRLF and BOM", test_crlf_and_bom);
    run_test("comments", test_comments);
    run_test("backend defaults", test_backend_defaults);
    run_test("split defaults, forward reference", test_split_defaults_and_forward_reference);
    run_test("continuation lines", test_continuation_lines);
    run_test("long lines with comments", test_long_lines);
    run_test("--set overrides", test_set_overrides);
    run_test("number helpers", test_number_helpers);
    run_test("seed range", test_seed_range);
    run_test("alpha and beta ranges", test_scalar_ranges);
    run_test("8-bit types", test_8bit_types);
    run_bad_cases();
    run_test("too long line", test_too_long_line);
    run_test("long values shortened", test_long_values_shortened);
    run_test("bad files", test_bad_files);
    run_test("NUL byte", test_nul_byte);
    return check_summary("test_config");
}
