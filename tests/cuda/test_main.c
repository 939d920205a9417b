/*
 * Test of what is particular to the CUDA plugin, through the plugin ABI as
 * the host sees it (the generic promises of plugin.h, checked on every
 * plugin, are gemmhost-conformance's: entry, options, last_error, buffer and
 * gemm refusals):
 *   gemmhost-cuda-test [--full] [--compile-only | --device-only]
 *                      <path to gemmhost-cuda.so> <kernels/cuda folder>
 *
 * Both parts run without a flag; each flag runs one of them.
 *
 * The compile part needs no device: the table (the streams and host memory
 * of ABI minor 1, the kernel_dir option, the compile extras, nothing
 * exported but the entry), the kernels, their parameters and declared
 * arithmetic, kernel_dir and $GEMMHOST_KERNEL_DIR, and NVRTC: naive and
 * tiled compiled in every dtype and tile and blocked in one variant, a
 * compile error reported with NVRTC's log, every kernel NVRTC builds at its
 * default (mma at its smallest shape) in every dtype for sm_90
 * (test_compile_sample.c), and the compile extra's refusals
 * (test_compile_half.c, test_compile_warptile.c), and the 8-bit
 * combinations of naive, tiled and blocked (test_compile_8bit.c).
 *
 * The device part: with no driver or device, the reason names CUDA, and
 * host_alloc (which needs device 0's context) says so; then the test exits
 * 77 (skipped) unless something failed. With a device: every kernel variant
 * on odd shapes against a host reference (test_gemm.c: f32, f64, i32;
 * test_half.c: f16, bf16 and cublas-tf32 by the host's verification;
 * test_8bit.c: e4m3, e5m2 and i8, cuBLASLt's FP8 and int8), the
 * device's limits (test_limits.c) and the streams (test_streams.c). The
 * speed table is gemmhost-cuda-perf's (perf_main.c), not a verdict here.
 *
 * --full (ctest's cuda_nvrtc_full, label full-sweep, which tools/test.sh
 * leaves out; tools/gpu-check.sh) adds the long sweep: NVRTC compiles every
 * kernel variant for sm_90, among them 40 of blocked (8 per dtype) at about
 * a second each, the f16 and bf16 kernels and mma's default for sm_80 and
 * sm_75 too, mma's and wgmma's samples, and warptile's default for sm_80
 * and sm_75 and its samples for sm_80; without it those are skips.
 *
 * GEMMHOST_CUDA_TEST_REQUIRE_DEVICE=1 fails when there is no device (for the
 * GPU machine); GEMMHOST_CUDA_TEST_NO_PERF=1 skips the timing run (the
 * check that copies and GEMMs on two streams overlap);
 * GEMMHOST_CUDA_TEST_PARTS=half,streams runs only the named device parts
 * (limits, gemm, half, 8bit, streams; all when unset), so that the GPU
 * machine's ten-minute calls can take them in turns;
 * GEMMHOST_CUDA_TEST_MAX_DIM=N skips shapes with a dimension over N (for a
 * quick run); GEMMHOST_CUDA_TEST_QUICK=1 compiles each kernel in one dtype,
 * not in each, and blocked and wgmma at a small variant (the sanitizer
 * build; ignored with --full);
 * GEMMHOST_TEST_VERBOSE=1 prints every passing check too. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CHECK_MAIN
#include "cuda_test.h"
#include "gemmhost_cuda_extras.h"

static int contains(const char *s, const char *part)
{
    return s && strstr(s, part) != NULL;
}

/* ---- loading, and what the CUDA plugin's table offers ---- */

