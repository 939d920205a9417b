/* --save-outputs DIR: each distinct output of a run kept as DIR/HASH.npy
 * (HASH: its output_hash, 16 hex digits), for a full comparison of two
 * machines' outputs or for numpy (numpy.load). f32, f64, i32 and f16 are
 * numpy's <f4, <f8, <i4 and <f2; bf16, which numpy lacks, its bit patterns
 * as <u2 (values: (a.astype(numpy.uint32) << 16).view(numpy.float32)). */
#ifndef GEMMHOST_SAVE_OUTPUT_H
#define GEMMHOST_SAVE_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include "data.h"

/* Checks that DIR is a folder, or makes it. Returns 0, or -1 with err. */
int gh_save_outputs_prepare(const char *dir, char *err, size_t err_size);

/* Writes DIR/HASH.npy unless a regular file of that name is there already
 * (the same hash: the same output). Written whole or not at all
 * (replace_file.h); a folder, device or link-to-one at the path is refused
 * (output_guard.h). Returns 0, or -1 with err naming the file and why. */
int gh_save_output_npy(const char *dir, const gh_matrix *out, uint64_t hash, char *err, size_t err_size);

/* The .npy file's bytes for a matrix (header and the matrix area, rows
 * without their padding); NULL when out of memory. */
char *gh_npy_render(const gh_matrix *m, size_t *len);

#endif
