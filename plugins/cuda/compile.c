/* NVRTC compilation and the per-device module cache; see compile.h. */
#include "compile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "kernels.h"
#include "sources.h"

static const char *const kernel_files[GH_CUDA_SOURCE_KERNELS] = {"naive.cu",    "tiled.cu", "blocked.cu",
                                                                 "warptile.cu", "mma.cu",   "wgmma.cu"};
/* The functions of each kernel's module, by trans_a * 2 + trans_b, then
 * warptile's 16-byte copy path (gh_cuda_module.function). */
static const char *const kernel_functions[GH_CUDA_SOURCE_KERNELS][8] = {
    {"gemm_naive", "gemm_naive", "gemm_naive", "gemm_naive"},
    {"gemm_tiled", "gemm_tiled", "gemm_tiled", "gemm_tiled"},
    {"gemm_blocked_nn", "gemm_blocked_nt", "gemm_blocked_tn", "gemm_blocked_tt"},
    {"gemm_warptile_nn", "gemm_warptile_nt", "gemm_warptile_tn", "gemm_warptile_tt", "gemm_warptile_nn_vec",
     "gemm_warptile_nt_vec", "gemm_warptile_tn_vec", "gemm_warptile_tt_vec"},
    {"gemm_mma_nn", "gemm_mma_nt", "gemm_mma_tn", "gemm_mma_tt", "gemm_mma_nn_vec", "gemm_mma_nt_vec",
     "gemm_mma_tn_vec", "gemm_mma_tt_vec"},
    {"gemm_wgmma_nn", "gemm_wgmma_nt", "gemm_wgmma_tn", "gemm_wgmma_tt"},
};
/* warptile's and mma's defines, by GH_WT_* and GH_MMA_* (their parameters in upper case). */
static const char *const warptile_defines[GH_WT_PARAMS] = {"BM", "BN", "BK", "WM", "WN", "TM", "TN", "STAGES", "MINB"};
static const char *const mma_defines[GH_MMA_PARAMS] = {"BM", "BN", "BK", "WM", "WN", "STAGES"};
static const char *const wgmma_defines[GH_WGMMA_PARAMS] = {"BM", "BN", "STAGES", "PROMOTE", "CLUSTER", "PERSISTENT"};
/* DTYPE, A_TYPE and B_TYPE for gemm_common.cuh, by gh_dtype. */
static const char *const dtype_types[GH_DTYPE_COUNT] = {
    [GH_F32] = "float",    [GH_F64] = "double",   [GH_I32] = "int",      [GH_F16] = "gh_f16",
    [GH_BF16] = "gh_bf16", [GH_E4M3] = "gh_e4m3", [GH_E5M2] = "gh_e5m2", [GH_I8] = "gh_i8"};

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

