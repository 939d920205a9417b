/* What only f16 and bf16 have: the storageBuffer16BitAccess feature they
 * need, and the one rounding of the result, checked bit for bit. */
#ifndef GEMMHOST_TEST_VULKAN_HALF_CHECKS_H
#define GEMMHOST_TEST_VULKAN_HALF_CHECKS_H

#include "gemm_case.h"

/* 1 when the device runs f16 (a wrong result is a failure, and still 1);
 * 0 when it refuses it: a skip when the refusal names the device and
 * storageBuffer16BitAccess, else a failure. */
int half_supported(const plugin *pl, int device);

/* C = alpha * (0 + 1 * b_j) over a row of every 16-bit pattern b_j, for
 * alphas that make the f32 value exact: the shader's store must give what
 * gemmhost/half.h rounds it to (nearest even, ties included, subnormals,
 * overflow to infinity; NaN stays NaN), and alpha = 1 gives every pattern
 * back through the load's conversion. */
void half_rounding(const plugin *pl, int device);

/* A context opened with hide_features = storageBuffer16BitAccess refuses
 * f16 and bf16 on every kernel as unsupported, naming the device and the
 * feature, and still runs f32 (naive). */
void half_refused_without_storage(const gh_plugin_api *api, int device);

#endif
