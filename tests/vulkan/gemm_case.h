/* One GEMM case of the Vulkan plugin's test: inputs made on the host, run on
 * a device through the plugin ABI, and C checked against matrices.c's
 * reference, including every element around C's window. */
#ifndef GEMMHOST_TEST_VULKAN_GEMM_CASE_H
#define GEMMHOST_TEST_VULKAN_GEMM_CASE_H

#include <stddef.h>
#include <stdint.h>

#include "gemmhost/plugin.h"
#include "matrices.h"

/* An open context of the plugin (each thread of the test may have its own). */
typedef struct plugin {
    const gh_plugin_api *api;
    gh_plugin *ctx;
} plugin;

#define MAX_PARAMS 6

typedef struct gemm_case {
    int device, kernel;
    int64_t params[MAX_PARAMS]; /* the kernel's parameters, in its order */
    size_t n_params;
    problem p;
} gemm_case;

/* Alpha, beta, padding and offsets a problem is made with. */
typedef struct scenario {
    double alpha, beta;     /* floats */
    double i_alpha, i_beta; /* i32: integral */
    int64_t pad;            /* ld = width + pad */
    uint64_t off[3];        /* element offsets of A, B, C */
} scenario;

enum { SCENARIO_COUNT = 3 };
extern const scenario scenarios[SCENARIO_COUNT];
/* Leading dimensions and offsets multiples of 4 elements: with sizes that
 * are too, warptile reads A and B as vectors (plugins/vulkan/gemm.c). */
extern const scenario vector_scenario;
/* Leading dimensions and offsets multiples of 8 elements: coopmat reads
 * A and B 16 bytes at a time where a tile lies wholly inside them. */
extern const scenario vector8_scenario;

void make_problem(problem *p, gh_dtype dtype, int ta, int tb, const int64_t shape[3], const scenario *s);

/* Bytes of C's whole buffer: the matrix, its offset and the guard after it. */
size_t case_c_bytes(const gemm_case *c);

/* Runs c; returns 1 when it passed, else 0 with `why` saying what went
 * wrong. When result is not NULL it gets C's whole buffer after a passing
 * run (the caller frees it). */
int run_case(const plugin *pl, const gemm_case *c, char *why, size_t why_size, void **result);

/* "tile=64 work=4" */
void describe_params(const plugin *pl, const gemm_case *c, char *buf, size_t size);
/* "device 0 blocked tile=64 work=4 f32 nt 37x53x29 alpha=1.5 beta=-0.75 ld=32/56/56 off=5/7/9" */
void describe_case(const plugin *pl, const gemm_case *c, char *buf, size_t size);

#endif
