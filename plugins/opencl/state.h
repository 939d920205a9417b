/* What a context (gh_plugin) holds: its devices, each with its own OpenCL
 * context, queue, program cache and buffers. Nothing is shared between
 * devices, so calls for different devices may run on different threads. */
#ifndef GH_OPENCL_STATE_H
#define GH_OPENCL_STATE_H

#include <CL/cl.h>
#include <gemmhost/plugin.h>
#include "clblast.h"
#include "kernels.h"

/* A built program, one per (kernel, A/B/C types, parameter combination) used on
 * the device; kept in a list (warptile alone has 1728 combinations). */
typedef struct ocl_program_slot {
    int kernel;
    gh_dtype a, b, c; /* A's, B's and C's element types */
    int slot;         /* ocl_variant.slot */
    cl_program program;
    cl_kernel cl_kernel;
    char compiler_info[256]; /* NVIDIA: ptxas's registers and spills; else "" */
    struct ocl_program_slot *next;
} ocl_program_slot;

typedef struct ocl_device {
    cl_platform_id platform;
    cl_device_id id;
    gh_device_info info;                                        /* what device_info() returns */
    char *name, *vendor, *driver_version, *api, *platform_name; /* info's strings */
    cl_ulong max_alloc_bytes;                                   /* CL_DEVICE_MAX_MEM_ALLOC_SIZE */
    size_t max_work_item_sizes[3];
    int nv_compiler_options;          /* cl_nv_compiler_options: -cl-nv-* build options */
    cl_uint nv_registers_per_block;   /* CL_DEVICE_REGISTERS_PER_BLOCK_NV, or 0 */
    cl_uint nv_cc_major, nv_cc_minor; /* CL_DEVICE_COMPUTE_CAPABILITY_*_NV; 0 off NVIDIA */
    int has_fp16;                     /* cl_khr_fp16: half arithmetic (CLBlast's HGEMM) */
    char *pci_address;                /* "0000:1b:00.0" (cl_khr_pci_bus_info or NVIDIA's query); "" none (owned: the
                          array of devices moves as it grows, so no string lives inside it) */

    /* Created on first use, so that listing devices changes nothing. */
    cl_context context;
    cl_command_queue queue;     /* in order, with profiling */
    ocl_program_slot *programs; /* built so far, newest first */
    struct gh_buffer *buffers;  /* live buffers, so close() can free them */
} ocl_device;

struct gh_buffer {
    int device;
    cl_mem mem;
    uint64_t bytes;
    struct gh_buffer *prev, *next; /* in its device's list */
};

struct gh_plugin {
    ocl_device *devices;
    int device_count;
    char *kernel_dir;            /* NULL: use the embedded sources */
    char *clblast_library;       /* the clblast option; NULL: OCL_CLBLAST_LIBRARY */
    ocl_clblast clblast;         /* loaded at the first clblast GEMM */
    char no_device_reason[1024]; /* why device_count is 0 */
};

#endif
