/* The checks that catch lying plugins (reported.c, input_guard.c) and the
 * cancel flag (cancel.c), in process: each rule on its own, with inputs
 * chosen to break it. Then a split over the C plugin after a SIGINT: its
 * member threads must stop between tasks. argv[1]: the C plugin. */
#define _POSIX_C_SOURCE 200809L
#define CHECK_MAIN
#include "../check.h"

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cancel.h"
#include "data.h"
#include "input_guard.h"
#include "loader.h"
#include "reported.h"
#include "split.h"

/* ---- kernel times -------------------------------------------------------- */

static void test_times(void)
{
    EXPECT(gh_reported_time_ok(1.5) && gh_reported_time_ok(1e-6), "a positive time is a time");
    EXPECT(!gh_reported_time_ok(0.0), "0 ms is no time");
    EXPECT(!gh_reported_time_ok(-1.0), "-1 ms is no time");
    EXPECT(!gh_reported_time_ok(NAN) && !gh_reported_time_ok(-NAN), "NaN is no time");
    EXPECT(!gh_reported_time_ok(INFINITY), "Inf is no time");
}

/* ---- device counts and infos: a plugin table made here -------------------- */

static int fake_count;
static int info_calls;
static gh_device_info fake_infos[3];

static int fake_device_count(gh_plugin *ctx)
{
    (void)ctx;
    return fake_count;
}

static const gh_device_info *fake_device_info(gh_plugin *ctx, int d)
{
    (void)ctx;
    info_calls++;
    return d >= 0 && d < 3 ? &fake_infos[d] : NULL;
}

static int devices(const char *expect_in_why, int count, char *why, size_t size)
{
    gh_plugin_api api = {.name = "liar", .device_count = fake_device_count, .device_info = fake_device_info};
    fake_count = count;
    info_calls = 0;
    why[0] = '\0';
    int got = gh_reported_devices(&api, NULL, why, size);
    return expect_in_why ? got == -1 && strstr(why, expect_in_why) != NULL : got;
}

static void test_devices(void)
{
    const gh_device_info good = {sizeof(gh_device_info), "Good", "v", "1", "api", "", 1, 0, 1, 0, 0, 1, ""};
    for (int i = 0; i < 3; i++) fake_infos[i] = good;
    char why[256];
    EXPECT(devices(NULL, 3, why, sizeof why) == 3, "three good devices: %s", why);
    EXPECT(devices(NULL, 0, why, sizeof why) == 0, "no device is no lie: %s", why);
    EXPECT(devices("plugin liar claims 1048576 devices (more than 1024)", 1 << 20, why, sizeof why), "2^20 devices: %s",
           why);
    EXPECT(info_calls == 0, "2^20 devices: no info asked for (%d asked)", info_calls);
    EXPECT(devices(NULL, GH_MAX_DEVICES + 1, why, sizeof why) == -1, "1025 devices refused");
    EXPECT(devices("claims -3 devices", -3, why, sizeof why), "a negative count: %s", why);
    EXPECT(devices("gives device 3 of its 4 no info (NULL)", 4, why, sizeof why), "a NULL info: %s", why);
    fake_infos[1].name = NULL;
    EXPECT(devices("device 1 of its 3 a NULL name", 3, why, sizeof why), "a NULL name: %s", why);
    fake_infos[1].name = "";
    EXPECT(devices("an empty name", 3, why, sizeof why), "an empty name: %s", why);
    fake_infos[1] = good;
    fake_infos[2].api = NULL;
    EXPECT(devices("device 2 of its 3 a NULL api", 3, why, sizeof why), "a NULL api: %s", why);
    /* An older minor's shorter info: members past its size are not read. */
    fake_infos[2] = good;
    fake_infos[2].size = offsetof(gh_device_info, api);
    fake_infos[2].api = NULL;
    fake_infos[2].platform = NULL;
    EXPECT(devices(NULL, 3, why, sizeof why) == 3, "a short info is asked only what it has: %s", why);
}

