/* The output fingerprint in a results file: written as one member of each
 * result record, read back by --resume and gemmhost compare.
 *
 *   "fingerprint": {"at": [i0, j0, i1, j1, ...],
 *                   "value": [v0, v1, ...], "bound": [b0, b1, ...]}
 *
 * Values are written with the digits that give the stored element back
 * exactly (9 for f32, f16 and bf16, 17 for f64 and i32); a value that is not
 * finite as the string "nan", "inf" or "-inf". Bounds are a unit: 4 digits. */
#ifndef GEMMHOST_FINGERPRINT_JSON_H
#define GEMMHOST_FINGERPRINT_JSON_H

#include <jansson.h>
#include <stddef.h>

#include "fingerprint.h"

/* Takes `json`, a rendered record object, and returns it with the member
 * "fingerprint" added before its closing brace (unchanged when fp->n is 0);
 * NULL when out of memory (json freed). */
char *gh_fingerprint_json_append(char *json, const gh_fingerprint *fp, gh_dtype dtype);

/* Reads the member "fingerprint" of a result record. No member: fp->n = 0,
 * returns 0 (a file from before fingerprints). A malformed one: -1 with err
 * saying what is wrong (fp->n = 0). */
int gh_fingerprint_from_json(const json_t *record, gh_fingerprint *fp, char *err, size_t err_size);

#endif
