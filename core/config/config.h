/* The run's INI config, parsed and checked into a plan. Keys that depend on a
 * plugin (kernel parameters, plugin options) are kept raw with their file and
 * line, and checked once the plugin is loaded (core/plan). */
#ifndef GEMMHOST_CONFIG_H
#define GEMMHOST_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include "gemmhost/plugin.h"
#include "verify.h"

typedef struct gh_shape {
    int64_t m, n, k;
} gh_shape;
typedef struct gh_trans {
    int a, b;
} gh_trans;

/* Where a value came from, for error messages: "run.ini:12", or the
 * override itself: "--set cpu.tile=16". */
typedef struct gh_origin {
    const char *file; /* owned by the config: the file, "--set TEXT" or "<built-in>" */
    int line;         /* 0 for --set */
} gh_origin;

/* A key the config keeps for later checking; values are the comma-separated
 * list, each trimmed. */
typedef struct gh_raw_key {
    char *name;
    char **values;
    size_t n_values;
    gh_origin origin;
} gh_raw_key;

/* Where a [backend] or [split] runs in an MPI job (docs/fleet.md): on the
 * ranks listed (`ranks = 0, 2-5`) and on hosts whose name matches a pattern
 * (`hosts = gpu-node*`, fnmatch); both given: ranks in both; neither: every
 * rank. core/fleet checks them against the job. */
typedef struct gh_rank_range {
    int64_t first, last;
} gh_rank_range;
typedef struct gh_placement {
    gh_rank_range *ranks; /* NULL: every rank */
    size_t n_ranks;
    gh_origin ranks_origin;
    char **hosts; /* NULL: every host */
    size_t n_hosts;
    gh_origin hosts_origin;
} gh_placement;

typedef struct gh_backend_config {
    char *name;     /* section name: [backend NAME] */
    char *plugin;   /* plugin name ("cpu") or a path to a .so */
    char *devices;  /* "all" (default), "hardware", "software", "0,2", or a name substring */
    char **kernels; /* empty: every kernel */
    size_t n_kernels;
    int has_timeout; /* 1: its own timeout (as [run] timeout's), else [run]'s */
    double timeout;
    int tune;           /* tune = yes: its kernels are tuned before each run (core/tune) */
    double tune_budget; /* seconds per kernel search; NaN: [run]'s */
    gh_raw_key *keys;   /* every other key: kernel params or plugin options */
    size_t n_keys;
    gh_origin origin;       /* the section header */
    gh_placement place;     /* ranks, hosts */
    int local_rank_devices; /* devices = local_rank: the node-local rank's index (core/fleet sets devices) */
    gh_origin devices_origin;
} gh_backend_config;

typedef struct gh_split_config {
    char *name;      /* [split NAME] */
    char **backends; /* names of [backend] sections */
    size_t n_backends;
    int64_t panel;      /* rows of A/C per chunk, columns of B per panel */
    uint64_t mem_limit; /* bytes per device; 0 = no limit */
    char *kernel;       /* kernel each member runs; "" (default): each member's
                              first kernel in its [backend] kernels, else the
                              plugin's first kernel */
    int numa;           /* gh_split_numa (split.h): numa = auto (0) | off (1) */
    int b_copy;         /* gh_split_b_copy (split.h): b_copy = auto (0) | host (1) | peer (2) */
    gh_origin origin;
    gh_placement place; /* ranks, hosts */
} gh_split_config;

/* Where plugins run: each backend instance in a worker process of its own
 * (core/proxy), or in gemmhost's own process (for a debugger). */
typedef enum gh_isolation { GH_ISOLATION_PROCESS = 0, GH_ISOLATION_NONE = 1 } gh_isolation;
/* What the up-front host memory check does with a case larger than
 * MemAvailable: refuse the run, or warn and run (machines whose available
 * memory grows as it is used). */
typedef enum gh_memory_check { GH_MEMORY_CHECK_REFUSE = 0, GH_MEMORY_CHECK_WARN = 1 } gh_memory_check;