static const gh_plugin_api *load_plugin(const char *path, gh_test_plugin *h)
{
    int loaded = gh_test_plugin_load(h, path) == 0;
    if (!CHECK(loaded, "the plugin loads without a CUDA driver in the way and negotiates ABI %d.%d%s%s",
               GEMMHOST_ABI_MAJOR, GEMMHOST_ABI_MINOR, loaded ? "" : ": ", loaded ? "" : h->error))
        return NULL;
    void *lib = h->library;
    const gh_plugin_api *api = h->api;

    /* The build hides everything but the entry: the plugin's own names and
     * the helpers' error text stay inside it. */
    const char *internal[] = {"gh_plugin_error_text", "gh_cuda_driver", "gh_cuda_gemm", "gh_cuda_kernel_sources"};
    for (size_t i = 0; i < sizeof internal / sizeof internal[0]; ++i)
        CHECK(dlsym(lib, internal[i]) == NULL, "internal symbol %s is hidden", internal[i]);

    CHECK(api->name && strcmp(api->name, "cuda") == 0, "plugin name is \"cuda\" (got %s)",
          api->name ? api->name : "NULL");
    /* ABI minor 1: the multi-device split uses them all on NVIDIA GPUs. */
    CHECK(h->abi_minor == GEMMHOST_ABI_MINOR && GH_HAS_MEMBER(api, gh_plugin_api, host_free) && api->stream_create &&
              api->stream_destroy && api->upload_2d_async && api->download_2d_async && api->gemm_async &&
              api->stream_synchronize && api->host_alloc && api->host_free,
          "the ABI minor 1 members (streams, 2D copies, gemm_async, host memory) are all set");
    CHECK(api->n_options == 1 && strcmp(api->options[0].name, "kernel_dir") == 0 && api->options[0].description[0] &&
              strcmp(api->options[0].default_value, "") == 0,
          "one option, kernel_dir, described, default \"\" (built in)");
    CHECK(api->get_proc && api->get_proc(GEMMHOST_CUDA_COMPILE_ALL) != NULL, "get_proc(%s)", GEMMHOST_CUDA_COMPILE_ALL);
    return api;
}

/* ---- options ---- */

/* wgmma.cu includes wgmma_ops.cuh, which the build generates: the source
 * tree's kernels/cuda does not hold it, and from such a kernel_dir wgmma
 * compiles with the plugin's built-in copy of that header. At a small
 * variant (128 x 64, 2 stages): the default in every dtype is
 * test_compile_sample.c's, from the embedded sources. */
static void test_generated_header(const gh_plugin_api *api, gh_plugin *ctx, const char *dir)
{
    gemmhost_cuda_compile_fn compile = (gemmhost_cuda_compile_fn)api->get_proc(GEMMHOST_CUDA_COMPILE);
    const int kernel = gh_test_find_kernel(api, ctx, "wgmma");
    const gh_kernel_info *info = kernel >= 0 ? api->kernel_info(ctx, kernel) : NULL;
    const int64_t small[6] = {128, 64, 2, 0, 1, 0}; /* bm, bn, stages, promote, cluster, persistent */
    if (!CHECK(compile && info && info->n_params == sizeof small / sizeof small[0],
               "get_proc(%s) and kernel wgmma, with 6 parameters", GEMMHOST_CUDA_COMPILE))
        return;
    gh_status st = compile(ctx, kernel, GH_F16, small, info->n_params, 9, 0);
    const char *e = api->last_error(ctx);
    if (st == GH_UNSUPPORTED && e && strstr(e, "NVRTC not found")) {
        check_skip("NVRTC compile of wgmma from a kernel_dir without wgmma_ops.cuh: %s", e);
        return;
    }
    CHECK(st == GH_OK,
          "NVRTC compiles wgmma f16 128 x 64 from kernel_dir=%s, which has no wgmma_ops.cuh: the plugin's built-in "
          "copy of "
          "the generated header serves%s%.600s",
          dir, st ? ": " : "", st ? e : "");
}

