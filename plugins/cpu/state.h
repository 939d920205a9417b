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

struct gh_plugin {
    int threads;
    cpu_pool *pool; /* the GEMM's threads, started at the first GEMM */
    char device_name[256];
    char api[64];
    gh_device_info info;
};

struct gh_buffer {
    uint64_t bytes;
    unsigned char *data;
};

#endif
