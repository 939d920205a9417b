/* A matrix placed in a device buffer with guard elements around it and
 * between its rows, and the host image of the whole buffer: what is
 * uploaded, and what every element outside the matrix must still be. */
#ifndef GEMMHOST_CONFORMANCE_MATRICES_H
#define GEMMHOST_CONFORMANCE_MATRICES_H

#include <stdint.h>

#include "conformance.h"

typedef struct placed {
    gh_dtype dtype;
    size_t elem;            /* bytes per element */
    int64_t rows, cols, ld; /* as stored, row-major */
    uint64_t offset;        /* elements before the matrix */
    uint64_t elements;      /* in the whole buffer */
    unsigned char *image;   /* the buffer's intended content */
    gh_buffer *buf;
} placed;

/* Every element of the image seeded (gh_test_seeded_value: floats in
 * [-1, 1), i32 in -8..8 but 0; guards too: they are just never to be
 * written), from the key *seed, which moves on to the next matrix's. Returns the status of buffer_alloc; the host image is made first. */
gh_status placed_make(const conformance *c, int device, placed *p, gh_dtype dtype, int64_t rows, int64_t cols,
                      int64_t pad, uint64_t offset, uint64_t tail, uint64_t *seed);
void placed_free(const conformance *c, placed *p);

double placed_get(const placed *p, const unsigned char *image, uint64_t index);
void placed_set(placed *p, uint64_t index, double value);
/* The element index of (r, c) of the stored matrix. */
uint64_t placed_index(const placed *p, int64_t r, int64_t col);
/* Whether index lies in the matrix (not in a guard or a gap between rows). */
int placed_inside(const placed *p, uint64_t index);

gh_status placed_upload(const conformance *c, const placed *p);
/* The whole buffer into out (p->elements * p->elem bytes). */
gh_status placed_download(const conformance *c, const placed *p, unsigned char *out);

#endif
