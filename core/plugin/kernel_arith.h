/* The arithmetic a kernel declares for a dtype (ABI minor 2), which the
 * verification holds its results to and the report shows. */
#ifndef GEMMHOST_KERNEL_ARITH_H
#define GEMMHOST_KERNEL_ARITH_H

#include <stddef.h>
#include <stdint.h>
#include "gemmhost/plugin.h"
#include "verify.h"

/* Fills *arith from the kernel's declaration for d when its plugin answered
 * minor >= 2 and declared one, else from the dtype's default, and `text`
 * with words for it ("f32 accumulate", "tf32 inputs, f32 accumulate",
 * "exact"). Returns 1 when the declaration differs from the default. */
int gh_kernel_arith(const gh_kernel_info *ki, uint32_t abi_minor, gh_dtype d, gh_arith *arith, char *text, size_t size);

#endif
