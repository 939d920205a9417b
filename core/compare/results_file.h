/* One results file (PREFIX.json, written by core/report) read back for
 * `gemmhost compare`: checked to be gemmhost's, of this format, and whole,
 * with every message naming the file and what is wrong. */
#ifndef GEMMHOST_RESULTS_FILE_H
#define GEMMHOST_RESULTS_FILE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "fingerprint.h"

/* One result row; strings point into the file's document. */
typedef struct gh_rf_result {
    const char *backend, *plugin, *device_name, *kernel, *params, *dtype, *trans, *status;
    const char *b_dtype, *c_dtype;    /* the dtype's when the file predates them (ABI 1.5's 8-bit GEMMs) */
    double scale_a, scale_b, scale_c; /* 1 when the file predates them */
    const char *output_hash;          /* NULL when nothing was hashed (it did not run) */
    const char *detail;
    int case_index, device_index;
    int rank;              /* in a fleet file (docs/fleet.md): the MPI rank that ran it; -1 otherwise */
    const char *rank_host; /* and that rank's host; "" otherwise */
    int64_t m, n, k;
    double alpha, beta;
    double ms_min, ms_median, ms_max; /* NAN when not measured */
    gh_fingerprint *fingerprint;      /* owned; NULL when the file holds none for it */
} gh_rf_result;

/* One device record. */
typedef struct gh_rf_device {
    const char *backend, *name, *vendor, *driver_version, *api;
    int index;
    int rank; /* in a fleet file; -1 otherwise */
} gh_rf_device;

typedef struct gh_results_file {
    char *path;
    char label[16]; /* "A", "B", ...: how the reports name the file */
    json_t *doc;
    const char *version, *git_commit, *build_type, *host;
    const json_t *settings; /* an object */
    int complete, cancelled;
    int fleet_size; /* a fleet's PREFIX.json (docs/fleet.md): its ranks; 0 for one run's file */
    gh_rf_result *results;
    size_t n_results;
    gh_rf_device *devices;
    size_t n_devices;
} gh_results_file;

/* Reads and checks path into *out. Returns -1 with err naming the file and
 * the problem (missing, empty, truncated, not JSON, another program's JSON,
 * an older or newer format, a malformed result). */
int gh_results_file_load(const char *path, gh_results_file *out, char *err, size_t err_size);
void gh_results_file_free(gh_results_file *f);

/* "f32 nn 64x64x64 alpha=1 beta=0 (case 3)" into out. */
void gh_rf_case_label(const gh_rf_result *r, char *out, size_t size);
/* "cpu 0:AMD EPYC tiled tile=4" into out; "r1@node7 cpu 0:..." from a fleet file. */
void gh_rf_result_label(const gh_rf_result *r, char *out, size_t size);

#endif
