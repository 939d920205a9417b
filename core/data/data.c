/* Host matrices for one case: seeded inputs, poisoned outputs, guard zones. */
#define _POSIX_C_SOURCE 200809L
#include "data.h"

#include "gemmhost/fp8.h"
#include "gemmhost/half.h"
#include "gemmhost/plugin_helpers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parallel.h"

/* Guards and padding hold a finite, recognisable pattern that differs from the
 * poison, so "never written" and "written out of bounds" stay distinct. Read
 * by a kernel as a number it is huge (about 1.5e16 as f32), so reading out of
 * bounds shows up in the result too. */
static const uint32_t guard_word32 = 0x5A5A5A5Au;
static const uint64_t guard_word64 = 0x5A5A5A5A5A5A5A5Aull;

/* Quiet NaNs with a payload of our own, so the verifier can tell an element
 * that still holds the poison from a NaN the kernel computed. */
static const uint32_t poison_f32_bits = 0x7FC0DEADu;
static const uint64_t poison_f64_bits = 0x7FF8DEADDEADDEADull;

size_t gh_dtype_size(gh_dtype d)
{
    return d == GH_F64 ? 8 : d == GH_F16 || d == GH_BF16 ? 2 : d == GH_E4M3 || d == GH_E5M2 || d == GH_I8 ? 1 : 4;
}

/* The plugins' names (gemmhost/plugin_helpers.h), so host and plugins spell a
 * type alike; "?" for a value outside gh_dtype. */
const char *gh_dtype_name(gh_dtype d)
{
    return (unsigned)d < GH_DTYPE_COUNT ? gh_plugin_dtype_name(d) : "?";
}

int gh_dtype_parse(const char *s, gh_dtype *out)
{
    static const gh_dtype all[GH_DTYPE_COUNT] = {GH_F32, GH_F64, GH_I32, GH_F16, GH_BF16, GH_E4M3, GH_E5M2, GH_I8};
    if (!s) return -1;
    for (int i = 0; i < GH_DTYPE_COUNT; i++) {
        if (strcmp(s, gh_dtype_name(all[i])) == 0) {
            *out = all[i];
            return 0;
        }
    }
    return -1;
}

/* ---- element access ---------------------------------------------------- */

void *gh_matrix_data(const gh_matrix *m)
{
    return (char *)m->storage + (size_t)m->guard * m->elem_size;
}

size_t gh_matrix_storage_bytes(const gh_matrix *m)
{
    return m->storage_elems * m->elem_size;
}

static size_t element_index(const gh_matrix *m, int64_t i, int64_t j)
{
    return (size_t)(i * m->ld + j);
}

double gh_matrix_get(const gh_matrix *m, int64_t i, int64_t j)
{
    size_t at = element_index(m, i, j);
    switch (m->dtype) {
    case GH_F32: return ((const float *)gh_matrix_data(m))[at];
    case GH_F64: return ((const double *)gh_matrix_data(m))[at];
    case GH_I32: return ((const int32_t *)gh_matrix_data(m))[at];
    case GH_F16: return gh_f16_to_f64(((const uint16_t *)gh_matrix_data(m))[at]);
    case GH_BF16: return gh_bf16_to_f64(((const uint16_t *)gh_matrix_data(m))[at]);
    case GH_E4M3: return gh_e4m3_to_f64(((const uint8_t *)gh_matrix_data(m))[at]);
    case GH_E5M2: return gh_e5m2_to_f64(((const uint8_t *)gh_matrix_data(m))[at]);
    case GH_I8: return ((const int8_t *)gh_matrix_data(m))[at];
    }
    return NAN;
}

/* Rounds to the nearest int32, saturating, so any double (NaN included) is
 * defined behaviour. */
static int32_t to_i32(double v)
{
    if (v != v) return 0;
    if (v >= 2147483647.0) return INT32_MAX;
    if (v <= -2147483648.0) return INT32_MIN;
    return (int32_t)lrint(v);
}

