/* Inputs drawn from a seed are the same bits on every machine, compiler and
 * libc: results files from two machines can then be compared output for
 * output (gemmhost compare). The generator (counter-based splitmix64, integer
 * only), the draws (exact scalings by powers of two) and the conversions to
 * f16, bf16 and i32 (bit manipulation, round to nearest even by hand) call no
 * libm function, depend on no rounding mode and use no long double. This test
 * pins the hashes of a few inputs, drawn as a run draws them (stream =
 * case index * 3 + A/B/C0): a change in any of them changes what every
 * earlier results file was measured on. tools/test.sh runs it in the normal
 * and the sanitizer build, so both builds draw the same bits. */
#include <inttypes.h>
#include <stdint.h>
#define CHECK_MAIN
#include "test_util.h"

typedef struct pinned_input {
    uint64_t seed;
    int case_index, which; /* which: 0 A, 1 B, 2 C0 */
    gh_dtype dtype;
    int64_t rows, cols;
    int32_t int_range; /* i32 only: gh_i32_input_range(k, alpha, beta) */
    uint64_t hash;     /* gh_matrix_hash: FNV-1a over the matrix area */
} pinned_input;

/* The last row is over 2^20 elements: filled by several threads. */
static const pinned_input pinned[] = {
    {1, 0, 0, GH_F32, 37, 29, 0, 0xdc1d71894369538bull},     {1, 4, 1, GH_F64, 29, 53, 0, 0xb17845703f24390cull},
    {1, 2, 2, GH_I32, 64, 64, 16, 0xa9ab3cd8518bc4d8ull},    {1, 1, 0, GH_F16, 33, 65, 0, 0x2cbf23bf505f9f56ull},
    {7, 3, 1, GH_BF16, 48, 17, 0, 0x7b2c5b2af0632625ull},    {12345, 0, 2, GH_I32, 5, 3, 2, 0xfadecfddd6e289b6ull},
    {1, 0, 0, GH_F32, 1024, 1031, 0, 0x8d515abd71145519ull},
};

int main(void)
{
    for (size_t t = 0; t < sizeof pinned / sizeof pinned[0]; t++) {
        const pinned_input *p = &pinned[t];
        /* Padding and guards must not change the hash: ld = cols + 3. */
        gh_matrix m;
        if (gh_matrix_alloc(&m, p->dtype, p->rows, p->cols, p->cols + 3, 8) != 0) {
            CHECK(0, "allocating %" PRId64 "x%" PRId64, p->rows, p->cols);
            continue;
        }
        gh_matrix_fill_random(&m, p->seed, (uint64_t)p->case_index * 3 + (uint64_t)p->which, p->int_range);
        uint64_t got = gh_matrix_hash(&m);
        CHECK(got == p->hash,
              "seed %" PRIu64 " case %d %c %s %" PRId64 "x%" PRId64 ": hash 0x%016" PRIx64 " (pinned 0x%016" PRIx64 ")",
              p->seed, p->case_index, "ABC"[p->which], gh_dtype_name(p->dtype), p -> rows, p -> cols, got, p -> hash);
        gh_matrix_free(&m);
    }
    return tests_finish("input hashes");
}
