/* The arithmetic a kernel declares for a dtype (ABI minor 2), which the
 * verification holds its results to and the report shows. */
#ifndef GEMMHOST_KERNEL_ARITH_H
#define GEMMHOST_KERNEL_ARITH_H

#include <stddef.h>
#include <stdint.h>
#include "gemmhost/plugin.h"
#include "config.h"
#include "verify.h"

/* Fills *arith from the kernel's declaration for d when its plugin answered
 * minor >= 2 and declared one, else from the dtype's default, and `text`
 * with words for it ("f32 accumulate", "tf32 inputs, f32 accumulate",
 * "exact"). Returns 1 when the declaration differs from the default. */
int gh_kernel_arith(const gh_kernel_info *ki, uint32_t abi_minor, gh_dtype d, gh_arith *arith, char *text, size_t size);

/* A precision's name in the arithmetic's words ("bf16", "tf32 (truncated)"). */
const char *gh_precision_name(gh_precision p);

/* (ABI 1.5) The kernel's type combination (a, b, c), read only when the
 * plugin answered minor >= 5 and the info's and the entry's sizes cover
 * them; NULL when it lists none. */
const gh_type_combo *gh_kernel_combo(const gh_kernel_info *ki, uint32_t abi_minor, gh_dtype a, gh_dtype b, gh_dtype c);
/* 1 when the kernel runs a case of types t: its combination, or its dtype
 * mask for one type throughout with scales of 1. */
int gh_kernel_offers(const gh_kernel_info *ki, uint32_t abi_minor, const gh_case_types *t);
/* As gh_kernel_arith for a case of types t: a combination's declaration
 * (narrow accumulation included, "14-bit accumulate, into f32 every 128"),
 * else the dtype's. */
int gh_kernel_arith_of(const gh_kernel_info *ki, uint32_t abi_minor, const gh_case_types *t, gh_arith *arith,
                       char *text, size_t size);
/* Words for one combination's arithmetic, as gh_kernel_arith_of writes. */
void gh_combo_arith_text(const gh_type_combo *cb, char *text, size_t size);

#endif