static void test_open_options(const gh_plugin_api *api, const char *kernel_src_dir)
{
    gh_plugin *ctx = NULL;
    gh_option_value missing = {"kernel_dir", "/nonexistent/gemmhost-kernels"};
    gh_status st = api->open(&missing, 1, &ctx);
    const char *e = api->last_error(NULL);
    CHECK(st == GH_INVALID_ARGUMENT && ctx == NULL && contains(e, "/nonexistent/gemmhost-kernels") &&
              contains(e, "naive.cu"),
          "a kernel_dir without the sources is refused, naming it and the files it must hold (status %d: %s)", (int)st,
          e);

    gh_option_value good = {"kernel_dir", kernel_src_dir};
    st = api->open(&good, 1, &ctx);
    CHECK(st == GH_OK && ctx, "open with kernel_dir=%s (status %d: %s)", kernel_src_dir, (int)st,
          st == GH_OK ? "" : api->last_error(NULL));
    if (st == GH_OK) {
        test_generated_header(api, ctx, kernel_src_dir);
        api->close(ctx);
    }
}

/* ---- kernels ---- */

/* The cuBLASLt 8-bit kernels' type combinations and the accumulators they
 * declare: the tensor cores' 13-bit sum promoted to f32 every 128 K
 * (cublaslt-fp8) or never (cublaslt-fp8-fast); i8 exact. */
static void test_cublaslt_combos(const gh_plugin_api *api, gh_plugin *ctx)
{
    const char *fp8_kernels[] = {"cublaslt-fp8", "cublaslt-fp8-fast"};
    const gh_dtype pairs[][2] = {{GH_E4M3, GH_E4M3}, {GH_E4M3, GH_E5M2}, {GH_E5M2, GH_E4M3}};
    const gh_dtype outs[] = {GH_F32, GH_F16, GH_BF16};
    for (int f = 0; f < 2; ++f) {
        const int k = gh_test_find_kernel(api, ctx, fp8_kernels[f]);
        const gh_kernel_info *info = k >= 0 ? api->kernel_info(ctx, k) : NULL;
        if (!CHECK(info && GH_HAS_MEMBER(info, gh_kernel_info, n_combos) && info->n_combos == 9,
                   "%s lists 9 type combinations (%zu)", fp8_kernels[f], info ? info->n_combos : 0))
            continue;
        int good = 0, e5m2_pair = 0;
        for (size_t c = 0; c < info->n_combos; ++c) {
            const gh_type_combo *tc = &info->combos[c];
            int listed = 0;
            for (int p = 0; p < 3; ++p)
                for (int o = 0; o < 3; ++o) listed |= tc->a == pairs[p][0] && tc->b == pairs[p][1] && tc->c == outs[o];
            good += listed && tc->inputs == GH_PREC_AS_STORED && tc->accumulate == GH_PREC_F32 &&
                    tc->accumulate_bits == 13u && tc->promote_every == (f ? 0u : 128u);
            e5m2_pair |= tc->a == GH_E5M2 && tc->b == GH_E5M2;
        }
        CHECK(good == 9 && !e5m2_pair,
              "%s: e4m3 x e4m3, e4m3 x e5m2, e5m2 x e4m3 (not e5m2 x e5m2) -> f32/f16/bf16, f32 sums %s (%d of 9)",
              fp8_kernels[f], f ? "kept in 13 mantissa bits, never promoted" : "13 bits promoted every 128 K", good);
    }
    const int k = gh_test_find_kernel(api, ctx, "cublaslt-i8");
    const gh_kernel_info *info = k >= 0 ? api->kernel_info(ctx, k) : NULL;
    CHECK(info && info->n_combos == 1 && info->combos[0].a == GH_I8 && info->combos[0].b == GH_I8 &&
              info->combos[0].c == GH_I32 && info->combos[0].accumulate == GH_PREC_AS_STORED,
          "cublaslt-i8 lists i8 x i8 -> i32, exact");
}

