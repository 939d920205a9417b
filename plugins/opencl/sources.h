/* Kernel source text: the copy embedded at build time, or the same file
 * from a kernel directory, for kernel work without a rebuild. */
#ifndef GH_OPENCL_SOURCES_H
#define GH_OPENCL_SOURCES_H

#include <stddef.h>
#include <gemmhost/plugin.h>

/* The text of `file` (e.g. "tiled.cl") in a new allocation the caller frees.
 * With kernel_dir set, reads <kernel_dir>/<file>, or else
 * <kernel_dir>/opencl/<file> (so the kernels/ root of the source tree works
 * too); a file in neither place is an error, never a silent fallback. */
gh_status ocl_source_load(const char *kernel_dir, const char *file, char **text, size_t *length);

#endif
