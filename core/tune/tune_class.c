/* See tune_class.h. */
#include "tune_class.h"

gh_size_class gh_size_class_of(int64_t m, int64_t n, int64_t k)
{
    /* in double: the product of three int32-range edges overflows int64 */
    const double volume = (double)m * (double)n * (double)k;
    if (volume < 256.0 * 256.0 * 256.0) return GH_CLASS_SMALL;
    if (volume < 2048.0 * 2048.0 * 2048.0) return GH_CLASS_MEDIUM;
    return GH_CLASS_LARGE;
}

const char *gh_size_class_name(gh_size_class c)
{
    static const char *const names[GH_CLASS_COUNT] = {"small", "medium", "large"};
    return (unsigned)c < GH_CLASS_COUNT ? names[c] : "?";
}