static void test_kernel_infos(const gh_plugin_api *api, gh_plugin *ctx)
{
    CHECK(api->kernel_count(ctx) == 12, "twelve kernels (got %d)", api->kernel_count(ctx));
    const unsigned half = GH_DTYPE_BIT(GH_F16) | GH_DTYPE_BIT(GH_BF16);
    const unsigned all = GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_I32) | half;
    const struct {
        const char *name;
        unsigned dtypes;
        size_t n_params;
    } want[] = {{"naive", all, 0},
                {"tiled", all, 1},
                {"blocked", all, 2},
                {"warptile", GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | half, 9},
                {"mma", GH_DTYPE_BIT(GH_F32) | half, 6},
                {"wgmma", GH_DTYPE_BIT(GH_F32) | half, 6},
                {"cublas", GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | half, 0},
                {"cublas-tf32", GH_DTYPE_BIT(GH_F32), 0},
                {"cublas-strict", GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | half, 0},
                {"cublaslt-fp8", GH_DTYPE_BIT(GH_E4M3), 0},
                {"cublaslt-fp8-fast", GH_DTYPE_BIT(GH_E4M3), 0},
                {"cublaslt-i8", GH_DTYPE_BIT(GH_I8), 0}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; ++i) {
        int k = gh_test_find_kernel(api, ctx, want[i].name);
        const gh_kernel_info *info = k >= 0 ? api->kernel_info(ctx, k) : NULL;
        CHECK(info && info->size >= sizeof(gh_kernel_info) && info->dtypes == want[i].dtypes &&
                  info->n_params == want[i].n_params && info->description && info->description[0],
              "kernel %s: dtypes 0x%x, %zu params", want[i].name, want[i].dtypes, want[i].n_params);
        /* ABI 1.2: only the tensor-core kernels declare arithmetic other
         * than the default (f16 and bf16 summed in f32 are the default):
         * f32 as TF32 inputs. */
        int tf32 = strcmp(want[i].name, "cublas-tf32") == 0 || strcmp(want[i].name, "mma") == 0 ||
                   strcmp(want[i].name, "wgmma") == 0;
        if (!info || info->size < sizeof(gh_kernel_info)) continue;
        if (tf32) {
            /* wgmma's TF32 drops the low bits (measured; kernels.c). */
            const gh_precision want_inputs = strcmp(want[i].name, "wgmma") == 0 ? GH_PREC_TF32_TRUNCATED : GH_PREC_TF32;
            const gh_kernel_precision *p = info->n_precisions == 1 ? info->precisions : NULL;
            CHECK(p && p->size >= sizeof(gh_kernel_precision) && p->dtype == GH_F32 && p->inputs == want_inputs &&
                      p->accumulate == GH_PREC_F32,
                  "kernel %s declares f32 as %s inputs with f32 accumulation (%zu declarations)", want[i].name,
                  want_inputs == GH_PREC_TF32 ? "TF32" : "truncated TF32", info->n_precisions);
        } else {
            CHECK(info->n_precisions == 0 && info->precisions == NULL,
                  "kernel %s declares no arithmetic: the default (%zu declarations)", want[i].name, info->n_precisions);
        }
    }
    test_cublaslt_combos(api, ctx);
    int tiled = gh_test_find_kernel(api, ctx, "tiled");
    const gh_kernel_info *info = tiled >= 0 ? api->kernel_info(ctx, tiled) : NULL;
    if (info && info->n_params == 1) {
        const gh_param_info *p = &info->params[0];
        int ok = p->size >= sizeof(gh_param_info) && strcmp(p->name, "tile") == 0 && p->default_value == 16 &&
                 p->n_allowed == 4;
        for (size_t i = 0; ok && i < 4; ++i) ok = p->allowed[i] == (int64_t)(4 << i);
        CHECK(ok, "tiled's parameter: tile, default 16, allowed 4, 8, 16, 32");
    }
    int blocked = gh_test_find_kernel(api, ctx, "blocked");
    info = blocked >= 0 ? api->kernel_info(ctx, blocked) : NULL;
    if (info && info->n_params == 2) {
        const gh_param_info *t = &info->params[0], *w = &info->params[1];
        int ok = t->size >= sizeof(gh_param_info) && strcmp(t->name, "tile") == 0 && t->default_value == 128 &&
                 t->n_allowed == 3 && w->size >= sizeof(gh_param_info) && strcmp(w->name, "work") == 0 &&
                 w->default_value == 8 && w->n_allowed == 3 && t->description[0] && w->description[0];
        for (size_t i = 0; ok && i < 3; ++i)
            ok = t->allowed[i] == (int64_t)(32 << i) && w->allowed[i] == (int64_t)(2 << i);
        CHECK(ok, "blocked's parameters: tile (default 128; 32, 64, 128) and work (default 8; 2, 4, 8)");
    }
    /* warptile: its parameters in gemm()'s order, the documented defaults,
     * each default among its allowed values. */
    int warptile = gh_test_find_kernel(api, ctx, "warptile");
    info = warptile >= 0 ? api->kernel_info(ctx, warptile) : NULL;
    if (info && info->n_params == 9) {
        const char *names[9] = {"bm", "bn", "bk", "wm", "wn", "tm", "tn", "stages", "minblocks"};
        const int64_t defaults[9] = {128, 128, 16, 64, 32, 8, 8, 3, 0};
        int ok = 1;
        for (size_t i = 0; ok && i < 9; ++i) {
            const gh_param_info *p = &info->params[i];
            int allowed = 0;
            for (size_t a = 0; a < p->n_allowed; ++a) allowed |= p->allowed[a] == p->default_value;
            ok = p->size >= sizeof(gh_param_info) && strcmp(p->name, names[i]) == 0 &&
                 p->default_value == defaults[i] && allowed && p->description[0];
        }
        CHECK(ok, "warptile's parameters: bm bn bk wm wn tm tn stages minblocks, defaults 128 128 16 64 32 8 8 3 0");
    }
}

