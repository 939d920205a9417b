/* A case's inputs as the host holds them (A, B, C0, the C each run starts
 * from), fingerprinted: a plugin given host memory to upload from may only
 * read it, but in-process nothing stops it from writing there, and the next
 * backend would then get the blame for wrong results. After each result the
 * run checks the fingerprints; a change is named on the backend that made it
 * and the inputs are drawn again. A worker process that sees its inputs
 * read-only needs none of this. */
#ifndef GEMMHOST_INPUT_GUARD_H
#define GEMMHOST_INPUT_GUARD_H

#include <stddef.h>
#include <stdint.h>
#include "data.h"

#define GH_INPUT_GUARD_MAX 4

typedef struct gh_guarded_input {
    const char *name; /* "A", "B", "C0", "C": as messages name it */
    gh_matrix *m;
    uint64_t hash; /* of the whole storage: guards and row padding too */
    int changed;   /* set by gh_input_guard_check */
} gh_guarded_input;

typedef struct gh_input_guard {
    gh_guarded_input in[GH_INPUT_GUARD_MAX];
    size_t n;
} gh_input_guard;

/* Watches m (its storage as it is now) under `name` (a static string). */
void gh_input_guard_watch(gh_input_guard *g, const char *name, gh_matrix *m);
/* Fingerprints every watched input again, as it is now. */
void gh_input_guard_seal(gh_input_guard *g);
/* Hashes each input again. Returns how many changed and writes their names
 * to `changed` ("B", "A and C0", "A, B and C0"); "" when none. */
size_t gh_input_guard_check(gh_input_guard *g, char *changed, size_t size);
/* Returns each changed input to how it was allocated (guard pattern in the
 * guards and padding, poison in the matrix area) for the caller to draw its
 * values again, then gh_input_guard_seal. -1 when out of memory. */
int gh_input_guard_reset(gh_input_guard *g);

/* 64-bit hash of n bytes, several GB/s (4 independent multiply-rotate lanes;
 * threads for large blocks). Any change of one 8-byte word always changes it. */
uint64_t gh_input_hash(const void *p, size_t n);

#endif
