/* core/data: seeded fill, poison, guard zones, hash. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#define CHECK_MAIN /* this file holds the check counters */
#include "test_util.h"

static const gh_dtype all_dtypes[] = {GH_F32, GH_F64, GH_I32};

static void test_dtype_names(void)
{
    for (int d = 0; d < 3; d++) {
        gh_dtype parsed = GH_F32;
        EXPECT(gh_dtype_parse(gh_dtype_name(all_dtypes[d]), &parsed) == 0 && parsed == all_dtypes[d],
               "round trip of %s", gh_dtype_name(all_dtypes[d]));
    }
    gh_dtype unused;
    EXPECT(gh_dtype_parse("f8", &unused) != 0, "f8 is not a dtype");
    EXPECT(gh_dtype_parse(NULL, &unused) != 0, "NULL is not a dtype");
    EXPECT(gh_dtype_size(GH_F32) == 4 && gh_dtype_size(GH_F64) == 8 && gh_dtype_size(GH_I32) == 4, "sizes");
}

static void test_alloc_starts_poisoned_with_clean_guards(void)
{
    for (int d = 0; d < 3; d++) {
        gh_matrix m;
        EXPECT(gh_matrix_alloc(&m, all_dtypes[d], 5, 7, 9, 6) == 0, "alloc");
        EXPECT(m.storage_elems == 6 + 5 * 9 + 6, "storage_elems %zu", m.storage_elems);
        EXPECT(gh_matrix_storage_bytes(&m) == m.storage_elems * gh_dtype_size(all_dtypes[d]), "bytes");
        EXPECT(gh_matrix_check_guards(&m, NULL) == 0, "fresh guards clean");
        int poisoned = 1, nan_ok = 1;
        for (int64_t i = 0; i < 5; i++)
            for (int64_t j = 0; j < 7; j++) {
                poisoned &= gh_matrix_is_poison(&m, i, j);
                double v = gh_matrix_get(&m, i, j);
                nan_ok &= all_dtypes[d] == GH_I32 ? v == (double)GH_I32_POISON : isnan(v);
            }
        EXPECT(poisoned && nan_ok, "%s matrix area starts poisoned", gh_dtype_name(all_dtypes[d]));
        gh_matrix_set(&m, 1, 2, 0.5);
        EXPECT(!gh_matrix_is_poison(&m, 1, 2), "a written element is no longer poison");
        gh_matrix_free(&m);
        EXPECT(m.storage == NULL, "free clears");
    }
    gh_matrix bad;
    EXPECT(gh_matrix_alloc(&bad, GH_F32, 4, 8, 7, 0) != 0, "ld < cols refused");
    EXPECT(gh_matrix_alloc(&bad, GH_F32, -1, 8, 8, 0) != 0, "negative rows refused");
}

static void test_get_set_round_trip(void)
{
    gh_matrix m;
    for (int d = 0; d < 3; d++) {
        gh_matrix_alloc(&m, all_dtypes[d], 3, 3, 4, 2);
        gh_matrix_set(&m, 2, 1, -7.0);
        EXPECT(gh_matrix_get(&m, 2, 1) == -7.0, "%s set/get", gh_dtype_name(all_dtypes[d]));
        gh_matrix_free(&m);
    }
    gh_matrix_alloc(&m, GH_I32, 1, 1, 1, 0);
    gh_matrix_set(&m, 0, 0, 2.6);
    EXPECT(gh_matrix_get(&m, 0, 0) == 3.0, "i32 set rounds");
    gh_matrix_set(&m, 0, 0, 1e12);
    EXPECT(gh_matrix_get(&m, 0, 0) == (double)INT32_MAX, "i32 set saturates");
    gh_matrix_free(&m);
}

static uint64_t filled_hash(gh_dtype d, int64_t rows, int64_t cols, int64_t ld, int64_t guard, uint64_t seed,
                            uint64_t stream)
{
    gh_matrix m;
    gh_matrix_alloc(&m, d, rows, cols, ld, guard);
    gh_matrix_fill_random(&m, seed, stream, 9);
    uint64_t h = gh_matrix_hash(&m);
    gh_matrix_free(&m);
    return h;
}