gh_status gh_cuda_compile(const gh_plugin *ctx, int kernel, gh_cuda_types types, const gh_cuda_variant *v, int cc_major,
                          int cc_minor, void **cubin, size_t *cubin_size)
{
    /* DTYPE is C's type: what acc_t, alpha and beta follow. */
    const gh_dtype dtype = types.c;
    const char *why = NULL;
    const gh_nvrtc_api *nv = gh_cuda_nvrtc(&why);
    if (!nv) return gh_plugin_set_error(GH_UNSUPPORTED, "%s", why);

    gh_cuda_sources src;
    gh_status st = gh_cuda_sources_load(ctx->kernel_dir, &src);
    if (st) return st;

    /* The kernel's file is the program; every .cuh is offered as a header
     * it may #include (NVRTC reads no files itself). */
    int program = -1, n_headers = 0;
    const char *header_texts[GH_CUDA_MAX_SOURCES], *header_names[GH_CUDA_MAX_SOURCES];
    for (int i = 0; i < src.n; ++i) {
        if (strcmp(src.names[i], kernel_files[kernel]) == 0) program = i;
        else if (ends_with(src.names[i], ".cuh")) {
            header_texts[n_headers] = src.texts[i];
            header_names[n_headers++] = src.names[i];
        }
    }
    if (program < 0) {
        gh_cuda_sources_free(&src);
        return gh_plugin_set_error(GH_ERROR, "no kernel source %s among the plugin's sources", kernel_files[kernel]);
    }

    /* A real architecture (sm_XY, not compute_XY) makes NVRTC emit a CUBIN
     * for this device, so the driver loads it without a PTX JIT step. The
     * parameters go in as defines; blocked.cu's DEPTH is the plugin's
     * choice, so its shared memory is known before compiling. */
    char arch[48], dtype_def[48], tile_def[48], work_def[48], depth_def[48], wt_defs[GH_WT_PARAMS][32];
    char a_def[48], b_def[48];
    /* wgmma and setmaxnreg exist only in sm_90a, the architecture-specific
     * target (its CUBIN runs on compute capability 9.0 alone). */
    snprintf(arch, sizeof arch, "--gpu-architecture=sm_%d%d%s", cc_major, cc_minor, kernel == GH_CUDA_WGMMA ? "a" : "");
    snprintf(dtype_def, sizeof dtype_def, "-DDTYPE=%s", dtype_types[dtype]);
    snprintf(tile_def, sizeof tile_def, "-DTILE=%lld", (long long)v->tile);
    snprintf(work_def, sizeof work_def, "-DWORK=%lld", (long long)v->work);
    snprintf(depth_def, sizeof depth_def, "-DDEPTH=%d", gh_cuda_blocked_depth(dtype));
    const char *options[4 + GH_WT_PARAMS] = {arch, dtype_def, tile_def, work_def, depth_def};
    int n_options = kernel == GH_CUDA_BLOCKED ? 5 : kernel == GH_CUDA_TILED ? 3 : 2;
    if (!gh_cuda_types_are_uniform(types)) {
        snprintf(a_def, sizeof a_def, "-DA_TYPE=%s", dtype_types[types.a]);
        snprintf(b_def, sizeof b_def, "-DB_TYPE=%s", dtype_types[types.b]);
        options[n_options++] = a_def;
        options[n_options++] = b_def;
    }
    if (gh_cuda_kernel_has_param_list(kernel))
        for (int p = 0; p < gh_cuda_kernel_param_count(kernel); ++p) {
            snprintf(wt_defs[p], sizeof wt_defs[p], "-D%s=%lld",
                     kernel == GH_CUDA_MMA     ? mma_defines[p]
                     : kernel == GH_CUDA_WGMMA ? wgmma_defines[p]
                                               : warptile_defines[p],
                     (long long)v->wt[p]);
            options[n_options++] = wt_defs[p];
        }
    char defines[320] = "";
    for (int i = 1; i < n_options; ++i) {
        size_t used = strlen(defines);
        snprintf(defines + used, sizeof defines - used, "%s%s", i > 1 ? " " : "", options[i]);
    }
    char variant[512];
    snprintf(variant, sizeof variant, "%s %s for sm_%d%d (sources: %s)", kernel_files[kernel], defines, cc_major,
             cc_minor, ctx->kernel_dir ? ctx->kernel_dir : "built in");

    nvrtcProgram prog = NULL;
    st = gh_nvrtc_check(
        nv->nvrtcCreateProgram(&prog, src.texts[program], src.names[program], n_headers, header_texts, header_names),
        "nvrtcCreateProgram(%s)", variant);
    if (st == GH_OK) {
        nvrtcResult r = nv->nvrtcCompileProgram(prog, n_options, options);
        if (r != NVRTC_SUCCESS) {
            size_t log_size = 0;
            char *log = NULL;
            if (nv->nvrtcGetProgramLogSize(prog, &log_size) == NVRTC_SUCCESS && (log = malloc(log_size + 1))) {
                if (nv->nvrtcGetProgramLog(prog, log) != NVRTC_SUCCESS) log[0] = '\0';
                log[log_size] = '\0';
            }
            /* The log goes last: what does not fit is cut, and says so. */
            st = gh_plugin_set_error(r == NVRTC_ERROR_OUT_OF_MEMORY ? GH_OUT_OF_MEMORY : GH_ERROR,
                                     "NVRTC could not compile %s: nvrtcCompileProgram: %s\n", variant,
                                     nv->nvrtcGetErrorString(r));
            gh_plugin_append_error("%s", log ? log : "(no log)");
            free(log);
        }
    }
    if (st == GH_OK) {
        size_t size = 0;
        st = gh_nvrtc_check(nv->nvrtcGetCUBINSize(prog, &size), "nvrtcGetCUBINSize(%s)", variant);
        void *image = st == GH_OK ? malloc(size) : NULL;
        if (st == GH_OK && !image)
            st = gh_plugin_set_error(GH_OUT_OF_MEMORY, "out of host memory for the CUBIN of %s", variant);
        if (st == GH_OK) st = gh_nvrtc_check(nv->nvrtcGetCUBIN(prog, image), "nvrtcGetCUBIN(%s)", variant);
        if (st == GH_OK) {
            *cubin = image;
            *cubin_size = size;
        } else {
            free(image);
        }
    }
    if (prog) nv->nvrtcDestroyProgram(&prog);
    gh_cuda_sources_free(&src);
    return st;
}