/* ---- NVRTC, without a device ---- */

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    int ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = size >= 0 ? malloc((size_t)size + 1) : NULL;
    if (text && fread(text, 1, (size_t)size, f) != (size_t)size) {
        free(text);
        text = NULL;
    }
    if (text) text[size] = '\0';
    fclose(f);
    return text;
}

static const char *const files[] = {"gemm_common.cuh", "naive.cu", "tiled.cu", "blocked.cu",
                                    "warptile.cu",     "mma.cu",   "wgmma.cu"};
#define N_KERNEL_FILES (sizeof files / sizeof files[0])

/* Copies the real sources into dir, with an error planted at the end of
 * `broken` (a file name, or NULL for none) that NVRTC sees where the
 * preprocessor condition `when` holds. compile_all stops at its first
 * failure, so the variants before the one that fails all compiled. */
static int make_kernel_dir(const char *src_dir, const char *dir, const char *broken, const char *when)
{
    for (size_t i = 0; i < N_KERNEL_FILES; ++i) {
        char from[2048], to[2048];
        snprintf(from, sizeof from, "%s/%s", src_dir, files[i]);
        snprintf(to, sizeof to, "%s/%s", dir, files[i]);
        char *text = read_file(from);
        if (!text) return -1;
        int rc;
        if (broken && strcmp(files[i], broken) == 0) {
            size_t n = strlen(text) + strlen(when) + 64;
            char *planted = malloc(n);
            if (!planted) {
                free(text);
                return -1;
            }
            snprintf(planted, n, "%s\n#if %s\nthis_is_not_cuda gemmhost_planted_error;\n#endif\n", text, when);
            rc = write_file(to, planted);
            free(planted);
        } else {
            rc = write_file(to, text);
        }
        free(text);
        if (rc) return -1;
    }
    return 0;
}

static void remove_kernel_dir(const char *dir)
{
    for (size_t i = 0; i < N_KERNEL_FILES; ++i) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    rmdir(dir);
}

