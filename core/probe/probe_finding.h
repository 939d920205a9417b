/* What the probe measured: one finding per property of one kernel, device
 * and dtype, with the case that shows it, the elements that decided it, and
 * whether it contradicts what the kernel declares. */
#ifndef GEMMHOST_PROBE_FINDING_H
#define GEMMHOST_PROBE_FINDING_H

#include <stddef.h>
#include <stdint.h>
#include "probe_case.h"
#include "probe_declared.h"
#include "probe_exec.h"

#define PROBE_MAX_EVIDENCE 6

/* One element of C that decided a finding: what came back and what the
 * arithmetic the finding names (or IEEE, for a mismatch) gives. */
typedef struct probe_evidence {
    int64_t i, j;
    double got, expected;
} probe_evidence;

typedef struct probe_finding {
    char property[32];          /* "input_rounding", "accumulator", ... (docs/probe.md) */
    char verdict[48];           /* a keyword: "exact", "toward-zero", "flushed", "crashed" ... */
    int bits;                   /* mantissa bits measured, -1 where none */
    int every;                  /* promotion period, -1 where none */
    char text[400];             /* the finding in words */
    char declared[200];         /* what the kernel declares about it, "" for nothing */
    int mismatch;               /* 1: contradicts the declaration */
    probe_outcome_kind outcome; /* PROBE_RAN, or what happened to the case */
    probe_case *c;              /* the case that shows it (owned); NULL for none */
    probe_evidence ev[PROBE_MAX_EVIDENCE];
    size_t n_ev;
} probe_finding;

typedef struct probe_findings {
    probe_finding *items;
    size_t n, cap;
} probe_findings;

/* A new finding at the end (zeroed, bits and every -1). */
probe_finding *probe_finding_add(probe_findings *fs, const char *property);
void probe_finding_evidence(probe_finding *f, int64_t i, int64_t j, double got, double expected);
void probe_findings_free(probe_findings *fs);

/* What the analyses share: the kernel on its device, the dtype, the
 * declaration, and where findings go. */
typedef struct probe_ctx {
    const probe_target *target;
    const probe_format *fmt;
    probe_declared decl;
    probe_findings *out;
    int acc_bits;   /* measured by probe_accumulator; -1 before or when unknown */
    int input_bits; /* measured by probe_inputs; -1 before or when unknown */
    int repeats;    /* runs of the order case for the repeat check */
    int kmajor;     /* the kernel refused nn and took nt padded to 16s (probe_exec): every later case so */
} probe_ctx;

/* Runs case c (the caller keeps it). Returns the outcome with C, or NULL
 * when it did not run: a finding for `property` then says why (crashed,
 * timeout, unsupported, error), with a copy of the case. */
probe_outcome *probe_ctx_run(probe_ctx *x, const char *property, const probe_case *c);
/* Frees an outcome (NULL too) and the case. */
void probe_ctx_done(probe_outcome *o, probe_case *c);
/* The finding keeps a copy of c as the case that shows it. */
void probe_finding_case(probe_finding *f, const probe_case *c);
/* Runs case c and adds the finding named `property` with a copy of c; *o
 * is the outcome (the caller frees it and c with probe_ctx_done). NULL when
 * the case did not run: c is freed, and probe_ctx_run's finding says why. */
probe_finding *probe_ctx_finding(probe_ctx *x, const char *property, probe_case *c, probe_outcome **o);

/* The analyses, one file each, in the order they run (later ones use the
 * bits the accumulator and input analyses measured). */
void probe_accumulator(probe_ctx *x);
void probe_inputs(probe_ctx *x);
void probe_products(probe_ctx *x);
void probe_subnormals(probe_ctx *x);
void probe_specials(probe_ctx *x);
void probe_order(probe_ctx *x);
void probe_integer(probe_ctx *x);
/* The acc_promotion finding (probe_accumulator.c, shared with the 8-bit
 * one): row r of C (r = 0..k-1) holds big plus the copies of s the m-bit
 * sum kept. Sets the verdict (none, every N steps, irregular), its words
 * and evidence, and the declared side: "promoted every N" when
 * declares_period, else "no promotion" for a narrow sum. Returns the first
 * row that kept a copy (-1: none); *regular: each row from it on keeps one
 * more. */
int probe_promotion_finding(probe_ctx *x, probe_finding *f, const double *c, int k, int m, double big, double s,
                            int declares_period, int *regular);
/* 8-bit A and B into C of format x->fmt (probe_combo.c): the running sum
 * and its promotion. `in` is the format the cases' powers of two are drawn
 * from (the narrower range of A's and B's), a_dtype and b_dtype A's and B's
 * types. */
void probe_accumulator_8bit(probe_ctx *x, const probe_format *in, gh_dtype a_dtype, gh_dtype b_dtype);
/* FP8 A (format a) and B (format b) into C of x->fmt (probe_fp8.c): input
 * decoding and subnormals, NaN (and e5m2's infinity), and the scales. Runs
 * after probe_accumulator_8bit (the scale case uses the bits it measured). */
void probe_fp8(probe_ctx *x, const probe_format *a, const probe_format *b);
/* i8 A and B into i32 C (probe_integer.c): exact sums, and overflow. */
void probe_integer_i8(probe_ctx *x);
/* Case c (taken) has one special value at (1, 1) of A (in_b 0) or B: the
 * finding named after the case (probe_specials.c). */
void probe_special_case(probe_ctx *x, probe_case *c, int in_b, double value);

/* Same value, bit for bit in the sense that matters here: NaN equals NaN,
 * and -0 equals 0. */
int probe_same(double a, double b);

#endif
