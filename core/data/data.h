/* Host matrices for one case: seeded inputs, poisoned outputs, guard zones. */
#ifndef GEMMHOST_DATA_H
#define GEMMHOST_DATA_H

#include <stddef.h>
#include <stdint.h>
#include "gemmhost/plugin.h"

/* Where a matrix's storage comes from: plain malloc by default, or memory a
 * device copies fastest from (a plugin's pinned host_alloc). `alloc` returns
 * NULL when out of memory. The allocator's user data must outlive every
 * matrix allocated with it. */
typedef struct gh_host_allocator {
    void *(*alloc)(void *user, size_t bytes);
    void (*free)(void *user, void *ptr);
    void *user;
} gh_host_allocator;

/* A row-major matrix of rows x cols with leading dimension ld >= cols,
 * placed inside a larger allocation: `guard` elements before, `guard` after,
 * and the ld - cols padding elements of every row all hold a known pattern
 * so that a write out of bounds shows up. The whole storage is uploaded to a
 * device, and the GEMM gets offset = guard, so offsets and ld are exercised. */
typedef struct gh_matrix {
    gh_dtype dtype;
    int64_t rows, cols, ld;
    int64_t guard;               /* elements before and after the matrix */
    size_t elem_size;            /* 4 or 8 */
    size_t storage_elems;        /* guard + rows * ld + guard */
    void *storage;               /* owned; storage_elems * elem_size bytes */
    gh_host_allocator allocator; /* how storage was allocated; all NULL: malloc */
} gh_matrix;

size_t gh_dtype_size(gh_dtype d);
const char *gh_dtype_name(gh_dtype d);            /* "f32", "f64", "i32" */
int gh_dtype_parse(const char *s, gh_dtype *out); /* 0 on success */

/* Allocates and fills guards and padding with the guard pattern; the matrix
 * area itself is left poisoned. Returns 0, or -1 when out of memory. */
int gh_matrix_alloc(gh_matrix *m, gh_dtype dtype, int64_t rows, int64_t cols, int64_t ld, int64_t guard);
/* The same with storage from `alloc` (NULL: malloc); gh_matrix_free gives it
 * back the same way. */
int gh_matrix_alloc_with(gh_matrix *m, gh_dtype dtype, int64_t rows, int64_t cols, int64_t ld, int64_t guard,
                         const gh_host_allocator *alloc);
void gh_matrix_free(gh_matrix *m);
/* Pointer to element (0, 0). */
void *gh_matrix_data(const gh_matrix *m);
size_t gh_matrix_storage_bytes(const gh_matrix *m);
/* Element (i, j) as double, whatever the dtype. */
double gh_matrix_get(const gh_matrix *m, int64_t i, int64_t j);
void gh_matrix_set(gh_matrix *m, int64_t i, int64_t j, double v);

/* Seeded fill of the matrix area (guards untouched). Floats uniform in
 * [-1, 1); i32 uniform in [-int_range, int_range]. `stream` separates A, B and
 * C drawn from one seed. Never all zeros. Deterministic for (seed, stream):
 * large matrices are filled by several threads, with the same values. */
void gh_matrix_fill_random(gh_matrix *m, uint64_t seed, uint64_t stream, int32_t int_range);
/* Value number `index` of the random sequence keyed by (seed, stream)
 * (counter-based splitmix64): the fill uses index = i * cols + j, and the
 * verifier draws its vectors and sample positions from its own streams. */
uint64_t gh_random_u64(uint64_t seed, uint64_t stream, uint64_t index);
/* i32 input range such that |sum| over K products plus |beta*C0| cannot overflow. */
int32_t gh_i32_input_range(int64_t k, double alpha, double beta);

/* Fills the matrix area with NaN (floats) or GH_I32_POISON (i32): an element
 * a kernel never writes then fails the check. */
#define GH_I32_POISON ((int32_t)0x7F7F7F7F)
void gh_matrix_poison(gh_matrix *m);
/* 1 when element (i, j) still holds the poison bit pattern (never written). */
int gh_matrix_is_poison(const gh_matrix *m, int64_t i, int64_t j);

/* Checks guards and row padding still hold the pattern. Returns the number of
 * overwritten elements; the first one found goes to *first_index (storage
 * index) when not NULL. */
int64_t gh_matrix_check_guards(const gh_matrix *m, int64_t *first_index);

/* Copies the matrix area (with its storage) from src into dst, same shape. */
void gh_matrix_copy(gh_matrix *dst, const gh_matrix *src);

/* 1 when the matrix areas of x and y (same shape) hold the same bits: what
 * equal hashes mean, but exact and far quicker than hashing again. */
int gh_matrix_same_values(const gh_matrix *x, const gh_matrix *y);

/* 64-bit FNV-1a hash of the matrix area only (padding and guards excluded). */
uint64_t gh_matrix_hash(const gh_matrix *m);

#endif
