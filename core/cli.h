/* The command line: options in `--name VALUE` and `--name=VALUE` forms,
 * checked for combinations that cannot mean anything. */
#ifndef GEMMHOST_CLI_H
#define GEMMHOST_CLI_H

#include <stddef.h>

enum { EXIT_PASS = 0, EXIT_VERIFY_FAILED = 1, EXIT_USAGE = 2, EXIT_NOT_RUN = 3 };

/* Comma lists from --backend, --kernel and --device: what a run keeps. */
typedef struct gh_cli_filters {
    const char *backends; /* section (or, without sections, plugin) names */
    const char *kernels;  /* kernel names */
    const char *devices;  /* indices, all/hardware/software, or name substrings */
} gh_cli_filters;

typedef struct gh_cli {
    const char *config_path;
    const char **overrides; /* --set, then --size/--dtype/--trans as run.* overrides */
    size_t n_overrides;
    char **owned; /* override texts built here */
    size_t n_owned;
    const char *output; /* --output; NULL when not given */
    const char *junit;  /* --junit FILE */
    /* --save-outputs DIR */
    const char *save_outputs;
    const char *timeline; /* --timeline FILE: the splits' Chrome trace */
    gh_cli_filters filters;
    int list, dry_run, quiet, overwrite, json, summary, full_agreement;
    int verbose;        /* --verbose: every result's row on the terminal, not the first screen's summary */
    int resume;         /* --resume: continue the run whose results are at the output */
    int tune;           /* --tune: search every selected kernel's parameters (core/tune), no run */
    double tune_budget; /* --tune-budget, seconds: over every tune_budget key; < 0 when not given */
    int probe;          /* `gemmhost probe ...`: the arithmetic fingerprint (core/probe), no run */
} gh_cli;

/* Parses argv into c. Returns -1 when the program should exit now, with
 * *exit_status set (0 after --help or --version, 2 after a usage error,
 * which is printed); 0 to go on. --version is left to the caller through
 * *wants_version so it can list the plugins. */
int gh_cli_parse(int argc, char **argv, gh_cli *c, int *exit_status, int *wants_version);
void gh_cli_free(gh_cli *c);

#endif
