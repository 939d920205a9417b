/* Results as they arrive: a table on stdout, CSV and JSON on disk. Every
 * file is complete and readable after each result, so a run killed after N
 * results leaves N results on disk. */
#ifndef GEMMHOST_REPORT_H
#define GEMMHOST_REPORT_H

#include <stddef.h>
#include <stdio.h>
#include "result.h"

typedef struct gh_report gh_report;

typedef struct gh_report_plugin {
    const char *name, *path, *version;
    uint32_t abi_major, abi_minor;
    const char *error;           /* NULL when loaded */
} gh_report_plugin;

/* prefix: files prefix.csv and prefix.json ("" or NULL: no files).
 * config_text: the config as run (file text plus --set lines), stored in JSON.
 * table: where the table goes (stdout), NULL for --quiet. Returns NULL and
 * writes err when a file cannot be created. */
gh_report *gh_report_open(const char *prefix, const char *config_text, FILE *table,
                          char *err, size_t err_size);
void gh_report_plugin_info(gh_report *r, const gh_report_plugin *p);
/* Appends a device description (stored in JSON once per backend/device). */
void gh_report_device(gh_report *r, const char *backend, int device_index, const gh_device_info *info);
void gh_report_result(gh_report *r, const gh_result *res);
void gh_report_agreement(gh_report *r, const gh_agreement *a);
/* One member of a split result: what it ran and how its time went. */
typedef struct gh_report_split_member {
    const char *backend;         /* its [backend] section */
    const char *plugin;
    int device_index;
    const char *device_name;
    const char *kernel;
    const char *params;          /* "tile=16", or "" */
    int streams;                 /* 1: transfers overlapped through ABI minor-1 streams */
    const char *layout;          /* what the device held, e.g. "B resident, ..." */
    uint64_t device_bytes;       /* device memory it allocated */
    int64_t chunks, gemms;       /* row chunks taken, GEMM calls */
    double compute_ms, upload_ms, download_ms, wait_ms;
    uint64_t bytes_up, bytes_down;
    const char *error;           /* why it failed; NULL or "" when it did not */
} gh_report_split_member;

/* The members of the split result just reported (call right after
 * gh_report_result): a line each under its table row, and an entry in the
 * JSON "splits" list with the product's wall time. */
void gh_report_split_members(gh_report *r, const gh_result *res, double wall_ms,
                             const gh_report_split_member *members, size_t n);
/* A line in the JSON "notes" list and on the terminal (e.g. a backend that could not run). */
void gh_report_note(gh_report *r, const char *fmt, ...);
/* Flushes and closes; returns 0, or -1 if a write failed (err says which file). */
int gh_report_close(gh_report *r, char *err, size_t err_size);

#endif