void gh_matrix_set(gh_matrix *m, int64_t i, int64_t j, double v)
{
    size_t at = element_index(m, i, j);
    switch (m->dtype) {
    case GH_F32: ((float *)gh_matrix_data(m))[at] = (float)v; break;
    case GH_F64: ((double *)gh_matrix_data(m))[at] = v; break;
    case GH_I32: ((int32_t *)gh_matrix_data(m))[at] = to_i32(v); break;
    case GH_F16: ((uint16_t *)gh_matrix_data(m))[at] = gh_f64_to_f16(v); break;
    case GH_BF16: ((uint16_t *)gh_matrix_data(m))[at] = gh_f64_to_bf16(v); break;
    case GH_E4M3: ((uint8_t *)gh_matrix_data(m))[at] = gh_f64_to_e4m3(v); break;
    case GH_E5M2: ((uint8_t *)gh_matrix_data(m))[at] = gh_f64_to_e5m2(v); break;
    case GH_I8: {
        const int32_t w = to_i32(v);
        ((int8_t *)gh_matrix_data(m))[at] = (int8_t)(w > INT8_MAX ? INT8_MAX : w < INT8_MIN ? INT8_MIN : w);
        break;
    }
    }
}

/* ---- row-parallel loops ------------------------------------------------ */

/* Below this many elements one thread is quicker than starting more. */
#define PARALLEL_MIN_ELEMS (1 << 20)

typedef void (*rows_fn)(gh_matrix *m, int64_t row_begin, int64_t row_end, void *ctx);

typedef struct rows_loop {
    rows_fn fn;
    gh_matrix *m;
    void *ctx;
} rows_loop;

static void rows_span(void *ctx, int64_t begin, int64_t end, int part)
{
    (void)part;
    rows_loop *loop = ctx;
    loop->fn(loop->m, begin, end, loop->ctx);
}

/* Calls fn over disjoint row ranges covering the matrix, on several threads
 * when it is large. Each element is written by exactly one call, so the
 * result does not depend on the thread count. */
static void for_rows_parallel(gh_matrix *m, rows_fn fn, void *ctx)
{
    int threads = (double)m->rows * (double)m->cols < PARALLEL_MIN_ELEMS ? 1 : gh_parallel_threads(0);
    rows_loop loop = {fn, m, ctx};
    gh_parallel_spans(m->rows, threads, rows_span, &loop);
}

/* ---- patterns ---------------------------------------------------------- */

/* Writes one element's worth of bits (the low elem_size bytes of `bits`). */
static void put_bits(void *base, size_t elem_size, size_t index, uint64_t bits)
{
    if (elem_size == 8) {
        memcpy((char *)base + index * 8, &bits, 8);
    } else if (elem_size == 2) {
        uint16_t h = (uint16_t)bits;
        memcpy((char *)base + index * 2, &h, 2);
    } else if (elem_size == 1) {
        ((unsigned char *)base)[index] = (unsigned char)bits;
    } else {
        uint32_t w = (uint32_t)bits;
        memcpy((char *)base + index * 4, &w, 4);
    }
}

static uint64_t get_bits(const void *base, size_t elem_size, size_t index)
{
    if (elem_size == 8) {
        uint64_t bits;
        memcpy(&bits, (const char *)base + index * 8, 8);
        return bits;
    }
    if (elem_size == 2) {
        uint16_t h;
        memcpy(&h, (const char *)base + index * 2, 2);
        return h;
    }
    if (elem_size == 1) return ((const unsigned char *)base)[index];
    uint32_t w;
    memcpy(&w, (const char *)base + index * 4, 4);
    return w;
}

/* The guard word cut to the element's size: 0x5A5A is a normal number in f16
 * and bf16 alike, so an overwrite with any computed value shows. */
static uint64_t guard_bits(const gh_matrix *m)
{
    return m->elem_size == 8   ? guard_word64
           : m->elem_size == 2 ? (guard_word32 & 0xFFFFu)
           : m->elem_size == 1 ? (guard_word32 & 0xFFu)
                               : guard_word32;
}

