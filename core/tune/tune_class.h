/* Size classes of a GEMM, by its volume M*N*K: the tuner keeps one best
 * parameter set per class, and a kernel parameter set to `auto` takes the
 * one of its case's class. The edge e is the cube root of M*N*K (the side of
 * the cube of the same volume):
 *   small   e < 256           (up to 16.7 M multiply-adds)
 *   medium  256 <= e < 2048   (1000 x 1001 x 999, 1024, 1536)
 *   large   e >= 2048         (2048, 4096, 8192)
 * Shape does not count (a skinny 4096 x 4096 x 16 is medium). */
#ifndef GEMMHOST_TUNE_CLASS_H
#define GEMMHOST_TUNE_CLASS_H

#include <stdint.h>

typedef enum gh_size_class { GH_CLASS_SMALL = 0, GH_CLASS_MEDIUM, GH_CLASS_LARGE, GH_CLASS_COUNT } gh_size_class;

gh_size_class gh_size_class_of(int64_t m, int64_t n, int64_t k);
const char *gh_size_class_name(gh_size_class c); /* "small", "medium", "large" */

#endif