/* NVRTC through the plugin's compile_all extra. By default every naive and
 * tiled variant (milliseconds each) and one of blocked (about a second each);
 * with `full`, every variant of the embedded sources too. */
static void test_nvrtc(const gh_plugin_api *api, gh_plugin *ctx, const char *kernel_src_dir, int full)
{
    gemmhost_cuda_compile_all_fn compile_all = (gemmhost_cuda_compile_all_fn)api->get_proc(GEMMHOST_CUDA_COMPILE_ALL);
    if (!compile_all) return;
    gh_status st;
    if (full) {
        st = compile_all(ctx, 9, 0);
        if (st == GH_UNSUPPORTED && contains(api->last_error(ctx), "NVRTC not found")) {
            check_skip("NVRTC compile of every kernel: %s", api->last_error(ctx));
            return;
        }
        CHECK(st == GH_OK,
              "NVRTC compiles naive, tiled (tiles 4..32) and blocked (tiles 32..128 x works 2..8) x "
              "f32/f64/i32/f16/bf16, and warptile (its samples in f32 and bf16, its default in f64 and f16), "
              "for sm_90 from the embedded sources%s%s",
              st ? ": " : "", st ? api->last_error(ctx) : "");
    } else {
        check_skip(
            "NVRTC compile of every blocked variant from the embedded sources (about a second each): only "
            "with --full (ctest -L full-sweep, tools/gpu-check.sh); below, NVRTC compiles naive and tiled in "
            "full and one blocked");
    }

    /* kernel_dir: blocked.cu broken past its first variant. compile_all goes
     * kernel by kernel (naive, tiled, blocked), dtype by dtype, variant by
     * variant, so failing at f32 tile 32 work 4 means naive and tiled compiled
     * in every variant and blocked at tile 32 work 2, and the failure comes
     * with NVRTC's log. */
    char tmpl[] = "/tmp/gemmhost-cuda-test-XXXXXX";
    char *root = mkdtemp(tmpl);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/cuda", root ? root : "");
    if (!root || mkdir(dir, 0700) != 0 ||
        make_kernel_dir(kernel_src_dir, dir, "blocked.cu", "TILE != 32 || WORK != 2") != 0) {
        check_verdict(0, "could not set up a kernel_dir under /tmp from %s", kernel_src_dir);
        return;
    }
    gh_plugin *broken = NULL;
    gh_option_value opt = {"kernel_dir", dir};
    st = api->open(&opt, 1, &broken);
    if (st == GH_OK) {
        st = compile_all(broken, 9, 0);
        const char *e = api->last_error(broken);
        if (st == GH_UNSUPPORTED && contains(e, "NVRTC not found")) {
            check_skip("NVRTC compiles: %s", e);
            api->close(broken);
            remove_kernel_dir(dir);
            rmdir(root);
            return;
        }
        CHECK(st == GH_ERROR && contains(e, "blocked.cu -DDTYPE=float -DTILE=32 -DWORK=4 ") &&
                  contains(e, "gemmhost_planted_error") && contains(e, dir),
              "NVRTC compiles naive and tiled (every dtype and tile) and blocked (f32, tile 32, work 2) from "
              "kernel_dir, and its blocked.cu broken past that fails at the next variant with NVRTC's log "
              "(status %d: %.300s)",
              (int)st, e);
        api->close(broken);
    } else {
        check_verdict(0, "open with kernel_dir=%s: %s", dir, api->last_error(NULL));
    }

    /* $GEMMHOST_KERNEL_DIR naming the kernels/ tree: its cuda/ folder is
     * used. naive.cu broken everywhere stops the first compile. */
    if (make_kernel_dir(kernel_src_dir, dir, "naive.cu", "1") != 0) {
        check_verdict(0, "could not rewrite the kernel_dir %s", dir);
        remove_kernel_dir(dir);
        rmdir(root);
        return;
    }
    setenv("GEMMHOST_KERNEL_DIR", root, 1);
    st = api->open(NULL, 0, &broken);
    if (st == GH_OK) {
        st = compile_all(broken, 9, 0);
        CHECK(st == GH_ERROR && contains(api->last_error(broken), dir) &&
                  contains(api->last_error(broken), "naive.cu -DDTYPE=float"),
              "$GEMMHOST_KERNEL_DIR=%s selects its cuda/ folder (status %d)", root, (int)st);
        api->close(broken);
    } else {
        check_verdict(0, "open with $GEMMHOST_KERNEL_DIR=%s: %s", root, api->last_error(NULL));
    }
    unsetenv("GEMMHOST_KERNEL_DIR");
    remove_kernel_dir(dir);
    rmdir(root);
}

