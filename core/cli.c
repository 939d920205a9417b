/* Command-line parsing; see cli.h. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "shown_value.h"
#include "util.h"

static void usage(FILE *to)
{
    fputs(
        "usage: gemmhost [--config FILE] [--set SECTION.KEY=VALUE]... [--output PREFIX]\n"
        "                [--backend LIST] [--kernel LIST] [--device LIST]\n"
        "                [--size LIST] [--dtype LIST] [--trans LIST]\n"
        "                [--overwrite | --resume] [--junit FILE] [--timeline FILE] [--full-agreement]\n"
        "                [--quiet | --verbose]\n"
        "                [--no-isolation] [--tune [--tune-budget TIME]]\n"
        "                [--list [--json | --summary]] [--dry-run] [--version] [--help]\n"
        "       gemmhost compare [OPTIONS] A.json B.json [C.json ...]\n"
        "                (results files, or probe files, compared: see gemmhost compare --help)\n"
        "       gemmhost probe [--config FILE] [--set SECTION.KEY=VALUE]... [--backend LIST]\n"
        "                [--kernel LIST] [--device LIST] [--dtype LIST] [--output PREFIX]\n"
        "                [--json | --quiet] [--no-isolation]\n"
        "                (what each kernel's arithmetic does, measured with crafted GEMMs\n"
        "                and compared with what it declares: docs/probe.md)\n"
        "\n"
        "Runs the GEMM kernels (naive, tiled, blocked, vendor libraries) of every plugin\n"
        "and device the config names, verifies each result against a host reference,\n"
        "compares backends and reports timings on the terminal and in PREFIX.csv and\n"
        "PREFIX.json. Every option also takes the --name=VALUE form.\n"
        "\n"
        "  --config FILE     the run's INI file (default: a built-in quick run of every plugin)\n"
        "  --set S.K=V       override key K of section S: run.sizes=64, NAME.tile=16 for\n"
        "                    [backend NAME], split.NAME.panel=512 for [split NAME]\n"
        "  --output PREFIX   write PREFIX.csv, PREFIX.json and the record log PREFIX.jsonl\n"
        "                    (overrides [run] output); a PREFIX ending in / is a folder:\n"
        "                    PREFIX/gemmhost-results.*. The same config and selection run\n"
        "                    again replaces its own complete results; any other run's\n"
        "                    are kept (refused)\n"
        "  --overwrite       replace the results of any earlier run at PREFIX\n"
        "  --resume          continue the run whose results are at PREFIX (stopped by a\n"
        "                    signal, a crash or a kill): its results are kept, the rest\n"
        "                    run; refused when its settings (seed, alpha, ...) differ\n"
        "  --backend LIST    run only these [backend]/[split] sections (plugin names\n"
        "                    without sections)\n"
        "  --kernel LIST     run only these kernels\n"
        "  --device LIST     run only these devices: indices, all, hardware, software,\n"
        "                    or parts of a device's name\n"
        "                    (--backend, --kernel and --device add up when repeated:\n"
        "                    --kernel a --kernel b is --kernel a,b; other options that\n"
        "                    take a value may be given once, --set any number of times)\n"
        "  --size LIST       sizes instead of [run] sizes (N or MxNxK)\n"
        "  --dtype LIST      dtypes instead of [run] dtype (f32, f64, i32)\n"
        "  --trans LIST      transposes instead of [run] trans (nn, nt, tn, tt)\n"
        "  --junit FILE      also write the results as JUnit XML, for CI systems\n"
        "  --timeline FILE   write each split's runs as a Chrome trace (chrome://tracing,\n"
        "                    ui.perfetto.dev): uploads, GEMMs, downloads and waits per\n"
        "                    member and stream, on the host clock\n"
        "  --full-agreement  print every agreement group's members, not one line per case\n"
        "  --save-outputs DIR  keep each distinct output as DIR/HASH.npy (HASH: its\n"
        "                    output_hash), for gemmhost compare or numpy\n"
        "  --list            show every plugin found, its devices, kernels and options,\n"
        "                    and why any plugin could not be loaded\n"
        "  --json, --summary with --list: as JSON, or one line per plugin and device\n"
        "  --dry-run         check the config and print the plan without running; exits\n"
        "                    as the run would for what it can tell in advance (2, 3)\n"
        "  --quiet           only the totals and the files written on the terminal\n"
        "                    (notes and failures still shown, on stderr)\n"
        "  --verbose         every result as a row, and each case's agreement, as it\n"
        "                    comes (by default: a line per device and kernel, the\n"
        "                    agreement per dtype, the fastest, and every failure)\n"
        "  --no-isolation    run the plugins in this process, not each backend in a worker\n"
        "                    process of its own (as [run] isolation = none; for a debugger)\n"
        "  --tune            search each selected kernel's parameters for the fastest that\n"
        "                    passes, per device, dtype and size class, into the tune cache\n"
        "                    (a kernel parameter set to auto then takes it); no run\n"
        "  --tune-budget T   time per kernel search (120s, 2m, 500ms), over tune_budget keys\n"
        "  --version         the version, its git commit, and the plugins found\n"
        "\n"
        "Plugins are searched in [run] plugin_dir, GEMMHOST_PLUGIN_PATH (colon-separated),\n"
        "the build tree's plugins/ folder next to the binary and the installed folder.\n"
        "\n"
        "Exit status: 0 all ran and passed; 1 a result failed verification; 2 usage or\n"
        "config error, nothing ran; 3 a requested backend, device or kernel could not run;\n"
        "130/143 stopped by SIGINT/SIGTERM (the reports are closed; --resume continues).\n",
        to);
}

typedef enum opt_kind { OPT_FLAG, OPT_VALUE } opt_kind;

typedef struct option {
    const char *name;
    opt_kind kind;
    const char *run_key; /* --size and friends: the [run] key they override */
} option;

