/* Results as they arrive: a table on the terminal (table.h), CSV, JSON and
 * the record log (PREFIX.jsonl, result_log.h) on disk, and JUnit XML when
 * asked. The CSV and the log get each record as it arrives; the JSON and
 * JUnit are rewritten at checkpoints and at close, always whole. A run
 * killed after N results leaves N results in the CSV and the log (--resume
 * reads them), and its JSON says "complete": false. */
#ifndef GEMMHOST_REPORT_H
#define GEMMHOST_REPORT_H

#include <stddef.h>
#include <stdio.h>
#include "result.h"

typedef struct gh_report gh_report;

/* The built-in default's prefix, and the name files get in an output
 * folder: FOLDER/gemmhost-results.csv and .json. */
#define GH_REPORT_DEFAULT_NAME "gemmhost-results"

typedef struct gh_report_options {
    /* Where results go: PREFIX.csv, .json and .jsonl; a value ending in '/' or
     * naming an existing folder means FOLDER/gemmhost-results.* (the folder
     * is created, with its parents, when missing); "" or NULL: no files. */
    const char *prefix;
    const char *junit_path; /* JUnit XML; NULL: none */
    /* Files of an earlier run: those of this same experiment, complete, are
     * replaced with a notice; any other (another experiment, none recorded,
     * unreadable, or this one unfinished) makes open fail with the commands
     * that go on (--overwrite, --output OTHER, --resume), unless overwrite. */
    int overwrite;
    const char *experiment; /* experiment.h: what this run is; NULL: none */
    /* --resume: the files at the prefix are those of the run this one
     * continues; they are replaced, with no refusal, and the JSON is not
     * rewritten until the report has something (see gh_report_hold). */
    int resume;
    const char *settings_json; /* the run settings as a JSON object, stored as "settings"; NULL: none */
    const char
        *fleet_json; /* under MPI, this rank: {"rank", "size", "host", "local_rank"}, stored as "fleet"; NULL: none */
    const char *config_text; /* the config as run (file text plus overrides), stored in the JSON */
    int argc;                /* the command line, stored in the JSON */
    char *const *argv;
    FILE *table;        /* the table and summary (stdout); NULL: none */
    FILE *messages;     /* with quiet: failures, errors and notes; NULL: stderr */
    int quiet;          /* no table and no summary: only the files written */
    int full_agreement; /* every agreement group's members on the terminal */
    int verbose;        /* every result's row on the terminal, not the first screen (table.h) */
} gh_report_options;

/* The files a run with these options writes, NULL where none. */
typedef struct gh_report_paths {
    char *csv, *json, *log, *junit;
    char *folder; /* the output folder, when the output names one */
    int replaces; /* an earlier complete run of this same experiment is there, and is replaced */
} gh_report_paths;

/* Resolves o's prefix and JUnit path and checks what an earlier run left
 * there (see overwrite). Creates nothing. Returns 0, or -1 with err naming
 * the file and the commands that go on (p is then empty). */
int gh_report_paths_resolve(const gh_report_options *o, gh_report_paths *p, char *err, size_t err_size);
void gh_report_paths_free(gh_report_paths *p);

typedef struct gh_report_plugin {
    const char *name, *path, *version;
    uint32_t abi_major, abi_minor;
    const char *error; /* NULL when loaded */
} gh_report_plugin;

/* Returns NULL and writes err when a file exists (see overwrite) or cannot
 * be created. */
gh_report *gh_report_open(const gh_report_options *o, char *err, size_t err_size);
/* "PREFIX.csv, PREFIX.json and PREFIX.jsonl", for a crash message; NULL without files. */
const char *gh_report_files(const gh_report *r);
void gh_report_plugin_info(gh_report *r, const gh_report_plugin *p);
/* Appends a device description (stored in JSON once per backend/device). */
void gh_report_device(gh_report *r, const char *backend, int device_index, const gh_device_info *info);
/* A row the table will show, before the run: its text columns are sized to
 * the widest (see table.h). device_label: "0:Intel Core i7" or a split's device name. */
void gh_report_expect(gh_report *r, const char *backend, const char *device_label, const char *kernel,
                      const char *params);
void gh_report_result(gh_report *r, const gh_result *res);
void gh_report_agreement(gh_report *r, const gh_agreement *a);
/* One member of a split result: what it ran and how its time went. */
typedef struct gh_report_split_member {
    const char *backend; /* its [backend] section */
    const char *plugin;
    int device_index;
    const char *device_name;
    const char *kernel;
    const char *params;    /* "tile=16", or "" */
    int streams;           /* 1: transfers overlapped through ABI minor-1 streams */
    const char *layout;    /* what the device held, e.g. "B resident, ..." */
    uint64_t device_bytes; /* device memory it allocated */
    int64_t chunks, gemms; /* row chunks taken, GEMM calls */
    double compute_ms, upload_ms, download_ms, wait_ms;
    uint64_t bytes_up, bytes_down;
    double upload_gbps;      /* bytes_up / upload_ms: its host-to-device bandwidth (GB/s); 0 when nothing went up */
    int numa_node;           /* the NUMA node its host thread ran on; -1: none */
    const char *numa;        /* where its thread and memory went, or why not */
    const char *b_path;      /* how its B arrived: "host", "peer from gpu0/0 (...)", "host: ..." */
    double download_gbps;    /* bytes_down / download_ms (GB/s); 0 when nothing came down */
    const char *host_memory; /* how it reached the host matrices: "pinned (...)", "imported (...)", "pageable: ..." */
    const char *error;       /* why it failed; NULL or "" when it did not */
} gh_report_split_member;

/* The members of the split result just reported (call right after
 * gh_report_result): a line each under its table row, and an entry in the
 * JSON "splits" list with the product's wall time. */
void gh_report_split_members(gh_report *r, const gh_result *res, double wall_ms, const gh_report_split_member *members,
                             size_t n);
/* A line in the JSON "notes" list and on the terminal (e.g. a backend that
 * could not run); with quiet on stderr, never hidden. */
void gh_report_note(gh_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The end of the table: counts and best GFLOP/s per backend, device, kernel
 * and params, then every failure and error again with its reason. */
void gh_report_summary(gh_report *r);
/* While held, no checkpoint rewrites the JSON and JUnit files: results
 * read back by --resume go in as one write when the hold first ends, and
 * the earlier JSON and log stay whole until then. */
void gh_report_hold(gh_report *r, int hold);
/* The run was stopped by a signal (cancel.h): the JSON says "cancelled":
 * true and "complete": false, and a note names the signal. */
void gh_report_cancelled(gh_report *r, const char *signal_name);
/* Marks the files complete (unless cancelled), flushes and closes; says where
 * the results are (not with quiet). Returns 0, or -1 if a write failed (err
 * says which file). */
int gh_report_close(gh_report *r, char *err, size_t err_size);

#endif