/* Loads a compiled module and looks up its functions (those of
 * kernel_functions[kernel]) and their limits. warptile's functions get the
 * dynamic shared memory their transpose pair needs. */
static gh_status load_module(gh_plugin *ctx, gh_cuda_device *dev, int kernel, gh_cuda_types types,
                             const gh_cuda_variant *v, gh_cuda_module *out)
{
    const gh_cu_api *cu = ctx->cu;
    void *cubin = NULL;
    size_t cubin_size = 0;
    gh_status st = gh_cuda_compile(ctx, kernel, types, v, dev->cc_major, dev->cc_minor, &cubin, &cubin_size);
    if (st) return st;

    CUmodule module = NULL;
    st = gh_cu_check(cu->cuModuleLoadData(&module, cubin), "cuModuleLoadData(%s, %zu bytes of CUBIN) on device %d",
                     kernel_files[kernel], cubin_size, dev->index);
    free(cubin);
    if (st) return st;
    gh_cuda_module loaded = {module, {NULL}, 0, 0};
    for (int t = 0; t < 8 && st == GH_OK; ++t) {
        const char *name = kernel_functions[kernel][t];
        if (!name) continue;
        CUfunction function = NULL;
        int max_threads = 0, static_shared = 0;
        if ((st = gh_cu_check(cu->cuModuleGetFunction(&function, module, name), "cuModuleGetFunction(%s)", name)) ||
            (st = gh_cu_check(cu->cuFuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function),
                              "cuFuncGetAttribute(%s, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)", name)) ||
            (st = gh_cu_check(cu->cuFuncGetAttribute(&static_shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function),
                              "cuFuncGetAttribute(%s, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)", name)))
            break;
        if (gh_cuda_kernel_has_param_list(kernel)) {
            /* Over 48 KB a block gets only what the function is allowed. */
            long long dynamic =
                gh_cuda_dynamic_shared_bytes(kernel, gh_cuda_sizing_dtype(kernel, types), v, (t & 3) >> 1, t & 1);
            if ((st = gh_cu_check(
                     cu->cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)dynamic),
                     "cuFuncSetAttribute(%s, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, %lld)", name, dynamic)))
                break;
        }
        loaded.function[t] = function;
        if (t == 0 || max_threads < loaded.max_threads) loaded.max_threads = max_threads;
        if (static_shared > loaded.static_shared) loaded.static_shared = static_shared;
    }
    if (st) {
        cu->cuModuleUnload(module);
        return st;
    }
    *out = loaded;
    return GH_OK;
}