static const option options[] = {
    {"--help", OPT_FLAG, NULL},          {"--version", OPT_FLAG, NULL},      {"--list", OPT_FLAG, NULL},
    {"--dry-run", OPT_FLAG, NULL},       {"--quiet", OPT_FLAG, NULL},        {"--overwrite", OPT_FLAG, NULL},
    {"--json", OPT_FLAG, NULL},          {"--summary", OPT_FLAG, NULL},      {"--full-agreement", OPT_FLAG, NULL},
    {"--config", OPT_VALUE, NULL},       {"--set", OPT_VALUE, NULL},         {"--output", OPT_VALUE, NULL},
    {"--junit", OPT_VALUE, NULL},        {"--backend", OPT_VALUE, NULL},     {"--kernel", OPT_VALUE, NULL},
    {"--device", OPT_VALUE, NULL},       {"--size", OPT_VALUE, "sizes"},     {"--dtype", OPT_VALUE, "dtype"},
    {"--trans", OPT_VALUE, "trans"},     {"--no-isolation", OPT_FLAG, NULL}, {"--resume", OPT_FLAG, NULL},
    {"--tune", OPT_FLAG, NULL},          {"--tune-budget", OPT_VALUE, NULL}, {"--verbose", OPT_FLAG, NULL},
    {"--save-outputs", OPT_VALUE, NULL}, {"--timeline", OPT_VALUE, NULL},
};

static const option *find_option(const char *arg, size_t name_len)
{
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (strlen(options[i].name) == name_len && strncmp(options[i].name, arg, name_len) == 0) return &options[i];
    return NULL;
}

/* `what` is echoed shortened: a long argument never hides the reason. */
static int usage_error(const char *fmt, const char *what)
{
    char shown[GH_SHOWN_SIZE];
    fputs("gemmhost: ", stderr);
    fprintf(stderr, fmt, gh_shown_value(what, shown, sizeof shown));
    fputs(" (see gemmhost --help)\n", stderr);
    return -1;
}

/* --backend, --kernel and --device select: a repeat adds to the list
 * ("--kernel a --kernel b" is "--kernel a,b"). */