/* ---- input fingerprints ---------------------------------------------------- */

static void test_hash(void)
{
    size_t n = 1000;
    unsigned char *buf = calloc(n, 1);
    uint64_t h0 = gh_input_hash(buf, n);
    int all_seen = 1;
    for (size_t byte = 0; byte < n; byte++)
        for (int bit = 0; bit < 8; bit++) {
            buf[byte] ^= (unsigned char)(1u << bit);
            all_seen &= gh_input_hash(buf, n) != h0;
            buf[byte] ^= (unsigned char)(1u << bit);
        }
    EXPECT(all_seen, "every single-bit change of 1000 bytes changes the hash");
    EXPECT(gh_input_hash(buf, n) == h0, "the same bytes hash the same");
    EXPECT(gh_input_hash(buf, n - 1) != h0, "the length counts");
    free(buf);
    /* Past the threaded size: parts hashed apart must still see one bit. */
    n = ((size_t)160 << 20) + 13;
    buf = malloc(n);
    if (!buf) {
        check_skip("hash of 160 MiB: out of memory");
        return;
    }
    for (size_t i = 0; i < n; i++) buf[i] = (unsigned char)(i * 131);
    h0 = gh_input_hash(buf, n);
    EXPECT(gh_input_hash(buf, n) == h0, "160 MiB: the same bytes hash the same");
    buf[n / 2] ^= 4;
    EXPECT(gh_input_hash(buf, n) != h0, "160 MiB: one bit in the middle changes it");
    buf[n / 2] ^= 4;
    buf[n - 1] ^= 1;
    EXPECT(gh_input_hash(buf, n) != h0, "160 MiB: the last bit changes it");
    free(buf);
}

static void test_guard(void)
{
    gh_matrix a, b;
    gh_matrix_alloc(&a, GH_F32, 5, 7, 9, 4);
    gh_matrix_alloc(&b, GH_F64, 3, 3, 3, 2);
    gh_matrix_fill_random(&a, 1, 0, 16);
    gh_matrix_fill_random(&b, 1, 1, 16);
    gh_input_guard g = {0};
    gh_input_guard_watch(&g, "A", &a);
    gh_input_guard_watch(&g, "B", &b);
    char changed[64];
    EXPECT(gh_input_guard_check(&g, changed, sizeof changed) == 0 && !changed[0], "untouched: no change");
    ((unsigned char *)a.storage)[gh_matrix_storage_bytes(&a) - 1] ^= 1; /* the last guard byte */
    EXPECT(gh_input_guard_check(&g, changed, sizeof changed) == 1 && !strcmp(changed, "A"), "A's guard: %s", changed);
    gh_matrix_set(&b, 2, 2, 99.0);
    EXPECT(gh_input_guard_check(&g, changed, sizeof changed) == 2 && !strcmp(changed, "A and B"), "A and B: %s",
           changed);
    EXPECT(gh_input_guard_reset(&g) == 0, "reset");
    EXPECT(gh_matrix_check_guards(&a, NULL) == 0 && gh_matrix_is_poison(&b, 2, 2),
           "reset: guards as allocated, "
           "the matrix poisoned");
    gh_matrix_fill_random(&a, 1, 0, 16);
    gh_matrix_fill_random(&b, 1, 1, 16);
    EXPECT(gh_input_guard_check(&g, changed, sizeof changed) == 0, "drawn again: as they were (%s)", changed);
    gh_input_guard_seal(&g);
    EXPECT(gh_input_guard_check(&g, changed, sizeof changed) == 0, "sealed: no change");
    gh_matrix_free(&a);
    gh_matrix_free(&b);
}

/* ---- cancel ---------------------------------------------------------------- */

static int is_default(int sig)
{
    struct sigaction sa;
    return sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_DFL;
}

