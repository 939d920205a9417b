/* CBLAS through dlopen; see blas.h. The prototypes are CBLAS's own (its
 * enums are fixed by the standard), so no BLAS header is needed to build. */
#define _GNU_SOURCE
#include "blas.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "gemm.h"

enum { CBLAS_ROW_MAJOR = 101, CBLAS_NO_TRANS = 111, CBLAS_TRANS = 112 };

/* Without the option, the first library that loads and has both calls.
 * OpenBLAS first: libblas.so.3 may be the reference BLAS, right but slow. */
static const char *const default_libraries[] = {"libopenblas.so.0", "libblas.so.3", "libcblas.so.3"};

/* OpenBLAS's thread count is one per process: set it and call under one
 * lock, so two contexts with different `threads` do not race. */
static pthread_mutex_t call_lock = PTHREAD_MUTEX_INITIALIZER;

/* 0 when `name` loads with both calls; else appends why not to blas->why. */
static int try_library(cpu_blas *blas, const char *name, size_t *used)
{
    const char *err = NULL;
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        err = dlerror();
    } else {
        *(void **)&blas->sgemm = dlsym(lib, "cblas_sgemm");
        *(void **)&blas->dgemm = dlsym(lib, "cblas_dgemm");
        if (blas->sgemm && blas->dgemm) {
            *(void **)&blas->set_threads = dlsym(lib, "openblas_set_num_threads");
            blas->lib = lib;
            return 0;
        }
        err = "it has no cblas_sgemm and cblas_dgemm";
        blas->sgemm = NULL;
        blas->dgemm = NULL;
        dlclose(lib);
    }
    if (*used < sizeof blas->why)
        *used += (size_t)snprintf(blas->why + *used, sizeof blas->why - *used, " %s: %s;", name, err);
    return -1;
}

static void load(gh_plugin *ctx)
{
    cpu_blas *blas = &ctx->blas;
    blas->tried = 1;
    size_t used =
        (size_t)snprintf(blas->why, sizeof blas->why,
                         "no CBLAS library loads (%s):", ctx->blas_library ? "option blas" : "install libopenblas0");
    if (ctx->blas_library) {
        try_library(blas, ctx->blas_library, &used);
        return;
    }
    for (size_t i = 0; i < sizeof default_libraries / sizeof default_libraries[0]; i++)
        if (try_library(blas, default_libraries[i], &used) == 0) return;
}

static int fits_int(const gh_gemm_args *g)
{
    return g->m <= INT_MAX && g->n <= INT_MAX && g->k <= INT_MAX && g->lda <= INT_MAX && g->ldb <= INT_MAX &&
           g->ldc <= INT_MAX;
}

gh_status cpu_gemm_blas(gh_plugin *ctx, const gh_gemm_args *g, double *elapsed_ms)
{
    cpu_blas *blas = &ctx->blas;
    pthread_mutex_lock(&call_lock);
    if (!blas->tried) load(ctx);
    if (!blas->lib) {
        pthread_mutex_unlock(&call_lock);
        return fail(GH_UNSUPPORTED, "kernel blas: %s", blas->why);
    }
    if (!fits_int(g)) {
        pthread_mutex_unlock(&call_lock);
        return fail(GH_UNSUPPORTED, "kernel blas: CBLAS takes sizes and leading dimensions as int (at most %d)",
                    INT_MAX);
    }
    const size_t elem = gh_plugin_dtype_size(g->dtype);
    const void *a = g->a->data + g->a_offset * elem, *b = g->b->data + g->b_offset * elem;
    void *c = g->c->data + g->c_offset * elem;
    const int ta = g->trans_a ? CBLAS_TRANS : CBLAS_NO_TRANS, tb = g->trans_b ? CBLAS_TRANS : CBLAS_NO_TRANS;
    const int m = (int)g->m, n = (int)g->n, k = (int)g->k;
    if (blas->set_threads) blas->set_threads(ctx->threads);
    const double start = cpu_now_ms();
    if (g->dtype == GH_F32)
        blas->sgemm(CBLAS_ROW_MAJOR, ta, tb, m, n, k, (float)g->alpha, a, (int)g->lda, b, (int)g->ldb, (float)g->beta,
                    c, (int)g->ldc);
    else
        blas->dgemm(CBLAS_ROW_MAJOR, ta, tb, m, n, k, g->alpha, a, (int)g->lda, b, (int)g->ldb, g->beta, c,
                    (int)g->ldc);
    *elapsed_ms = cpu_now_ms() - start;
    pthread_mutex_unlock(&call_lock);
    return GH_OK;
}

void cpu_blas_close(cpu_blas *blas)
{
    if (blas->lib) dlclose(blas->lib);
    memset(blas, 0, sizeof *blas);
}
