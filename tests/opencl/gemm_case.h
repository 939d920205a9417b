/* One GEMM run through the plugin and checked against a host reference. */
#ifndef GH_TEST_GEMM_CASE_H
#define GH_TEST_GEMM_CASE_H

#include <stddef.h>
#include <gemmhost/plugin.h>

/* Most parameters a kernel takes (warptile's 7). */
#define GEMM_CASE_MAX_PARAMS 8

typedef struct gemm_case {
    int kernel;                           /* index in the plugin */
    int64_t params[GEMM_CASE_MAX_PARAMS]; /* the kernel's parameters in its order (wg; tile; tile, work; ...) */
    size_t n_params;                      /* how many of them are given: the kernel's n_params */
    gh_dtype dtype;
    int trans_a, trans_b;
    int64_t m, n, k;
    double alpha, beta; /* beta == 0: C starts as NaN (a sentinel for i32) */
    int64_t pad;        /* every ld is the stored width + pad */
    uint64_t offset;    /* elements before each matrix in its buffer */
    uint64_t seed;
    int repeat; /* run a second time; C must come out bit for bit the same */
} gemm_case;

typedef enum { CASE_PASS, CASE_FAIL, CASE_SKIP } case_result;

/* Runs the case on the device and checks every element of C against an
 * extended-precision reference with the K-scaled bound of verification.md
 * (exact for i32; f16 and bf16 with the host's own verification, which has
 * the rounding to 16 bits in its bound), and every element around C for
 * stray writes. On a fail or skip, `why` says what happened. */
case_result gemm_case_run(const gh_plugin_api *api, gh_plugin *ctx, int device, const gemm_case *c, char *why,
                          size_t why_size);

/* A 5x5x5 f32 GEMM of the kernel with the given parameters, for checks that
 * want the status (and last_error) rather than the numbers. */
gh_status gemm_case_status(const gh_plugin_api *api, gh_plugin *ctx, int device, int kernel, const int64_t *params,
                           size_t n_params);

/* "blocked tile=64 work=4 f32 nt 37x53x29 alpha=1.5 beta=-0.75 pad=3 offset=7" */
void gemm_case_describe(const gh_plugin_api *api, gh_plugin *ctx, const gemm_case *c, char *text, size_t size);

#endif