static uint64_t poison_bits(const gh_matrix *m)
{
    switch (m->dtype) {
    case GH_F32: return poison_f32_bits;
    case GH_F64: return poison_f64_bits;
    case GH_I32: return (uint32_t)GH_I32_POISON;
    case GH_F16: return GH_F16_NAN;
    case GH_BF16: return GH_BF16_NAN;
    case GH_E4M3: return GH_E4M3_NAN;
    case GH_E5M2: return GH_E5M2_NAN;
    case GH_I8: return 0x80u; /* -128: a value the host's i8 draws never take */
    }
    return 0;
}

int gh_matrix_is_poison(const gh_matrix *m, int64_t i, int64_t j)
{
    return get_bits(gh_matrix_data(m), m->elem_size, element_index(m, i, j)) == poison_bits(m);
}

/* Storage ranges that hold the guard pattern, in order: the guard before,
 * each row's padding, the guard after. Calls fn(first, count) for each. */
typedef void (*range_fn)(const gh_matrix *m, size_t first, size_t count, void *ctx);

static void for_each_guard_range(const gh_matrix *m, range_fn fn, void *ctx)
{
    size_t guard = (size_t)m->guard, ld = (size_t)m->ld, cols = (size_t)m->cols;
    size_t rows = (size_t)m->rows;
    if (guard > 0) fn(m, 0, guard, ctx);
    if (ld > cols)
        for (size_t i = 0; i < rows; i++) fn(m, guard + i * ld + cols, ld - cols, ctx);
    if (guard > 0) fn(m, guard + rows * ld, guard, ctx);
}

static void write_guard_range(const gh_matrix *m, size_t first, size_t count, void *ctx)
{
    (void)ctx;
    uint64_t bits = guard_bits(m);
    for (size_t k = 0; k < count; k++) put_bits(m->storage, m->elem_size, first + k, bits);
}

typedef struct guard_scan {
    int64_t overwritten;
    int64_t first;
} guard_scan;

static void scan_guard_range(const gh_matrix *m, size_t first, size_t count, void *ctx)
{
    guard_scan *scan = ctx;
    uint64_t bits = guard_bits(m);
    for (size_t k = 0; k < count; k++) {
        if (get_bits(m->storage, m->elem_size, first + k) != bits) {
            if (scan->overwritten == 0) scan->first = (int64_t)(first + k);
            scan->overwritten++;
        }
    }
}

int64_t gh_matrix_check_guards(const gh_matrix *m, int64_t *first_index)
{
    guard_scan scan = {0, -1};
    for_each_guard_range(m, scan_guard_range, &scan);
    if (first_index) *first_index = scan.first;
    return scan.overwritten;
}

static void poison_rows(gh_matrix *m, int64_t row_begin, int64_t row_end, void *ctx)
{
    (void)ctx;
    uint64_t bits = poison_bits(m);
    void *data = gh_matrix_data(m);
    for (int64_t i = row_begin; i < row_end; i++)
        for (int64_t j = 0; j < m->cols; j++) put_bits(data, m->elem_size, element_index(m, i, j), bits);
}

void gh_matrix_poison(gh_matrix *m)
{
    for_rows_parallel(m, poison_rows, NULL);
}

/* ---- allocation -------------------------------------------------------- */

static void *malloc_bytes(void *user, size_t bytes)
{
    (void)user;
    return malloc(bytes);
}

static void free_bytes(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}

int gh_matrix_alloc(gh_matrix *m, gh_dtype dtype, int64_t rows, int64_t cols, int64_t ld, int64_t guard)
{
    return gh_matrix_alloc_with(m, dtype, rows, cols, ld, guard, NULL);
}