gh_status gh_cuda_get_kernel(gh_plugin *ctx, gh_cuda_device *dev, int kernel, gh_cuda_types types,
                             const gh_cuda_variant *v, gh_cuda_module **out)
{
    const int slot = gh_cuda_type_slot(types);
    if (slot < 0) {
        char name[64];
        gh_cuda_types_name(name, sizeof name, types);
        return gh_plugin_set_error(GH_UNSUPPORTED, "the CUDA kernels are not built for %s", name);
    }
    if (gh_cuda_kernel_has_param_list(kernel)) {
        for (gh_cuda_param_module *w = dev->param_modules; w; w = w->next)
            if (w->kernel == kernel && w->slot == slot && memcmp(w->params, v->wt, sizeof w->params) == 0) {
                *out = &w->m;
                return GH_OK;
            }
        gh_cuda_param_module *w = calloc(1, sizeof *w);
        if (!w)
            return gh_plugin_set_error(GH_OUT_OF_MEMORY, "out of host memory for a %s module",
                                       gh_cuda_kernel_infos[kernel].name);
        gh_status st = load_module(ctx, dev, kernel, types, v, &w->m);
        if (st) {
            free(w);
            return st;
        }
        w->kernel = kernel;
        w->slot = slot;
        memcpy(w->params, v->wt, sizeof w->params);
        w->next = dev->param_modules;
        dev->param_modules = w;
        *out = &w->m;
        return GH_OK;
    }
    gh_cuda_module *m = &dev->modules[kernel][slot][v->index];
    if (!m->module) {
        gh_status st = load_module(ctx, dev, kernel, types, v, m);
        if (st) return st;
    }
    *out = m;
    return GH_OK;
}

void gh_cuda_modules_release(gh_plugin *ctx, gh_cuda_device *dev)
{
    for (int k = 0; k < GH_CUDA_FIXED_KERNELS; ++k)
        for (int d = 0; d < GH_CUDA_TYPE_SLOTS; ++d)
            for (int t = 0; t < GH_CUDA_VARIANT_MAX; ++t) {
                gh_cuda_module *m = &dev->modules[k][d][t];
                if (m->module)
                    gh_cu_check(ctx->cu->cuModuleUnload(m->module), "cuModuleUnload on device %d", dev->index);
                m->module = NULL;
            }
    while (dev->param_modules) {
        gh_cuda_param_module *w = dev->param_modules;
        dev->param_modules = w->next;
        gh_cu_check(ctx->cu->cuModuleUnload(w->m.module), "cuModuleUnload on device %d", dev->index);
        free(w);
    }
}

/* Whether a kernel offers the type set of cache slot `slot`: a dtype of its
 * mask, or a combination it lists. */
static int kernel_has_slot(const gh_kernel_info *info, int slot)
{
    const gh_cuda_types t = gh_cuda_slot_types(slot);
    if (slot < GH_DTYPE_COUNT) return (info->dtypes & GH_DTYPE_BIT(t.a)) != 0;
    return gh_plugin_find_combo(info, t.a, t.b, t.c) != NULL;
}

gh_status gh_cuda_compile_all(gh_plugin *ctx, int cc_major, int cc_minor)
{
    if (!ctx) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "no context (NULL)");
    /* The uniform dtypes of every kernel first, then the 8-bit
     * combinations: a failure in the first pass comes as it did before
     * they existed (tests/cuda's broken kernel_dir counts on it). */
    for (int pass = 0; pass < 2; ++pass)
        for (int k = 0; k < GH_CUDA_SOURCE_KERNELS; ++k)
            for (int d = pass ? GH_DTYPE_COUNT : 0; d < (pass ? GH_CUDA_TYPE_SLOTS : GH_DTYPE_COUNT); ++d)
                for (int i = 0; kernel_has_slot(&gh_cuda_kernel_infos[k], d) && i < gh_cuda_variant_count(k); ++i) {
                    gh_cuda_variant v = gh_cuda_variant_at(k, i);
                    /* blocked at tile 128, work 2 needs 4096 threads: no CUDA
                     * device runs it, and gemm() refuses it before compiling. */
                    if (k == GH_CUDA_BLOCKED && (v.tile / v.work) * (v.tile / v.work) > 1024) continue;
                    /* warptile (several seconds a variant): its samples in f32
                     * (cp.async) and bf16 (through registers), its default in
                     * f64 and f16. */
                    if (k == GH_CUDA_WARPTILE && i > 0 && d != GH_F32 && d != GH_BF16) continue;
                    /* mma needs sm_80 (cp.async, bf16 and TF32 mma.sync), wgmma sm_90a. */
                    if (k == GH_CUDA_MMA && cc_major < 8) continue;
                    if (k == GH_CUDA_WGMMA && (cc_major != 9 || cc_minor != 0)) continue;
                    /* a sample that does not fit a type set (mma's depth 16 in i8) */
                    char why[256];
                    const gh_cuda_types types = gh_cuda_slot_types(d);
                    if (!gh_cuda_variant_fits(k, gh_cuda_sizing_dtype(k, types), &v, why, sizeof why)) continue;
                    void *cubin = NULL;
                    size_t size = 0;
                    gh_status st =
                        gh_cuda_compile(ctx, k, gh_cuda_slot_types(d), &v, cc_major, cc_minor, &cubin, &size);
                    free(cubin);
                    if (st) return st;
                }
    return GH_OK;
}