static const char *add_to_list(gh_cli *c, const char *list, const char *value)
{
    if (!list) return value;
    c->owned = gh_xrealloc(c->owned, (c->n_owned + 1) * sizeof *c->owned);
    c->owned[c->n_owned++] = gh_strdupf("%s,%s", list, value);
    return c->owned[c->n_owned - 1];
}

/* Options that take one value: a second would silently replace the first. */
static int takes_one_value(const option *o)
{
    return o->kind == OPT_VALUE && strcmp(o->name, "--set") != 0 && strcmp(o->name, "--backend") != 0 &&
           strcmp(o->name, "--kernel") != 0 && strcmp(o->name, "--device") != 0;
}

/* Stores one option's value. Returns -1 on a usage error (printed). */
static int take(gh_cli *c, const option *o, const char *value, int *help, int *version)
{
    const char *n = o->name;
    if (o->run_key) {
        if (!*value) return usage_error("%s needs a non-empty list", n);
        char *text = gh_strdupf("run.%s=%s", o->run_key, value);
        c->owned = gh_xrealloc(c->owned, (c->n_owned + 1) * sizeof *c->owned);
        c->owned[c->n_owned++] = text;
        c->overrides[c->n_overrides++] = text;
    } else if (!strcmp(n, "--help")) *help = 1;
    else if (!strcmp(n, "--version")) *version = 1;
    else if (!strcmp(n, "--list")) c->list = 1;
    else if (!strcmp(n, "--dry-run")) c->dry_run = 1;
    else if (!strcmp(n, "--quiet")) c->quiet = 1;
    else if (!strcmp(n, "--verbose")) c->verbose = 1;
    else if (!strcmp(n, "--overwrite")) c->overwrite = 1;
    else if (!strcmp(n, "--resume")) c->resume = 1;
    else if (!strcmp(n, "--tune")) c->tune = 1;
    else if (!strcmp(n, "--tune-budget")) {
        if (gh_parse_seconds(value, &c->tune_budget) != 0)
            return usage_error("--tune-budget %s is not a duration (e.g. 120s, 500ms, 2m, 1h)", value);
    } else if (!strcmp(n, "--json")) c->json = 1;
    else if (!strcmp(n, "--summary")) c->summary = 1;
    else if (!strcmp(n, "--full-agreement")) c->full_agreement = 1;
    else if (!strcmp(n, "--no-isolation")) {
        /* an override like --size's, so the config as run records it */
        c->owned = gh_xrealloc(c->owned, (c->n_owned + 1) * sizeof *c->owned);
        c->owned[c->n_owned++] = gh_strdup("run.isolation=none");
        c->overrides[c->n_overrides++] = c->owned[c->n_owned - 1];
    } else if (!strcmp(n, "--config")) c->config_path = value;
    else if (!strcmp(n, "--set")) c->overrides[c->n_overrides++] = value;
    else if (!strcmp(n, "--output")) c->output = value;
    else if (!strcmp(n, "--junit")) c->junit = value;
    else if (!strcmp(n, "--save-outputs")) c->save_outputs = value;
    else if (!strcmp(n, "--timeline")) c->timeline = value;
    else if (!strcmp(n, "--backend")) c->filters.backends = add_to_list(c, c->filters.backends, value);
    else if (!strcmp(n, "--kernel")) c->filters.kernels = add_to_list(c, c->filters.kernels, value);
    else if (!strcmp(n, "--device")) c->filters.devices = add_to_list(c, c->filters.devices, value);
    if (o->kind == OPT_VALUE && !*value && strcmp(n, "--output") != 0) return usage_error("%s needs a value", n);
    return 0;
}

/* gemmhost probe takes the selection and where its JSON goes; options of a
 * run that would mean nothing there are refused, not ignored. */