int gh_matrix_alloc_with(gh_matrix *m, gh_dtype dtype, int64_t rows, int64_t cols, int64_t ld, int64_t guard,
                         const gh_host_allocator *alloc)
{
    static const gh_host_allocator plain = {malloc_bytes, free_bytes, NULL};
    if (!alloc || !alloc->alloc || !alloc->free) alloc = &plain;
    memset(m, 0, sizeof *m);
    if (rows < 0 || cols < 0 || ld < cols || ld < 1 || guard < 0) return -1;
    size_t elem_size = gh_dtype_size(dtype);
    /* Refuse sizes whose byte count would not fit a size_t. */
    double total = 2.0 * (double)guard + (double)rows * (double)ld;
    if (total * (double)elem_size >= (double)SIZE_MAX / 2) return -1;
    size_t elems = (size_t)(2 * guard + rows * ld);
    void *storage = alloc->alloc(alloc->user, (elems > 0 ? elems : 1) * elem_size);
    if (!storage) return -1;
    if (alloc != &plain) m->allocator = *alloc;
    m->dtype = dtype;
    m->rows = rows;
    m->cols = cols;
    m->ld = ld;
    m->guard = guard;
    m->elem_size = elem_size;
    m->storage_elems = elems;
    m->storage = storage;
    for_each_guard_range(m, write_guard_range, NULL);
    gh_matrix_poison(m);
    return 0;
}

void gh_matrix_free(gh_matrix *m)
{
    if (!m) return;
    if (m->storage && m->allocator.free) m->allocator.free(m->allocator.user, m->storage);
    else free(m->storage);
    memset(m, 0, sizeof *m);
}

void gh_matrix_copy(gh_matrix *dst, const gh_matrix *src)
{
    /* Same shape means the same storage layout: one copy, guards included. */
    size_t bytes = gh_matrix_storage_bytes(src);
    if (gh_matrix_storage_bytes(dst) < bytes) bytes = gh_matrix_storage_bytes(dst);
    memcpy(dst->storage, src->storage, bytes);
}

/* ---- seeded fill ------------------------------------------------------- */

/* splitmix64's output function: a strong 64-bit mixer. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#define GOLDEN_GAMMA 0x9E3779B97F4A7C15ull

/* Element number `index` of the splitmix64 sequence keyed by (seed, stream).
 * Counter based: a value depends on its row-major position only, so the
 * same (seed, stream) gives the same matrix whatever the ld or guard. */
static uint64_t random_at(uint64_t key, uint64_t index)
{
    return mix64(key + (index + 1) * GOLDEN_GAMMA);
}

static uint64_t stream_key(uint64_t seed, uint64_t stream)
{
    return mix64(seed ^ mix64(stream * GOLDEN_GAMMA + 0x632BE59BD9B4E019ull));
}

uint64_t gh_random_u64(uint64_t seed, uint64_t stream, uint64_t index)
{
    return random_at(stream_key(seed, stream), index);
}

/* Uniform in [-1, 1): 24 random bits for f32 (exact as a float), 53 for f64. */
static double uniform_f32(uint64_t x)
{
    return (double)(x >> 40) * 0x1p-23 - 1.0;
}
static double uniform_f64(uint64_t x)
{
    return (double)(x >> 11) * 0x1p-52 - 1.0;
}

/* Uniform integer in [-range, range] by multiply-shift (bias < range / 2^32). */
static int32_t uniform_i32(uint64_t x, int32_t range)
{
    uint64_t span = 2 * (uint64_t)range + 1;
    return (int32_t)((int64_t)(((x >> 32) * span) >> 32) - range);
}

static int matrix_is_all_zero(const gh_matrix *m)
{
    for (int64_t i = 0; i < m->rows; i++)
        for (int64_t j = 0; j < m->cols; j++)
            if (gh_matrix_get(m, i, j) != 0.0) return 0;
    return 1;
}

typedef struct fill_params {
    uint64_t key;
    int32_t int_range;
} fill_params;