static void test_cancel(void)
{
    EXPECT(gh_cancel_requested() == 0 && gh_cancel_exit_status() == 0 && !*gh_cancel_signal_name(),
           "nothing asked yet");
    struct sigaction sa;
    /* Ignored when it started (nohup, a script's background job): left ignored. */
    signal(SIGTERM, SIG_IGN);
    gh_cancel_install();
    sigaction(SIGTERM, NULL, &sa);
    EXPECT(sa.sa_handler == SIG_IGN, "an ignored SIGTERM stays ignored");
    gh_cancel_uninstall();
    signal(SIGTERM, SIG_DFL);
    gh_cancel_install();
    sigaction(SIGINT, NULL, &sa);
    EXPECT(sa.sa_handler != SIG_DFL && !(sa.sa_flags & SA_RESTART), "SIGINT caught, no SA_RESTART");
    sigaction(SIGTERM, NULL, &sa);
    EXPECT(sa.sa_handler != SIG_DFL && !(sa.sa_flags & SA_RESTART), "SIGTERM caught, no SA_RESTART");
    raise(SIGINT); /* this process goes on: the handler only records it */
    EXPECT(gh_cancel_requested() == SIGINT, "SIGINT recorded (%d)", gh_cancel_requested());
    EXPECT(gh_cancel_exit_status() == 130, "exit status 130 (%d)", gh_cancel_exit_status());
    EXPECT(!strcmp(gh_cancel_signal_name(), "SIGINT"), "named SIGINT (%s)", gh_cancel_signal_name());
    EXPECT(is_default(SIGINT) && is_default(SIGTERM), "a second SIGINT or SIGTERM kills: both back to the default");
}

/* A split after the signal: every member stops before its first task. */
static void test_split_stops(const char *cpu_path)
{
    gh_loaded_plugin cpu;
    gh_plugin *ctx = NULL;
    if (gh_plugin_load(cpu_path, &cpu) != 0 || cpu.api->open(NULL, 0, &ctx) != GH_OK) {
        EXPECT(0, "cannot load the C plugin from %s: %s", cpu_path, cpu.error ? cpu.error : "open failed");
        gh_plugin_unload(&cpu);
        return;
    }
    gh_split_member mb = {.backend = "cpu",
                          .api = cpu.api,
                          .abi_minor = cpu.abi_minor,
                          .ctx = ctx,
                          .kernel = 0,
                          .kernel_info = cpu.api->kernel_info(ctx, 0),
                          .params_label = ""};
    gh_matrix a, b, c;
    gh_matrix_alloc(&a, GH_F32, 32, 32, 32, 0);
    gh_matrix_alloc(&b, GH_F32, 32, 32, 32, 0);
    gh_matrix_alloc(&c, GH_F32, 32, 32, 32, 0);
    gh_matrix_fill_random(&a, 1, 0, 16);
    gh_matrix_fill_random(&b, 1, 1, 16);
    gh_split_problem p = {GH_F32, 0, 0, 32, 32, 32, 1.0, 0.0, &a, &b, NULL, &c, {0}};
    gh_split_member_stats st;
    gh_split_outcome out = {.members = &st};
    const gh_split_options opt = {8, 0, GH_SPLIT_NUMA_OFF, GH_SPLIT_B_AUTO, 0};
    gh_status s = gh_split_run(&mb, 1, &opt, &p, &out);
    EXPECT(s != GH_OK && strstr(out.error, "stopped by SIGINT between tasks"), "the split stopped: %s", out.error);
    EXPECT(st.gemms == 0, "no GEMM after the signal (%lld)", (long long)st.gemms);
    gh_matrix_free(&a);
    gh_matrix_free(&b);
    gh_matrix_free(&c);
    cpu.api->close(ctx);
    gh_plugin_unload(&cpu);
}

int main(int argc, char **argv)
{
    test_times();
    test_devices();
    test_hash();
    test_guard();
    test_cancel(); /* last but one: the flag stays set */
    if (argc > 1) test_split_stops(argv[1]);
    else check_skip("split after a signal: no C plugin path given");
    return check_summary("test_resilience");
}