typedef struct gh_run_config {
    gh_shape *sizes;
    size_t n_sizes;
    gh_origin sizes_origin; /* where sizes was given, for messages about a size */
    gh_dtype *dtypes;
    size_t n_dtypes;
    int dtype_auto; /* dtype = auto: every dtype listed; each kernel runs only its own (gh_dtypes_to_run) */
    /* The other types and the scales of the 8-bit dtypes (e4m3, e5m2, i8;
     * config_types.c): keys b_dtype (same), c_dtype (auto: f32 for FP8, i32
     * for i8), scale_a, scale_b, scale_c (1). gh_run_case_types applies them. */
    int b_dtype_set, c_dtype_set;
    gh_dtype b_dtype, c_dtype;
    double scale_a, scale_b, scale_c;
    gh_trans *trans;
    size_t n_trans;
    double alpha, beta;
    int warmup, repeat;
    uint64_t seed;
    gh_verify_method verify;
    double full_max_flops; /* key full_max: verify=auto uses full up to this many 2MNK flops */
    int freivalds_trials;  /* key freivalds_trials */
    int64_t samples;       /* key samples */
    int64_t ld_pad;        /* key ld_pad: extra elements per row of every matrix */
    int64_t guard;         /* key guard: guard elements before/after every matrix */
    char *output;          /* prefix for .csv and .json; "" = none */
    char **plugin_dirs;
    size_t n_plugin_dirs;   /* key plugin_dir (a list) */
    gh_isolation isolation; /* key isolation: process (default) or none */
    double timeout;         /* key timeout: seconds per plugin call; 0 none; < 0 (auto) from the call's size */
    double tune_budget;     /* key tune_budget: seconds per kernel search of the tuner */
    char *tune_cache;       /* key tune_cache: the tuner's cache file; "": GEMMHOST_TUNE_CACHE or the user's cache */
    double throttle_clock_fraction; /* key throttle_clock_fraction: a result timed with the SM clock under
                                       this fraction of its max is flagged throttled (0 < f <= 1) */
    /* How each result is measured (config_measure.c; core/run: cache_flush, repeat_policy, batch) */
    int cache_cold;       /* key cache: warm (0) or cold (1), the last-level cache flushed before each run */
    uint64_t flush_bytes; /* key flush_size: bytes the cold flush writes on the device */
    int repeat_auto;      /* key repeat = auto: then repeat holds max_repeat, the most it runs */
    int min_repeat, max_repeat;
    double max_time;      /* key max_time: seconds of timed runs repeat = auto spends at most */
    double target_spread; /* key target_spread: the relative IQR repeat = auto stops at */
    int batch;            /* key batch: launches per timed pair; 0 = auto */
    double batch_below;   /* key batch_below: seconds; batch = auto batches a kernel faster than this */
    /* --save-outputs DIR (not a key; not owned): each distinct output as DIR/HASH.npy */
    const char *save_outputs;
    /* key fleet_outputs_max: under MPI, each distinct output of at most this many bytes goes to rank 0 for
     * exact distances across the ranks (docs/fleet.md); 0: none, fingerprints only */
    uint64_t fleet_outputs_max;
    struct gh_kept_outputs *kept_outputs; /* not a key (not owned): where the run keeps them (core/run) */
    gh_memory_check memory_check;         /* key memory_check: refuse (default) or warn */
} gh_run_config;

/* One case's element types and scales: A's is the case's dtype. For an
 * 8-bit A, B's and C's come from b_dtype and c_dtype with the scales, and
 * the plugin gets them with explicit_types = 1; every other dtype is A, B
 * and C of one type with scales of 1 (explicit_types 0). */
typedef struct gh_case_types {
    gh_dtype a, b, c;
    double scale_a, scale_b, scale_c;
    int explicit_types;
} gh_case_types;

int gh_dtype_is_8bit(gh_dtype d);
gh_case_types gh_run_case_types(const gh_run_config *run, gh_dtype a);
/* 1 when the host can run (a, b, c): FP8 A and B with C in f32, f16 or
 * bf16, i8 x i8 -> i32, or one type throughout for the other dtypes. */
int gh_case_types_allowed(gh_dtype a, gh_dtype b, gh_dtype c);

typedef struct gh_config {
    char *path; /* file name, "<built-in>" for the default */
    gh_run_config run;
    gh_backend_config *backends;
    size_t n_backends;
    gh_split_config *splits;
    size_t n_splits;
    int auto_backends;   /* 1: no [backend] section given: every plugin found, every device */
    char **origin_texts; /* "--set TEXT" of the origins of overridden keys */
    size_t n_origin_texts;
} gh_config;

/* Parses an INI file (path) or text (when path is NULL, name used in messages),
 * applying --set overrides ("section.key=value", where section is "run",
 * "backend NAME"/NAME or "split NAME") after the file. On error returns -1 and
 * writes one message naming file, line, key and what is allowed into err.
 *
 * --set syntax: SECTION.KEY=VALUE; the key is what follows the last '.' before
 * the '=', and SECTION is one of
 *     run                      --set run.sizes=64,128
 *     NAME (a backend)         --set cpu.tile=16
 *     backend.NAME             --set backend.cpu.kernels=naive
 *     split.NAME               --set split.gpus.panel=1024
 * ("backend NAME" and "split NAME" with a space work too). An override
 * replaces the key or adds it; [run] is created if the file has none; a
 * backend or split section must exist in the file. Overridden values carry
 * the origin { "--set", 0 }, and their errors quote the --set argument.
 * load_text's name may be NULL ("<text>"). On error *out is left empty. */
int gh_config_load_file(const char *path, const char *const *overrides, size_t n_overrides, gh_config *out, char *err,
                        size_t err_size);
int gh_config_load_text(const char *text, const char *name, const char *const *overrides, size_t n_overrides,
                        gh_config *out, char *err, size_t err_size);
void gh_config_free(gh_config *cfg);
void gh_placement_free(gh_placement *p);

/* The built-in default: every plugin and device found, every kernel, a few
 * small shapes that include ones that are not multiples of any tile. */
extern const char gh_default_config_text[];

/* Writes "run.ini:12", or just the file ("--set") when line is 0, into buf;
 * returns buf. For the planner's messages about raw keys. */
const char *gh_origin_format(const gh_origin *o, char *buf, size_t size);

/* Helpers shared with the planner. */
int gh_parse_int64(const char *s, int64_t *out);       /* 0 on success, whole string */
int gh_parse_size_bytes(const char *s, uint64_t *out); /* "4G", "512M", "1024" */
int gh_parse_seconds(const char *s, double *out);      /* "120", "120s", "500ms", "2m", "1h"; >= 0 */

#endif