static void fill_rows(gh_matrix *m, int64_t row_begin, int64_t row_end, void *ctx)
{
    const fill_params *fp = ctx;
    const uint64_t key = fp->key;
    const int32_t int_range = fp->int_range;
    void *data = gh_matrix_data(m);
    for (int64_t i = row_begin; i < row_end; i++) {
        for (int64_t j = 0; j < m->cols; j++) {
            uint64_t x = random_at(key, (uint64_t)(i * m->cols + j));
            size_t at = element_index(m, i, j);
            switch (m->dtype) {
            case GH_F32: ((float *)data)[at] = (float)uniform_f32(x); break;
            case GH_F64: ((double *)data)[at] = uniform_f64(x); break;
            case GH_I32: ((int32_t *)data)[at] = uniform_i32(x, int_range); break;
            /* Drawn in f32, rounded once: every value is exact in the storage type. */
            case GH_F16: ((uint16_t *)data)[at] = gh_f32_to_f16((float)uniform_f32(x)); break;
            case GH_BF16: ((uint16_t *)data)[at] = gh_f32_to_bf16((float)uniform_f32(x)); break;
            case GH_E4M3: ((uint8_t *)data)[at] = gh_f64_to_e4m3(uniform_f32(x)); break;
            case GH_E5M2: ((uint8_t *)data)[at] = gh_f64_to_e5m2(uniform_f32(x)); break;
            case GH_I8: ((int8_t *)data)[at] = (int8_t)uniform_i32(x, int_range < 127 ? int_range : 127); break;
            }
        }
    }
}

void gh_matrix_fill_random(gh_matrix *m, uint64_t seed, uint64_t stream, int32_t int_range)
{
    fill_params fp = {stream_key(seed, stream), int_range < 1 ? 1 : int_range};
    for_rows_parallel(m, fill_rows, &fp);
    /* Zeros hide wrong indexing; a tiny i32 matrix can draw all zeros. */
    if (m->rows > 0 && m->cols > 0 && matrix_is_all_zero(m)) gh_matrix_set(m, 0, 0, 1.0);
}

/* Small values find indexing errors just as well, and keep the integer
 * result far from overflow. */
#define I32_RANGE_CAP 16

int32_t gh_i32_input_range(int64_t k, double alpha, double beta)
{
    /* Stay strictly below the poison value so a correct result never equals it. */
    const double limit = (double)GH_I32_POISON - 1.0;
    double a = fabs(alpha) > 1.0 ? fabs(alpha) : 1.0;
    double b = fabs(beta);
    double kk = k > 1 ? (double)k : 1.0;
    for (int32_t r = I32_RANGE_CAP; r > 1; r--) {
        double sum = kk * (double)r * (double)r; /* the accumulator alone */
        if (sum <= limit && a * sum + b * r <= limit) return r;
    }
    return 1;
}

/* ---- hash -------------------------------------------------------------- */

int gh_matrix_same_values(const gh_matrix *x, const gh_matrix *y)
{
    if (x->dtype != y->dtype || x->rows != y->rows || x->cols != y->cols) return 0;
    size_t row_bytes = (size_t)x->cols * x->elem_size;
    for (int64_t i = 0; i < x->rows; i++) {
        const char *px = (const char *)gh_matrix_data(x) + (size_t)(i * x->ld) * x->elem_size;
        const char *py = (const char *)gh_matrix_data(y) + (size_t)(i * y->ld) * y->elem_size;
        if (memcmp(px, py, row_bytes) != 0) return 0;
    }
    return 1;
}

uint64_t gh_matrix_hash(const gh_matrix *m)
{
    uint64_t h = 0xCBF29CE484222325ull;
    size_t row_bytes = (size_t)m->cols * m->elem_size;
    for (int64_t i = 0; i < m->rows; i++) {
        const unsigned char *p = (const unsigned char *)gh_matrix_data(m) + (size_t)(i * m->ld) * m->elem_size;
        for (size_t b = 0; b < row_bytes; b++) {
            h ^= p[b];
            h *= 0x100000001B3ull;
        }
    }
    return h;
}
