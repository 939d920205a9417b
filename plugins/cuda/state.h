/* The CUDA plugin's context and per-device state, shared by its source
 * files: a context owns its devices, buffers, streams and host memory;
 * entry.c's close frees them, top down. */
#ifndef GH_CUDA_STATE_H
#define GH_CUDA_STATE_H

#include <pthread.h>
#include <stdint.h>

#include "gate.h"
#include "gemmhost/plugin.h"
#include "kernels.h"
#include "libs.h"
#include "lt_plan.h"

/* A compiled kernel, loaded on one device. blocked.cu has one function per
 * transpose pair, warptile.cu and mma.cu two (a scalar and a 16-byte copy path);
 * naive and tiled one for all four. */
typedef struct gh_cuda_module {
    CUmodule module;        /* NULL until first used */
    CUfunction function[8]; /* by trans_a * 2 + trans_b, + 4 for warptile's and mma's 16-byte path (else NULL) */
    int max_threads;        /* CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, least of them */
    int static_shared;      /* CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, most of them */
} gh_cuda_module;

/* A loaded variant of warptile or mma, in its device's list. */
typedef struct gh_cuda_param_module {
    int kernel;
    int slot; /* gh_cuda_type_slot of its element types */
    int64_t params[GH_WT_PARAMS];
    gh_cuda_module m;
    struct gh_cuda_param_module *next;
} gh_cuda_param_module;

/* The cuBLAS kernels' variants (cublaslt.h). */
enum {
    GH_CUDA_BLAS_DEFAULT = 0,
    GH_CUDA_BLAS_TF32 = 1,
    GH_CUDA_BLAS_STRICT = 2,
    GH_CUDA_BLAS_FP8 = 3,      /* cublaslt-fp8: per-tensor scales, f32 compute, promoted sums */
    GH_CUDA_BLAS_FP8_FAST = 4, /* cublaslt-fp8-fast: the same with CUBLASLT_MATMUL_DESC_FAST_ACCUM */
    GH_CUDA_BLAS_I8 = 5        /* cublaslt-i8: CUBLAS_COMPUTE_32I */
};

/* What one stream's cuBLAS calls own: no two streams share a workspace. */
typedef struct gh_cuda_blas {
    cublasHandle_t legacy; /* the legacy API's, when cuBLASLt is missing; NULL until used */
    CUdeviceptr workspace; /* cuBLASLt's (GH_CUDA_LT_WORKSPACE bytes); 0 until first used */
    CUdeviceptr scales;    /* the FP8 GEMMs' per-tensor scales, two f32 (device memory, as cuBLASLt
                              reads them); 0 until first used */
} gh_cuda_blas;

/* One device of a context. Calls about one device come from one thread at a
 * time (plugin.h), so nothing here needs a lock. */
typedef struct gh_cuda_device {
    int index; /* the CUDA ordinal */
    CUdevice handle;
    CUcontext context;   /* the primary context, retained: cuBLAS uses it too */
    CUstream stream;     /* every copy, kernel and cuBLAS call goes here */
    CUevent start, stop; /* around each timed GEMM */
    gh_cuda_gate gate;   /* holds `stream` until a timed GEMM is queued whole (gate.h) */
    int cc_major, cc_minor;
    int max_threads_per_block;
    int max_shared_per_block;       /* the static __shared__ limit, which these kernels use */
    int max_shared_per_block_optin; /* needs dynamic shared memory; reported only */
    int max_grid_x, max_grid_y;
    int sm_count;  /* bounds wgmma's persistent grid */
    int max_pitch; /* the largest pitch cuMemcpy2D takes */
    char name[256];
    char driver_version[96];
    char api[128];
    char pci_address[32]; /* "0000:1b:00.0", lower case as sysfs has it; "" when unknown */
    gh_device_info info;  /* points into the strings above */
    /* Per (kernel, element types' slot (gh_cuda_type_slot), variant);
     * naive has variant 0 only. */
    gh_cuda_module modules[GH_CUDA_FIXED_KERNELS][GH_CUDA_TYPE_SLOTS][GH_CUDA_VARIANT_MAX];
    struct gh_cuda_param_module *param_modules; /* per (kernel, types, parameters), newest first */
    gh_cuda_blas blas;                          /* `stream`'s; empty until the first blocking cuBLAS GEMM */
    cublasLtHandle_t lt;                        /* NULL until the first cuBLASLt GEMM */
    gh_lt_choice *lt_choices;                   /* cuBLASLt's algorithm kept per case, for the run */
} gh_cuda_device;