/* ---- no driver or no device ---- */

/* The reason names what is missing of CUDA; host_alloc, which names no
 * device, needs device 0's context and refuses with that reason too. */
static void test_no_device(const gh_plugin_api *api, gh_plugin *ctx)
{
    const char *why = api->last_error(ctx);
    CHECK(contains(why, "no CUDA driver") || contains(why, "CUDA driver found but"),
          "with no device, last_error says why: \"%s\"", why);
    printf("no CUDA device here: %s\n", why);
    void *host = (void *)&host;
    gh_status st = api->host_alloc(ctx, 4096, &host);
    CHECK(st == GH_NO_DEVICE && host == NULL && contains(api->last_error(ctx), "CUDA"),
          "host_alloc with no device: GH_NO_DEVICE and the reason (status %d: %s)", (int)st, api->last_error(ctx));
}

static void print_device(const gh_device_info *d, int index)
{
    printf("device %d: %s, vendor %s, driver %s, api %s, %.1f GiB, %u SMs, %u threads/block, %llu bytes shared/block\n",
           index, d->name, d->vendor, d->driver_version, d->api, (double)d->global_mem_bytes / (1 << 30),
           d->compute_units, d->max_workgroup_size, (unsigned long long)d->local_mem_bytes);
}

/* Is device part `name` among GEMMHOST_CUDA_TEST_PARTS (or is it unset)? */
static int part_wanted(const char *name)
{
    const char *parts = getenv("GEMMHOST_CUDA_TEST_PARTS");
    if (!parts || !parts[0]) return 1;
    const size_t n = strlen(name);
    for (const char *p = parts; (p = strstr(p, name)) != NULL; p += n)
        if ((p == parts || p[-1] == ',') && (p[n] == '\0' || p[n] == ',')) return 1;
    return 0;
}

/* Runs device part `name` when wanted, then prints its counts and time, so
 * that a run cut short by the GPU machine's time limit still says which
 * parts passed (passing checks print nothing unless verbose). */
static void run_part(const char *name, void (*part)(const gh_plugin_api *, gh_plugin *, int), const gh_plugin_api *api,
                     gh_plugin *ctx, int device)
{
    if (!part_wanted(name)) return;
    const int passed = atomic_load(&check_passed), failed = atomic_load(&check_failed),
              skipped = atomic_load(&check_skipped);
    const time_t start = time(NULL);
    part(api, ctx, device);
    printf("part %s on device %d: %d passed, %d failed, %d skipped in %lld s\n", name, device,
           atomic_load(&check_passed) - passed, atomic_load(&check_failed) - failed,
           atomic_load(&check_skipped) - skipped, (long long)(time(NULL) - start));
}

