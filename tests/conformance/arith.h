/* The arithmetic a kernel declares for a dtype (plugin.h, minor 2), turned
 * into the unit roundoffs the result checks bound a kernel's error with, so a
 * kernel that multiplies in TF32 is held to the TF32 bound it declares, not
 * to the f32 bound it cannot meet, and one that declares nothing is held to
 * the dtype's default arithmetic. */
#ifndef GEMMHOST_CONFORMANCE_ARITH_H
#define GEMMHOST_CONFORMANCE_ARITH_H

#include "conformance.h"

typedef struct conf_arith {
    double u_in;               /* inputs rounded before the multiplies (0: used as stored) */
    double u_acc;              /* the products and sums */
    double u_out;              /* the stored result, when coarser than the sums (else 0) */
    double tiny_acc, tiny_out; /* the smallest subnormal of each: underflow */
} conf_arith;

/* The kernel's declared arithmetic for d, or the dtype's default. */
conf_arith conf_kernel_arith(const conformance *c, const gh_kernel_info *ki, gh_dtype d);

/* How far a result of K products may be from the f64 value `want`, where
 * sum_abs = |alpha| sum |A||B| + |beta C0| (verification.md's bound, with
 * gamma_{K+2} taken generously as 2 (K+2) u and the f64 reference's own
 * rounding added). 0 for an exact (i32) arithmetic. */
double conf_bound(const conf_arith *a, int64_t k, double want, double sum_abs);

/* A reason the kernel's precisions list breaks plugin.h, or NULL. */
const char *conf_precisions_problem(const conformance *c, const gh_kernel_info *ki, char *why, size_t size);

#endif