struct gh_buffer {
    int device;
    CUdeviceptr ptr;
    uint64_t bytes;
    struct gh_buffer *prev, *next;
};

/* What a GEMM reports beside its time (gh_gemm_timing's note and split). */
typedef struct gh_cuda_report {
    char note[GH_LT_NOTE_BYTES];  /* "" for the source kernels */
    uint32_t split_pieces;        /* cuBLASLt's split-K summed in C's type: its pieces; else 0 */
    gh_precision split_precision; /* the type of that sum */
} gh_cuda_report;

/* Writes r (NULL: nothing to say) and ms into the caller's timing, by size. */
void gh_cuda_report_write(gh_gemm_timing *timing, double ms, const gh_cuda_report *r);

/* A timed operation queued on a stream, waiting for stream_synchronize to
 * write its time. Its events stay with the slot for reuse. */
typedef struct gh_cuda_pending {
    CUevent start, stop;    /* created on first use of the slot */
    int timed;              /* 0: nothing ran (an empty copy): writes 0 */
    unsigned launches;      /* the GEMM's launches between the events (gemm_batch_async): ms over this */
    double *ms;             /* the caller's elapsed_ms, or NULL */
    gh_gemm_timing *timing; /* the caller's GEMM timing, or NULL */
    gh_cuda_report report;  /* the GEMM's note and split */
} gh_cuda_pending;

/* A CUstream on one device's primary context (ABI minor 1). Used by the one
 * thread that works on its device at a time. */
struct gh_stream {
    gh_plugin *ctx;           /* the context that made it */
    int device;               /* index into ctx->devices */
    CUstream stream;          /* non-blocking */
    gh_cuda_blas blas;        /* this stream's own; empty until its first cuBLAS GEMM */
    gh_cuda_gate gate;        /* holds the stream while a batch is queued (gemm_batch_async) */
    gh_cuda_pending *pending; /* n_pending in use, cap_pending allocated (grows) */
    size_t n_pending, cap_pending;
    unsigned long long queued; /* operations queued since the last synchronize */
    char last_op[160];         /* the last of them, for error messages */
    struct gh_stream *prev, *next;
};

/* Page-locked host memory from host_alloc, and the context it came from. */
typedef struct gh_cuda_host_block {
    void *ptr;
    uint64_t bytes;
    int device;     /* whose primary context was current */
    int registered; /* 1: the host's memory, pinned by host_register (cuMemHostUnregister frees the pinning) */
    struct gh_cuda_host_block *next;
} gh_cuda_host_block;

struct gh_plugin {
    const gh_cu_api *cu;     /* NULL when there is no driver or no device */
    char *kernel_dir;        /* owned; NULL: the sources embedded at build time */
    gh_cuda_device *devices; /* n_devices entries */
    int n_devices;
    char no_device[1024];         /* why devices are missing; "" when none are */
    pthread_mutex_t buffers_lock; /* threads of different devices share these lists */
    struct gh_buffer *buffers;
    gh_cuda_host_block *host_blocks;
    pthread_mutex_t streams_lock; /* guards streams likewise */
    struct gh_stream *streams;
};

/* The context's lists of buffers and of streams: doubly linked through
 * prev and next, head first, changed under `lock`. */
#define GH_CUDA_LIST_ADD(lock, head, node) \
    do {                                   \
        pthread_mutex_lock(lock);          \
        (node)->prev = NULL;               \
        (node)->next = (head);             \
        if (head) (head)->prev = (node);   \
        (head) = (node);                   \
        pthread_mutex_unlock(lock);        \
    } while (0)
#define GH_CUDA_LIST_REMOVE(lock, head, node)                \
    do {                                                     \
        pthread_mutex_lock(lock);                            \
        if ((node)->prev) (node)->prev->next = (node)->next; \
        else (head) = (node)->next;                          \
        if ((node)->next) (node)->next->prev = (node)->prev; \
        pthread_mutex_unlock(lock);                          \
    } while (0)

#endif