int main(int argc, char **argv)
{
    /* Which parts run: the ones without a device (the table, options,
     * kernels, NVRTC), the ones on a device, or both. */
    int full = 0, compile_part = 1, device_part = 1;
    int arg = 1;
    for (; arg < argc && strncmp(argv[arg], "--", 2) == 0; ++arg) {
        if (strcmp(argv[arg], "--full") == 0) full = 1;
        else if (strcmp(argv[arg], "--compile-only") == 0) device_part = 0;
        else if (strcmp(argv[arg], "--device-only") == 0) compile_part = 0;
        else break;
    }
    if (argc - arg != 2 || !(compile_part || device_part)) {
        fprintf(stderr,
                "usage: %s [--full] [--compile-only | --device-only] <gemmhost-cuda.so> <kernels/cuda folder>\n",
                argv[0]);
        return 2;
    }
    const char *plugin_path = argv[arg], *kernel_src_dir = argv[arg + 1];
    const char *verbose = getenv("GEMMHOST_TEST_VERBOSE");
    check_quiet = !(verbose && atoi(verbose)); /* thousands of GEMMs pass on a device */
    setvbuf(stdout, NULL, _IOLBF, 0);

    int no_device = 0;
    gh_test_plugin plugin;
    const gh_plugin_api *api = load_plugin(plugin_path, &plugin);
    if (api) {
        if (compile_part) test_open_options(api, kernel_src_dir);

        gh_status st = gh_test_plugin_open(&plugin, NULL, 0);
        gh_plugin *ctx = plugin.ctx;
        CHECK(st == GH_OK, "open with no options succeeds, device or not (%s)", st == GH_OK ? "ok" : plugin.error);
        if (st == GH_OK) {
            test_kernel_infos(api, ctx);
            if (compile_part) {
                const char *quick = getenv("GEMMHOST_CUDA_TEST_QUICK");
                test_nvrtc(api, ctx, kernel_src_dir, full);
                run_compile_sample_tests(api, ctx, !full && quick && atoi(quick));
                run_compile_half_tests(api, ctx, full);
                run_compile_warptile_tests(api, ctx, full);
                run_compile_8bit_tests(api, ctx, full, !full && quick && atoi(quick));
                run_compile_cluster_tests(api, ctx, !full && quick && atoi(quick));
                run_compile_persistent_tests(api, ctx, !full && quick && atoi(quick));
            }
            int n = device_part ? api->device_count(ctx) : 0;
            if (device_part && n == 0) {
                char why[1024];
                snprintf(why, sizeof why, "%s", api->last_error(ctx));
                test_no_device(api, ctx);
                const char *require = getenv("GEMMHOST_CUDA_TEST_REQUIRE_DEVICE");
                if (require && atoi(require))
                    check_verdict(0, "GEMMHOST_CUDA_TEST_REQUIRE_DEVICE is set but there is no device: %s", why);
                else {
                    check_skip("GEMM on a CUDA device: none here: %s", why);
                    no_device = 1;
                }
            }
            for (int d = 0; d < n; ++d) {
                const gh_device_info *info = api->device_info(ctx, d);
                CHECK(info && info->size >= sizeof(gh_device_info) && info->name[0] &&
                          strcmp(info->vendor, "NVIDIA") == 0 && info->global_mem_bytes > 0 &&
                          info->compute_units > 0 && info->max_workgroup_size >= 256 &&
                          info->local_mem_bytes >= 16384 && info->has_fp64 == 1 && info->is_software == 0 &&
                          info->driver_version[0] && info->api[0] && info->platform,
                      "device_info(%d) is complete", d);
                if (!info) continue;
                print_device(info, d);
                run_part("limits", run_limit_tests, api, ctx, d);
                run_part("gemm", run_gemm_tests, api, ctx, d);
                run_part("half", run_half_tests, api, ctx, d);
                run_part("8bit", run_8bit_tests, api, ctx, d);
                run_part("streams", run_stream_tests, api, ctx, d);
            }
            if (n >= 2) run_multi_device_stream_tests(api, ctx, n);
            gh_test_plugin_close(&plugin);
        }
    }
    if (api) gh_test_plugin_unload(&plugin);
    int status = check_summary("gemmhost-cuda-test");
    /* The device part was asked for and could not run: a skip (77 for
     * ctest), unless something failed. */
    return status == 0 && no_device ? 77 : status;
}
