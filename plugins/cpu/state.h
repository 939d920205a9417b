/* The C plugin's context and buffers, shared by its files. */
#ifndef GEMMHOST_CPU_STATE_H
#define GEMMHOST_CPU_STATE_H

#include "gemmhost/plugin.h"
#include "gemmhost/plugin_helpers.h"
#include "pool.h"

/* fail(status, fmt, ...) sets the calling thread's last_error text and
 * returns status (plugin_helpers.h keeps the text per thread, as the ABI asks). */
#define fail gh_plugin_set_error

enum { DEVICE_COUNT = 1 }; /* the host CPU */

/* CBLAS, loaded at the first `blas` GEMM (blas.c). */
typedef struct cpu_blas {
    int tried;
    void *lib;
    void (*sgemm)(int, int, int, int, int, int, float, const float *, int, const float *, int, float, float *, int);
    void (*dgemm)(int, int, int, int, int, int, double, const double *, int, const double *, int, double, double *,
                  int);
    void (*set_threads)(int); /* OpenBLAS's, where present */
    char why[512];            /* why none loaded */
} cpu_blas;

struct gh_plugin {
    int threads;
    const char *blas_library; /* the `blas` option, or NULL: the default list */
    cpu_blas blas;
    cpu_pool *pool; /* the GEMM's threads, started at the first GEMM */
    char device_name[256];
    char api[64];
    char pci_address[32]; /* "" but in tests: GEMMHOST_CPU_FAKE_PCI_ADDRESS */
    gh_device_info info;
};

struct gh_buffer {
    uint64_t bytes;
    unsigned char *data;
};

#endif
