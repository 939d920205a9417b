/* Making a compiler's build log name the files a person edits. No OpenCL
 * here: plain text in, plain text out (the tests compile this file alone).
 *
 * The plugin hands the compiler one text: common.cl, then the kernel's file,
 * each after a `#line 1 "<file>"` directive. Clang-based compilers (PoCL)
 * honour the directives and report "tiled.cl:3:5: error: ...". NVIDIA's
 * ignores them and reports "<kernel>:41:5: error: ...", counting lines of the
 * whole text; ocl_log_translate turns those positions back into file:line. */
#ifndef GH_OPENCL_BUILD_LOG_H
#define GH_OPENCL_BUILD_LOG_H

#include <stddef.h>

/* One file's place in the text: its first line is line `first_line` of the
 * whole (counting from 1), and it has `lines` lines. */
typedef struct ocl_source_piece {
    const char *file;
    unsigned long first_line, lines;
} ocl_source_piece;

/* A copy of log (to free) where every "<NAME>:LINE" whose NAME is not one of
 * the compiler's own (<built-in>, <command line>, <scratch space>) and whose
 * LINE falls inside a piece reads "FILE:LINE-IN-FILE" instead. *translated
 * (may be NULL) counts the positions rewritten. NULL when out of memory. */
char *ocl_log_translate(const char *log, const ocl_source_piece *pieces, size_t n_pieces, int *translated);

/* NVIDIA's ptxas lines (from -cl-nv-verbose) that say what a kernel costs,
 * joined into text: "Used 40 registers, 392 bytes cmem[0]; 0 bytes stack
 * frame, 0 bytes spill stores, 0 bytes spill loads". "" when the log has
 * none. */
void ocl_log_ptxas_summary(const char *log, char *text, size_t size);

#endif
