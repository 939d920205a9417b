/* The CUDA plugin's internal types, shared by its source files. */
#ifndef GH_CUDA_PLUGIN_H
#define GH_CUDA_PLUGIN_H

#include <pthread.h>
#include <stdint.h>

#include "gemmhost/plugin.h"
#include "cuda_libs.h"

/* Kernel indices, in the order kernel_info() lists them. */
enum { GH_CUDA_NAIVE = 0, GH_CUDA_TILED = 1, GH_CUDA_CUBLAS = 2, GH_CUDA_KERNEL_COUNT = 3 };
#define GH_CUDA_SOURCE_KERNELS 2 /* naive and tiled are compiled from kernels/cuda */

/* The tiles tiled.cu is built for; index into a device's module cache. */
#define GH_CUDA_TILE_COUNT 4
extern const int64_t gh_cuda_tiles[GH_CUDA_TILE_COUNT];

/* A compiled kernel, loaded on one device. */
typedef struct gh_cuda_module {
    CUmodule module;              /* NULL until first used */
    CUfunction function;
    int max_threads;              /* CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK */
    int static_shared;            /* CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES */
} gh_cuda_module;

/* One device of a context. Calls about one device come from one thread at a
 * time (plugin.h), so nothing here needs a lock. */
typedef struct gh_cuda_device {
    int index;                    /* the CUDA ordinal */
    CUdevice handle;
    CUcontext context;            /* the primary context, retained: cuBLAS uses it too */
    CUstream stream;              /* every copy, kernel and cuBLAS call goes here */
    CUevent start, stop;          /* around each timed GEMM */
    int cc_major, cc_minor;
    int max_threads_per_block;
    int max_shared_per_block;     /* the static __shared__ limit, which these kernels use */
    int max_shared_per_block_optin; /* needs dynamic shared memory; reported only */
    int max_grid_x, max_grid_y;
    char name[256];
    char driver_version[96];
    char api[128];
    gh_device_info info;          /* points into the strings above */
    /* Per (kernel, dtype, tile); naive uses tile index 0. */
    gh_cuda_module modules[GH_CUDA_SOURCE_KERNELS][GH_DTYPE_COUNT][GH_CUDA_TILE_COUNT];
    cublasHandle_t cublas;        /* NULL until the first cuBLAS GEMM */
} gh_cuda_device;

struct gh_buffer {
    int device;
    CUdeviceptr ptr;
    uint64_t bytes;
    struct gh_buffer *prev, *next;
};

struct gh_plugin {
    uint64_t id;                  /* tags this context's errors; never reused */
    const gh_cu_api *cu;          /* NULL when there is no driver or no device */
    char *kernel_dir;             /* owned; NULL: the sources embedded at build time */
    gh_cuda_device *devices;      /* n_devices entries */
    int n_devices;
    char no_device[1024];         /* why devices are missing; "" when none are */
    pthread_mutex_t buffers_lock; /* threads of different devices share the list */
    struct gh_buffer *buffers;
};

#endif
