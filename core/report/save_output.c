/* --save-outputs: outputs as .npy files named by their hash (save_output.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "output_guard.h"
#include "replace_file.h"
#include "save_output.h"

int gh_save_outputs_prepare(const char *dir, char *err, size_t err_size)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (S_ISDIR(st.st_mode)) return 0;
        snprintf(err, err_size, "--save-outputs %s: that is %s, not a folder", dir, gh_file_kind_name(st.st_mode));
        return -1;
    }
    if (errno != ENOENT) {
        snprintf(err, err_size, "--save-outputs %s: %s", dir, strerror(errno));
        return -1;
    }
    char probe[4096];
    if (snprintf(probe, sizeof probe, "%s/x", dir) >= (int)sizeof probe) {
        snprintf(err, err_size, "--save-outputs: the folder's name is too long");
        return -1;
    }
    if (gh_make_parent_folders(probe, err, err_size) != 0) return -1;
    return 0;
}

static const char *npy_descr(gh_dtype d)
{
    switch (d) {
    case GH_F32: return "f4";
    case GH_F64: return "f8";
    case GH_I32: return "i4";
    case GH_F16: return "f2";
    case GH_BF16: return "u2"; /* numpy has no bf16: the bit patterns */
    case GH_E4M3:
    case GH_E5M2: return "u1"; /* nor FP8 */
    case GH_I8: return "i1";
    }
    return "u1";
}

static int little_endian(void)
{
    const uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 1;
}

char *gh_npy_render(const gh_matrix *m, size_t *len)
{
    /* Format 1.0: magic, version, a 2-byte header length, then a Python
     * dict padded with spaces and ended by '\n' to a multiple of 64 bytes. */
    char dict[160];
    int dict_len =
        snprintf(dict, sizeof dict, "{'descr': '%c%s', 'fortran_order': False, 'shape': (%" PRId64 ", %" PRId64 "), }",
                 little_endian() ? '<' : '>', npy_descr(m->dtype), m->rows, m->cols);
    size_t head = 10 + (size_t)dict_len + 1;
    size_t padded = (head + 63) / 64 * 64;
    size_t row_bytes = (size_t)m->cols * m->elem_size;
    size_t total = padded + (size_t)m->rows * row_bytes;
    char *buf = malloc(total ? total : 1);
    if (!buf) return NULL;
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    size_t header_len = padded - 10;
    buf[8] = (char)(header_len & 0xFF);
    buf[9] = (char)(header_len >> 8);
    memcpy(buf + 10, dict, (size_t)dict_len);
    memset(buf + 10 + dict_len, ' ', padded - 10 - (size_t)dict_len - 1);
    buf[padded - 1] = '\n';
    for (int64_t i = 0; i < m->rows; i++)
        memcpy(buf + padded + (size_t)i * row_bytes,
               (const char *)gh_matrix_data(m) + (size_t)(i * m->ld) * m->elem_size, row_bytes);
    *len = total;
    return buf;
}

int gh_save_output_npy(const char *dir, const gh_matrix *out, uint64_t hash, char *err, size_t err_size)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%016" PRIx64 ".npy", dir, hash) >= (int)sizeof path) {
        snprintf(err, err_size, "--save-outputs %s: the folder's name is too long", dir);
        return -1;
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) return 0; /* this output is saved already */
    if (gh_output_check_kind(path, "--save-outputs", err, err_size) != 0) return -1;
    size_t len = 0;
    char *bytes = gh_npy_render(out, &len);
    if (!bytes) {
        snprintf(err, err_size, "--save-outputs: out of memory for %s", path);
        return -1;
    }
    int rc = gh_replace_file(path, bytes, len, err, err_size);
    free(bytes);
    return rc;
}