static void test_fill_is_deterministic_per_seed_and_stream(void)
{
    for (int d = 0; d < 3; d++) {
        gh_dtype t = all_dtypes[d];
        uint64_t h = filled_hash(t, 17, 13, 13, 0, 7, 1);
        EXPECT(h == filled_hash(t, 17, 13, 13, 0, 7, 1), "%s same seed, same matrix", gh_dtype_name(t));
        EXPECT(h == filled_hash(t, 17, 13, 20, 5, 7, 1), "%s same values whatever ld and guard", gh_dtype_name(t));
        EXPECT(h != filled_hash(t, 17, 13, 13, 0, 7, 2), "%s another stream differs", gh_dtype_name(t));
        EXPECT(h != filled_hash(t, 17, 13, 13, 0, 8, 1), "%s another seed differs", gh_dtype_name(t));
    }
}

static void test_fill_leaves_guards_alone(void)
{
    gh_matrix m;
    gh_matrix_alloc(&m, GH_F64, 11, 5, 8, 4);
    gh_matrix_fill_random(&m, 3, 0, 0);
    EXPECT(gh_matrix_check_guards(&m, NULL) == 0, "fill does not touch guards or padding");
    gh_matrix_free(&m);
}

static void test_float_fill_range(void)
{
    for (int d = 0; d < 2; d++) {
        gh_matrix m;
        gh_matrix_alloc(&m, all_dtypes[d], 200, 100, 100, 0);
        gh_matrix_fill_random(&m, 1, 0, 0);
        double lo = 1, hi = -1, sum = 0;
        int in_range = 1;
        for (int64_t i = 0; i < m.rows; i++)
            for (int64_t j = 0; j < m.cols; j++) {
                double v = gh_matrix_get(&m, i, j);
                in_range &= v >= -1.0 && v < 1.0;
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
                sum += v;
            }
        const char *name = gh_dtype_name(all_dtypes[d]);
        EXPECT(in_range, "%s values in [-1, 1)", name);
        EXPECT(lo < -0.99 && hi > 0.99, "%s spans the range: %g .. %g", name, lo, hi);
        EXPECT(fabs(sum / 20000) < 0.02, "%s mean near 0: %g", name, sum / 20000);
        gh_matrix_free(&m);
    }
}

static void test_i32_fill_range(void)
{
    gh_matrix m;
    gh_matrix_alloc(&m, GH_I32, 100, 100, 100, 0);
    gh_matrix_fill_random(&m, 5, 0, 4);
    int in_range = 1, saw_lo = 0, saw_hi = 0;
    for (int64_t i = 0; i < 100; i++)
        for (int64_t j = 0; j < 100; j++) {
            double v = gh_matrix_get(&m, i, j);
            in_range &= v >= -4 && v <= 4;
            saw_lo |= v == -4;
            saw_hi |= v == 4;
        }
    EXPECT(in_range && saw_lo && saw_hi, "i32 values fill [-4, 4] and stay in it");
    gh_matrix_free(&m);
}

static void test_never_all_zeros(void)
{
    int zero_seen = 0;
    for (uint64_t seed = 0; seed < 200; seed++) {
        gh_matrix m;
        gh_matrix_alloc(&m, GH_I32, 1, 1, 1, 0);
        gh_matrix_fill_random(&m, seed, 0, 1);
        zero_seen |= gh_matrix_get(&m, 0, 0) == 0.0;
        gh_matrix_free(&m);
    }
    EXPECT(!zero_seen, "a 1x1 i32 matrix is never all zero");
}

