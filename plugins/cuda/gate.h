/* A gate held shut in front of a timed GEMM, so that its start event and
 * its kernels run back to back on the GPU.
 *
 * CUDA events time what the stream does between them, host gaps included:
 * the start event fires as soon as it is queued on an idle stream, while the
 * host is still inside cuBLAS's heuristics or cuLaunchKernel. The GEMM then
 * pays that host time, which a user calling it back to back never sees
 * (OpenCL's profiling events and Vulkan's timestamps time the kernel alone).
 * So a one-thread kernel first holds the stream until the host raises a flag,
 * raised once the stop event is queued, as nvbench's blocking kernel does.
 * It gives up after a time limit instead of waiting forever: CUDA's lazy
 * loading may wait for the whole context while a library launches a kernel
 * for the first time, and a gate that never opened would hang it. */
#ifndef GH_CUDA_GATE_H
#define GH_CUDA_GATE_H

#include <stdint.h>

#include "gemmhost/plugin.h"
#include "libs.h"

typedef struct gh_cuda_gate {
    volatile uint32_t *flag; /* page-locked, mapped for the device; NULL until first used */
    CUdeviceptr flag_device; /* the same word as the device sees it */
    CUmodule module;         /* the holding kernel's */
    CUfunction hold;
    uint32_t next; /* the value the next shut waits for */
    int shut;      /* a hold is queued that nothing has released yet */
} gh_cuda_gate;

/* Queues on `stream` the kernel that holds it until the gate's next value
 * (making the flag and loading the kernel on first use, with the device's
 * context current). */
gh_status gh_cuda_gate_shut(const gh_cu_api *cu, int device_index, gh_cuda_gate *g, CUstream stream);
/* Releases a shut gate; nothing when it is open. Call on every path after
 * gh_cuda_gate_shut, errors included, before waiting on the stream. */
void gh_cuda_gate_open(gh_cuda_gate *g);

/* The events around a timed GEMM (NULL: untimed), the gate that holds its
 * stream until the GEMM is queued whole (NULL: none, as for a lone
 * gemm_async, whose caller keeps the stream busy), and how many launches of
 * it lie between them (0 or 1: one; more: gemm_batch_async). */
typedef struct gh_cuda_timed {
    CUevent start, stop;
    gh_cuda_gate *gate;
    unsigned launches;
    int prepare_only; /* compile the kernel or choose cuBLASLt's algorithm, and queue nothing */
    int captured;     /* queued into a CUDA graph: no copies from host memory (done while preparing) */
} gh_cuda_timed;

/* The launches t asks for: 1 when t is NULL. */
static inline unsigned gh_cuda_launches(const gh_cuda_timed *t)
{
    return t && t->launches > 1 ? t->launches : 1;
}

/* Shuts t's gate (if any) and records its start on `stream`; nothing when t
 * is NULL or untimed. */
gh_status gh_cuda_timed_begin(const gh_cu_api *cu, int device_index, const gh_cuda_timed *t, CUstream stream);
/* Records t's stop on `stream`; nothing when t is NULL or untimed. */
gh_status gh_cuda_timed_end(const gh_cu_api *cu, int device_index, const gh_cuda_timed *t, CUstream stream);

/* Frees the flag and unloads the kernel (the device's context current, its
 * streams idle). */
void gh_cuda_gate_free(const gh_cu_api *cu, gh_cuda_gate *g);

#endif