gh_status gh_cuda_compile_one(gh_plugin *ctx, int kernel, gh_dtype dtype, const int64_t *params, size_t n_params,
                              int cc_major, int cc_minor)
{
    return gh_cuda_compile_types(ctx, kernel, dtype, dtype, dtype, params, n_params, cc_major, cc_minor);
}

gh_status gh_cuda_compile_types(gh_plugin *ctx, int kernel, gh_dtype a, gh_dtype b, gh_dtype c, const int64_t *params,
                                size_t n_params, int cc_major, int cc_minor)
{
    if (!ctx) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "compile: no context (NULL)");
    if (kernel < 0 || kernel >= GH_CUDA_SOURCE_KERNELS)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT,
                                   "compile: kernel %d is not one NVRTC builds (naive %d, tiled %d, blocked %d, "
                                   "warptile %d, mma %d, wgmma %d)",
                                   kernel, GH_CUDA_NAIVE, GH_CUDA_TILED, GH_CUDA_BLOCKED, GH_CUDA_WARPTILE, GH_CUDA_MMA,
                                   GH_CUDA_WGMMA);
    const gh_kernel_info *info = &gh_cuda_kernel_infos[kernel];
    const gh_cuda_types types = {a, b, c};
    if ((unsigned)a >= GH_DTYPE_COUNT || (unsigned)b >= GH_DTYPE_COUNT || (unsigned)c >= GH_DTYPE_COUNT)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "compile: unknown dtype (A %d, B %d, C %d)", (int)a, (int)b,
                                   (int)c);
    const int slot = gh_cuda_type_slot(types);
    if (slot < 0 || !kernel_has_slot(info, slot)) {
        char name[64];
        gh_cuda_types_name(name, sizeof name, types);
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "compile: kernel %s has no %s%s", info->name,
                                   gh_cuda_types_are_uniform(types) ? "dtype " : "", name);
    }
    gh_status st = gh_plugin_check_params("compile", info, params, n_params);
    if (st) return st;
    gh_cuda_variant v = gh_cuda_variant_of(kernel, params);
    char why[256];
    if (kernel == GH_CUDA_WGMMA && (cc_major != 9 || cc_minor != 0))
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "compile: wgmma needs sm_90a (wgmma.mma_async, setmaxnreg: compute capability "
                                   "9.0 exactly), not sm_%d%d",
                                   cc_major, cc_minor);
    if (kernel == GH_CUDA_MMA && cc_major < 8)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "compile: mma needs compute capability 8.0 or newer (cp.async, bf16 and TF32 "
                                   "mma.sync); sm_%d%d has none of them",
                                   cc_major, cc_minor);
    if (!gh_cuda_variant_fits(kernel, gh_cuda_sizing_dtype(kernel, types), &v, why, sizeof why)) {
        char name[160];
        gh_cuda_variant_name(name, sizeof name, kernel, types, &v);
        return gh_plugin_set_error(GH_UNSUPPORTED, "compile: %s: %s", name, why);
    }
    void *cubin = NULL;
    size_t size = 0;
    st = gh_cuda_compile(ctx, kernel, types, &v, cc_major, cc_minor, &cubin, &size);
    free(cubin);
    return st;
}