static void test_i32_range_avoids_overflow(void)
{
    const int64_t ks[] = {1, 7, 100, 4096, 100000, 10000000};
    const double alphas[] = {1, -3, 0, 17}, betas[] = {0, 1, -5};
    const double limit = (double)GH_I32_POISON;
    for (size_t a = 0; a < 4; a++)
        for (size_t b = 0; b < 3; b++)
            for (size_t i = 0; i < 6; i++) {
                int32_t r = gh_i32_input_range(ks[i], alphas[a], betas[b]);
                double worst_sum = (double)ks[i] * r * r;
                double worst = fmax(fabs(alphas[a]), 1.0) * worst_sum + fabs(betas[b]) * r;
                EXPECT(r >= 1 && worst < limit, "k=%lld alpha=%g beta=%g: range %d reaches %g", (long long)ks[i],
                       alphas[a], betas[b], r, worst);
            }
    EXPECT(gh_i32_input_range(64, 1, 0) > 4, "small K keeps a useful range (%d)", gh_i32_input_range(64, 1, 0));
    EXPECT(gh_i32_input_range(10000000, 1, 0) < gh_i32_input_range(1000, 1, 0), "large K shrinks the range");
}

/* Overwrites storage element `index` and expects exactly that one reported. */
static void expect_guard_caught(gh_dtype d, int64_t index, const char *where)
{
    gh_matrix m;
    gh_matrix_alloc(&m, d, 4, 5, 7, 3);
    gh_matrix_fill_random(&m, 1, 0, 3);
    memset((char *)m.storage + (size_t)index * m.elem_size, 0, m.elem_size);
    int64_t first = -2;
    int64_t count = gh_matrix_check_guards(&m, &first);
    EXPECT(count == 1 && first == index, "%s %s: count %lld first %lld, want index %lld", gh_dtype_name(d), where,
           (long long)count, (long long)first, (long long)index);
    gh_matrix_free(&m);
}

static void test_guard_overwrites_caught(void)
{
    for (int d = 0; d < 3; d++) {
        /* guard 3, 4 rows of ld 7 with 5 columns: padding at 3 + i*7 + {5, 6} */
        expect_guard_caught(all_dtypes[d], 0, "first guard element");
        expect_guard_caught(all_dtypes[d], 2, "element just before the matrix");
        expect_guard_caught(all_dtypes[d], 3 + 4 * 7, "element just after the matrix");
        expect_guard_caught(all_dtypes[d], 3 + 4 * 7 + 2, "last guard element");
        expect_guard_caught(all_dtypes[d], 3 + 0 * 7 + 5, "padding of row 0");
        expect_guard_caught(all_dtypes[d], 3 + 3 * 7 + 6, "padding of the last row");
    }
    /* Writing the poison or a NaN into a guard is caught too. */
    gh_matrix m;
    gh_matrix_alloc(&m, GH_F32, 2, 2, 3, 1);
    ((float *)m.storage)[0] = NAN;
    EXPECT(gh_matrix_check_guards(&m, NULL) == 1, "NaN in a guard is caught");
    gh_matrix_free(&m);
}

static void test_hash_covers_matrix_area_only(void)
{
    gh_matrix m;
    gh_matrix_alloc(&m, GH_F32, 6, 4, 6, 2);
    gh_matrix_fill_random(&m, 9, 0, 0);
    uint64_t h = gh_matrix_hash(&m);
    ((float *)gh_matrix_data(&m))[4] = 123.0f; /* padding of row 0 */
    ((float *)m.storage)[0] = 5.0f;            /* guard */
    EXPECT(gh_matrix_hash(&m) == h, "padding and guards do not change the hash");
    gh_matrix_set(&m, 5, 3, gh_matrix_get(&m, 5, 3) + 1.0);
    EXPECT(gh_matrix_hash(&m) != h, "changing the last element changes the hash");
    gh_matrix_free(&m);
}

static void test_copy(void)
{
    gh_matrix a, b;
    gh_matrix_alloc(&a, GH_F64, 5, 3, 4, 2);
    gh_matrix_alloc(&b, GH_F64, 5, 3, 4, 2);
    gh_matrix_fill_random(&a, 1, 2, 0);
    gh_matrix_copy(&b, &a);
    EXPECT(gh_matrix_hash(&a) == gh_matrix_hash(&b), "copy has the same values");
    EXPECT(gh_matrix_check_guards(&b, NULL) == 0, "copy keeps guards clean");
    gh_matrix_free(&a);
    gh_matrix_free(&b);
}

/* The fill of a matrix large enough to be filled by several threads: every
 * element is still the value its row-major index draws. */
