/* One GEMM set up on a device and checked afterwards: A, B and C placed with
 * guards (see matrices.h), the arguments at the kernel's default parameters,
 * and the verdicts of plugin.h's gemm rules against an f64 host loop. */
#ifndef GEMMHOST_CONFORMANCE_GEMM_CASE_H
#define GEMMHOST_CONFORMANCE_GEMM_CASE_H

#include "arith.h"
#include "matrices.h"

#define MAX_PARAMS 16

typedef struct gemm_case {
    gh_dtype dtype;
    int trans_a, trans_b;
    int64_t m, n, k;
    double alpha, beta; /* beta 0: C's window starts as NaN (f32, f64) */
} gemm_case;

typedef struct gemm_setup {
    gemm_case gc;
    placed a, b, c;
    int64_t params[MAX_PARAMS];
    gh_gemm_args args;
    conf_arith arith; /* what the kernel declares for gc.dtype: the bound's roundoffs */
} gemm_setup;

/* Each rule's first failure, "" where the rule held. */
typedef struct gemm_verdict {
    char result[320];    /* C's window against the reference */
    char nan[320];       /* beta 0: a NaN in C's window */
    char guard[320];     /* an element outside C's window changed */
    char untouched[320]; /* A's or B's buffer changed */
} gemm_verdict;

/* The dtype a one-dtype check runs a kernel in: f32 where it has it, else
 * f64, else i32. */
gh_dtype gemm_case_first_dtype(const gh_kernel_info *ki);

/* Allocates, fills and uploads; args at the kernel's default parameters.
 * On failure the status says what and `what` names the step. */
gh_status gemm_setup_make(const conformance *c, int device, const gh_kernel_info *ki, const gemm_case *gc,
                          uint64_t seed, gemm_setup *s, const char **what);
void gemm_setup_free(const conformance *c, gemm_setup *s);

/* Downloads A, B and C and judges them; returns 0, or -1 when a download
 * failed (then verdict.result says so). */
int gemm_verify(const conformance *c, const gemm_setup *s, gemm_verdict *v);

/* "tn 7x5x3 alpha 1.5 beta 0" */
void gemm_case_text(const gemm_case *gc, char *out, size_t size);
const char *dtype_name(gh_dtype d);

#endif