static int check_probe(const gh_cli *c, int argc, char **argv)
{
    static const char *const run_only[] = {"--list",    "--dry-run",        "--tune",     "--tune-budget", "--resume",
                                           "--junit",   "--save-outputs",   "--timeline", "--size",        "--trans",
                                           "--verbose", "--full-agreement", "--summary",  "--overwrite"};
    for (int i = 2; i < argc; i++)
        for (size_t r = 0; r < sizeof run_only / sizeof run_only[0]; r++) {
            const size_t len = strlen(run_only[r]);
            if (!strncmp(argv[i], run_only[r], len) && (argv[i][len] == '\0' || argv[i][len] == '='))
                return usage_error("%s does not go with gemmhost probe", run_only[r]);
        }
    if (c->json && c->quiet) return usage_error("%s: give one of them", "--json --quiet");
    return 0;
}

/* Combinations that would silently drop an option. */
static int check_combinations(const gh_cli *c)
{
    if (c->list && c->dry_run) return usage_error("%s: give one of --list and --dry-run", "--list --dry-run");
    if (c->resume && c->overwrite)
        return usage_error("%s: give one (--resume keeps the results at the output, --overwrite replaces them)",
                           "--resume --overwrite");
    if (c->resume && (c->list || c->dry_run))
        return usage_error("--resume only goes with a run, not with %s", c->list ? "--list" : "--dry-run");
    if (c->tune && (c->list || c->dry_run || c->resume))
        return usage_error("--tune goes with neither %s (a tuning run resumes from its cache by itself)",
                           "--list, --dry-run nor --resume");
    if (c->quiet && c->verbose) return usage_error("%s: give one of them", "--quiet --verbose");
    if (c->json && c->summary) return usage_error("%s: give one of them", "--json --summary");
    if ((c->json || c->summary) && !c->list && !(c->json && c->probe))
        return usage_error("%s only goes with --list", c->json ? "--json" : "--summary");
    return 0;
}

int gh_cli_parse(int argc, char **argv, gh_cli *c, int *exit_status, int *wants_version)
{
    memset(c, 0, sizeof *c);
    c->tune_budget = -1;
    *wants_version = 0;
    c->overrides = gh_xcalloc((size_t)argc + 1, sizeof *c->overrides);
    int help = 0;
    unsigned char given[sizeof options / sizeof options[0]] = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (i == 1 && !strcmp(a, "probe")) { /* the subcommand, before any option */
            c->probe = 1;
            continue;
        }
        const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
        const option *o = find_option(a, eq ? (size_t)(eq - a) : strlen(a));
        if (!o && !strcmp(a, "-h")) o = find_option("--help", 6);
        if (!o) {
            *exit_status = EXIT_USAGE;
            return usage_error("%s is not an option", a);
        }
        const char *value = NULL;
        if (o->kind == OPT_VALUE) {
            if (eq) value = eq + 1;
            else if (i + 1 < argc) value = argv[++i];
            else {
                *exit_status = EXIT_USAGE;
                return usage_error("%s needs a value", o->name);
            }
        } else if (eq) {
            *exit_status = EXIT_USAGE;
            return usage_error("%s takes no value", o->name);
        }
        if (takes_one_value(o) && given[o - options]++) {
            *exit_status = EXIT_USAGE;
            return usage_error(o->run_key ? "%s is given twice; give it once, with a list (e.g. 64,128)"
                                          : "%s is given twice; it takes one value",
                               o->name);
        }
        if (take(c, o, value, &help, wants_version) != 0) {
            *exit_status = EXIT_USAGE;
            return -1;
        }
    }
    if (help) {
        usage(stdout);
        *exit_status = EXIT_PASS;
        return -1;
    }
    if ((c->probe && check_probe(c, argc, argv) != 0) || check_combinations(c) != 0) {
        *exit_status = EXIT_USAGE;
        return -1;
    }
    return 0;
}

void gh_cli_free(gh_cli *c)
{
    for (size_t i = 0; i < c->n_owned; i++) free(c->owned[i]);
    free(c->owned);
    free(c->overrides);
    memset(c, 0, sizeof *c);
}