static void test_large_fill_is_keyed_by_index(void)
{
    const int64_t rows = 1031, cols = 1100; /* over a million elements: the threaded path */
    gh_matrix m;
    EXPECT(gh_matrix_alloc(&m, GH_F64, rows, cols, cols + 5, 3) == 0, "alloc");
    gh_matrix_fill_random(&m, 42, 7, 16);
    int wrong = 0;
    for (int64_t i = 0; i < rows; i += 37)
        for (int64_t j = 0; j < cols; j += 13) {
            uint64_t x = gh_random_u64(42, 7, (uint64_t)(i * cols + j));
            wrong += gh_matrix_get(&m, i, j) != (double)(x >> 11) * 0x1p-52 - 1.0;
        }
    EXPECT(wrong == 0, "%d elements differ from their index's draw", wrong);
    EXPECT(gh_matrix_check_guards(&m, NULL) == 0, "guards and padding untouched");
    gh_matrix poisoned;
    EXPECT(gh_matrix_alloc(&poisoned, GH_F32, rows, cols, cols, 0) == 0, "alloc");
    EXPECT(gh_matrix_is_poison(&poisoned, 0, 0) && gh_matrix_is_poison(&poisoned, rows - 1, cols - 1),
           "every row poisoned, the last one too");
    gh_matrix_free(&poisoned);
    gh_matrix_free(&m);
}

typedef struct counting_allocator {
    int allocs, frees;
    size_t bytes;
} counting_allocator;

static void *count_alloc(void *user, size_t bytes)
{
    counting_allocator *c = user;
    c->allocs++;
    c->bytes = bytes;
    return malloc(bytes);
}

static void count_free(void *user, void *ptr)
{
    counting_allocator *c = user;
    c->frees++;
    free(ptr);
}

static void test_alloc_with_allocator(void)
{
    counting_allocator counts = {0, 0, 0};
    gh_host_allocator alloc = {count_alloc, count_free, &counts};
    gh_matrix m;
    EXPECT(gh_matrix_alloc_with(&m, GH_F32, 5, 7, 9, 2, &alloc) == 0, "alloc with");
    EXPECT(counts.allocs == 1 && counts.bytes == gh_matrix_storage_bytes(&m), "storage from the allocator");
    EXPECT(gh_matrix_check_guards(&m, NULL) == 0 && gh_matrix_is_poison(&m, 4, 6), "guards and poison as usual");
    gh_matrix_free(&m);
    EXPECT(counts.frees == 1 && m.storage == NULL, "given back to the allocator");
    EXPECT(gh_matrix_alloc_with(&m, GH_F32, 5, 7, 9, 2, NULL) == 0 && counts.allocs == 1, "NULL: malloc");
    gh_matrix_free(&m);
}

static void test_same_values(void)
{
    gh_matrix x, y;
    gh_matrix_alloc(&x, GH_F32, 4, 6, 8, 2);
    gh_matrix_alloc(&y, GH_F32, 4, 6, 7, 5); /* other ld and guard: only the matrix area counts */
    gh_matrix_fill_random(&x, 1, 0, 16);
    gh_matrix_fill_random(&y, 1, 0, 16);
    EXPECT(gh_matrix_same_values(&x, &y), "same draws, other layout");
    gh_matrix_set(&y, 3, 5, gh_matrix_get(&y, 3, 5) + 1);
    EXPECT(!gh_matrix_same_values(&x, &y), "one element differs");
    gh_matrix_free(&x);
    gh_matrix_free(&y);
}

int main(void)
{
    check_quiet = 1; /* failures and the summary only */
    test_dtype_names();
    test_alloc_starts_poisoned_with_clean_guards();
    test_get_set_round_trip();
    test_fill_is_deterministic_per_seed_and_stream();
    test_fill_leaves_guards_alone();
    test_float_fill_range();
    test_i32_fill_range();
    test_never_all_zeros();
    test_i32_range_avoids_overflow();
    test_guard_overwrites_caught();
    test_hash_covers_matrix_area_only();
    test_copy();
    test_large_fill_is_keyed_by_index();
    test_alloc_with_allocator();
    test_same_values();
    return tests_finish("test_data");
}
