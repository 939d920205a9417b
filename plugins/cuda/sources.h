/*
 * The CUDA C sources of the naive, tiled and blocked kernels: embedded in
 * the plugin at build time (cmake/Embed.cmake), or read from a kernel_dir
 * (the option, else $GEMMHOST_KERNEL_DIR) so they can be changed without a
 * rebuild.
 */
#ifndef GH_CUDA_SOURCES_H
#define GH_CUDA_SOURCES_H

#include "gemmhost/plugin.h"

#define GH_CUDA_KERNEL_DIR_ENV "GEMMHOST_KERNEL_DIR"
#define GH_CUDA_MAX_SOURCES    16

/* Every kernel source file: the programs and the headers they include. */
typedef struct gh_cuda_sources {
    int n;
    const char *names[GH_CUDA_MAX_SOURCES];
    char *texts[GH_CUDA_MAX_SOURCES]; /* owned, NUL-terminated */
} gh_cuda_sources;

/* The sources from kernel_dir when it is not NULL, else the embedded
 * copies; gh_cuda_sources_free releases them. A generated file
 * (wgmma_ops.cuh) absent from kernel_dir is the embedded copy. */
gh_status gh_cuda_sources_load(const char *kernel_dir, gh_cuda_sources *s);
void gh_cuda_sources_free(gh_cuda_sources *s);

/* open's kernel folder: the option when set, else $GEMMHOST_KERNEL_DIR,
 * which may name the whole kernels/ tree (shared with other plugins) or its
 * cuda/ folder. *out is malloc'd, or NULL for the embedded sources. A folder
 * without every source file is GH_INVALID_ARGUMENT, naming it. */
gh_status gh_cuda_choose_kernel_dir(const char *option, char **out);

/* Checks that dir holds every kernel source file but the generated ones
 * (wgmma_ops.cuh). GH_OK, or
 * GH_INVALID_ARGUMENT naming the first one missing; `origin` says where dir
 * came from ("kernel_dir", "$GEMMHOST_KERNEL_DIR"). */
gh_status gh_cuda_check_kernel_dir(const char *dir, const char *origin);
/* 1 if dir holds every kernel source file (as above), else 0. */
int gh_cuda_kernel_dir_complete(const char *dir);

#endif
