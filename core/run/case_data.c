/* A case's host data: inputs drawn from the seed, the reference, and the
 * guard that finds a plugin writing into them. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cancel.h"
#include "crash.h"
#include "compare.h"
#include "data.h"
#include "isolation.h"
#include "input_guard.h"
#include "kernel_arith.h"
#include "shm.h"
#include "run.h"
#include "tune_auto.h"

#include "progress.h"
#include "resume.h"
#include "reported.h"
#include "util.h"
#include "verify.h"
#include "run_internal.h"

/* The case's inputs, drawn from the seed: the same for every backend. */
static void case_fill(case_data *cd, const gh_run_config *run, int64_t k)
{
    const int index = cd->index;
    int32_t range = gh_i32_input_range(k, run->alpha, run->beta);
    /* Streams keep A, B and C0 of one case apart and every case distinct. */
    gh_matrix_fill_random(&cd->a, run->seed, (uint64_t)index * 3 + 0, range);
    gh_matrix_fill_random(&cd->b, run->seed, (uint64_t)index * 3 + 1, range);
    gh_matrix_fill_random(&cd->c0, run->seed, (uint64_t)index * 3 + 2, range);
    if (run->beta == 0) gh_matrix_poison(&cd->c_init);
    else gh_matrix_copy(&cd->c_init, &cd->c0);
}

int run_case_prepare(case_data *cd, const gh_run_config *run, int index, gh_shape shape, gh_dtype dtype, gh_trans trans,
                     const gh_host_allocator *alloc)
{
    memset(cd, 0, sizeof *cd);
    cd->index = index;
    cd->alloc = alloc;
    const int64_t m = shape.m, n = shape.n, k = shape.k;
    const int64_t a_rows = trans.a ? k : m, a_cols = trans.a ? m : k;
    const int64_t b_rows = trans.b ? n : k, b_cols = trans.b ? k : n;
    const gh_case_types t = cd->types = gh_run_case_types(run, dtype); /* each matrix in its own type */
    if (gh_matrix_alloc_with(&cd->a, t.a, a_rows, a_cols, a_cols + run->ld_pad, run->guard, alloc) ||
        gh_matrix_alloc_with(&cd->b, t.b, b_rows, b_cols, b_cols + run->ld_pad, run->guard, alloc) ||
        gh_matrix_alloc_with(&cd->c0, t.c, m, n, n + run->ld_pad, run->guard, alloc) ||
        gh_matrix_alloc_with(&cd->c_init, t.c, m, n, n + run->ld_pad, run->guard, alloc))
        return -1;
    case_fill(cd, run, k);
    if (run->isolation == GH_ISOLATION_NONE) { /* a worker maps its inputs read-only: nothing to watch */
        gh_input_guard_watch(&cd->guard, "A", &cd->a);
        gh_input_guard_watch(&cd->guard, "B", &cd->b);
        gh_input_guard_watch(&cd->guard, "C0", &cd->c0);
        gh_input_guard_watch(&cd->guard, "C", &cd->c_init); /* what each run uploads as C */
    }
    cd->in = (gh_case_inputs){dtype,  trans.a, trans.b,          m,   n,   k,         run->alpha, run->beta, &cd->a,
                              &cd->b, &cd->c0, t.explicit_types, t.b, t.c, t.scale_a, t.scale_b,  t.scale_c};
    gh_verify_options vopt = {
        .method = run->verify,
        .full_max_flops = run->full_max_flops,
        .freivalds_trials = run->freivalds_trials,
        .samples = run->samples,
        .threads = 0,
        .seed = run->seed ^ ((uint64_t)index * 0x9E3779B97F4A7C15ull),
    };
    cd->ref = gh_reference_build(&cd->in, &vopt);
    return cd->ref ? 0 : -1;
}

void run_case_release(case_data *cd)
{
    gh_matrix_free(&cd->a);
    gh_matrix_free(&cd->b);
    gh_matrix_free(&cd->c0);
    gh_matrix_free(&cd->c_init);
    gh_reference_free(cd->ref);
    memset(cd, 0, sizeof *cd);
}

/* In-process a plugin can write into the host memory it uploads from, and
 * the backends after it would get the blame. A change fails the result of
 * the backend that made it, and the inputs are drawn again from the seed. */
void run_guard_inputs(case_data *cd, const gh_run_config *run, gh_result *r)
{
    char changed[96];
    if (gh_input_guard_check(&cd->guard, changed, sizeof changed) == 0) return;
    char was[sizeof r->detail];
    snprintf(was, sizeof was, "%s", r->detail);
    run_result_detail(r, GH_RESULT_FAIL,
                      "backend %s changed its input %s during case %d (host memory it was given to upload from, "
                      "which it may only read): this result is void%s%s",
                      r->backend, changed, cd->index, *was ? "; " : "", was);
    if (gh_input_guard_reset(&cd->guard) == 0) {
        case_fill(cd, run, cd->in.k);
        gh_input_guard_seal(&cd->guard);
    } else {
        /* Left as they are, the next results would fail for it: say why. */
        gh_input_guard_seal(&cd->guard);
        snprintf(was, sizeof was, "%s", r->detail);
        run_result_detail(r, GH_RESULT_FAIL,
                          "%s; out of host memory to draw the inputs again: the results after it "
                          "in this case are void too",
                          was);
    }
}

gh_case_data *gh_case_data_new(const gh_run_config *run, int index, gh_shape shape, gh_dtype dtype, gh_trans trans)
{
    case_data *cd = gh_xcalloc(1, sizeof *cd);
    const gh_host_allocator *alloc = run->isolation == GH_ISOLATION_PROCESS ? gh_shm_allocator() : NULL;
    if (run_case_prepare(cd, run, index, shape, dtype, trans, alloc) != 0) {
        run_case_release(cd);
        free(cd);
        return NULL;
    }
    return cd;
}

void gh_case_data_free(gh_case_data *cd)
{
    if (!cd) return;
    run_case_release(cd);
    free(cd);
}
