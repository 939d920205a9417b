/* The compare command: options, files, the comparison, its report and exit
 * status; see runs_compare.h. */
#include "runs_compare.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_junit.h"
#include "compare_render.h"
#include "env_diff.h"
#include "fleet_layout.h"
#include "probe_compare.h"
#include "results_file.h"
#include "runs_analysis.h"
#include "runs_match.h"
#include "util.h"

enum { COMPARE_OK = 0, COMPARE_REGRESSED = 1, COMPARE_USAGE = 2 };

static void usage(FILE *to)
{
    fputs(
        "usage: gemmhost compare [--threshold PCT] [--by-plugin] [--ignore-device-names]\n"
        "                        [--ignore-hosts | --ignore-ranks]\n"
        "                        [--json | --markdown] [--junit FILE] A.json B.json [C.json ...]\n"
        "\n"
        "Compares results files of gemmhost runs (other machines, drivers, builds):\n"
        "what differs between their environments, then each later file against A:\n"
        "per matched result the ratio of median kernel times with a verdict (SAME\n"
        "when the [min, max] ranges overlap or the change is within the threshold,\n"
        "else FAST or SLOW), status changes (pass -> FAIL, crashed, ...), new and\n"
        "missing results; then, per case, the outputs across all files grouped by\n"
        "their hash (bit-identical). Results match by case, backend, device index\n"
        "and name, kernel and parameters; in a fleet's PREFIX.json (gemmhost under\n"
        "MPI) also by rank and host.\n"
        "\n"
        "  --threshold PCT        a change within PCT percent is SAME (default 5)\n"
        "  --by-plugin            match by plugin, not by [backend NAME] section\n"
        "  --ignore-device-names  match devices by index only (another machine's GPU)\n"
        "  --ignore-hosts         fleet files: pair results by rank alone (other nodes)\n"
        "  --ignore-ranks         fleet files: match across ranks and hosts (a fleet\n"
        "                         against one run's file, or fleets of other layouts)\n"
        "  --json                 the comparison as JSON on stdout\n"
        "  --markdown             the report as Markdown (for a pull request)\n"
        "  --junit FILE           also write the comparison as JUnit XML (a failure per\n"
        "                         regressed result), for a CI system\n"
        "\n"
        "Probe files (gemmhost probe --output) compare with probe files: per backend,\n"
        "kernel, device, dtype and property the findings side by side, marking those\n"
        "that differ (exit status 1), with the devices whose driver or API differ;\n"
        "--by-plugin, --ignore-device-names and --json apply there.\n"
        "\n"
        "Exit status: 0 nothing regressed; 1 a regression (a status that got worse,\n"
        "or SLOW); 2 a usage error or files that cannot be compared (unreadable,\n"
        "not gemmhost's, an older format, another seed, or nothing in common).\n",
        to);
}

typedef struct compare_args {
    double threshold;
    int threshold_given;
    gh_match_options match;
    int json, markdown;
    const char *junit;
    const char **paths;
    size_t n_paths;
} compare_args;

static int usage_error(const char *fmt, const char *what)
{
    fputs("gemmhost compare: ", stderr);
    fprintf(stderr, fmt, what);
    fputs(" (see gemmhost compare --help)\n", stderr);
    return COMPARE_USAGE;
}

/* "5", "5%" or "0.5": percent. */
static int parse_threshold(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || (*end && strcmp(end, "%") != 0) || !isfinite(v) || v < 0) return -1;
    *out = v / 100;
    return 0;
}

/* Returns -1 to go on, else the exit status (after --help or a usage error). */
static int parse_args(int argc, char **argv, compare_args *a)
{
    memset(a, 0, sizeof *a);
    a->threshold = 0.05;
    a->paths = gh_xcalloc((size_t)argc + 1, sizeof *a->paths);
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i], *eq = strncmp(s, "--", 2) == 0 ? strchr(s, '=') : NULL;
        size_t len = eq ? (size_t)(eq - s) : strlen(s);
        if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            usage(stdout);
            return COMPARE_OK;
        } else if (len == 11 && !strncmp(s, "--threshold", len)) {
            const char *v = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
            if (!v) return usage_error("%s needs a value", "--threshold");
            a->threshold_given = 1;
            if (parse_threshold(v, &a->threshold) != 0)
                return usage_error("--threshold %s is not a percentage (e.g. 5 or 2.5%%)", v);
        } else if (len == 7 && !strncmp(s, "--junit", len)) {
            a->junit = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
            if (!a->junit || !*a->junit) return usage_error("%s needs a file", "--junit");
        } else if (!strcmp(s, "--by-plugin")) a->match.by_plugin = 1;
        else if (!strcmp(s, "--ignore-device-names")) a->match.ignore_device_names = 1;
        else if (!strcmp(s, "--ignore-hosts")) a->match.ignore_hosts = 1;
        else if (!strcmp(s, "--ignore-ranks")) a->match.ignore_ranks = 1;
        else if (!strcmp(s, "--json")) a->json = 1;
        else if (!strcmp(s, "--markdown")) a->markdown = 1;
        else if (s[0] == '-' && s[1]) return usage_error("%s is not an option of compare", s);
        else a->paths[a->n_paths++] = s;
    }
    if (a->json && a->markdown) return usage_error("%s: give one of them", "--json --markdown");
    if (a->n_paths < 2)
        return usage_error("%s: give two results files or more (A.json B.json ...)",
                           a->n_paths ? "one file" : "no file");
    return -1;
}

/* A later file with no case in common with file 0 (then nothing can be
 * compared), or 0. */
static int first_without_common_case(size_t n, const gh_matches *m)
{
    json_t *cases = json_object(); /* case keys of file 0, as a set */
    for (size_t i = 0; i < m->n_rows; i++)
        if (m->rows[i].in[0]) {
            char *k = gh_match_case_key(m->rows[i].in[0]);
            json_object_set_new(cases, k, json_true());
            free(k);
        }
    int lonely = 0;
    for (size_t f = 1; f < n && !lonely; f++) {
        int common = 0;
        for (size_t i = 0; i < m->n_rows && !common; i++)
            if (m->rows[i].in[f]) {
                char *k = gh_match_case_key(m->rows[i].in[f]);
                common = json_object_get(cases, k) != NULL;
                free(k);
            }
        if (!common) lonely = (int)f;
    }
    json_decref(cases);
    return lonely;
}

static int compare(const compare_args *a, gh_results_file *files)
{
    char err[4096];
    size_t n = a->n_paths;
    for (size_t f = 0; f < n; f++) {
        if (gh_results_file_load(a->paths[f], &files[f], err, sizeof err) != 0) {
            fprintf(stderr, "gemmhost compare: %s\n", err);
            return COMPARE_USAGE;
        }
        if (f < 26) snprintf(files[f].label, sizeof files[f].label, "%c", (char)('A' + f));
        else snprintf(files[f].label, sizeof files[f].label, "F%u", (unsigned)(f + 1) % 100000u);
    }
    if (gh_env_check_comparable(files, n, err, sizeof err) != 0) {
        fprintf(stderr, "gemmhost compare: %s\n", err);
        return COMPARE_USAGE;
    }
    gh_matches m;
    if (gh_fleet_layout_check(files, n, &a->match, err, sizeof err) != 0 ||
        gh_match_results(files, n, &a->match, &m, err, sizeof err) != 0) {
        fprintf(stderr, "gemmhost compare: %s\n", err);
        return COMPARE_USAGE;
    }
    int lonely = first_without_common_case(n, &m);
    if (lonely) {
        fprintf(stderr,
                "gemmhost compare: %s and %s have nothing in common: no case (shape, dtype, B's and C's types, "
                "scales, trans, alpha, beta, case index) is in both\n",
                files[0].path, files[lonely].path);
        gh_matches_free(&m);
        return COMPARE_USAGE;
    }
    size_t regressions;
    json_t *doc = gh_compare_analyse(files, n, &m, a->threshold, &regressions);
    json_object_set_new(doc, "environment", gh_env_diff(files, n));
    int status = regressions ? COMPARE_REGRESSED : COMPARE_OK;
    json_object_set_new(doc, "exit_status", json_integer(status));
    if (a->junit && gh_compare_junit_write(doc, a->junit, err, sizeof err) != 0) {
        fprintf(stderr, "gemmhost compare: %s\n", err);
        status = COMPARE_USAGE;
    }
    if (a->json) {
        if (json_dumpf(doc, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER) != 0) {
            fprintf(stderr, "gemmhost compare: cannot write the JSON to stdout\n");
            status = COMPARE_USAGE;
        }
        fputc('\n', stdout);
    } else gh_compare_render(stdout, doc, a->markdown ? GH_COMPARE_MARKDOWN : GH_COMPARE_TEXT);
    json_decref(doc);
    gh_matches_free(&m);
    return status;
}

/* Probe files go to probe_compare.c: all of them, or none; -1 for none. */
static int compare_probes(const compare_args *a)
{
    size_t probes = 0;
    for (size_t f = 0; f < a->n_paths; f++) probes += gh_is_probe_file(a->paths[f]) != 0;
    if (!probes) return -1;
    if (probes < a->n_paths) {
        const char *probe = NULL, *other = NULL;
        for (size_t f = 0; f < a->n_paths; f++)
            if (gh_is_probe_file(a->paths[f])) probe = probe ? probe : a->paths[f];
            else other = other ? other : a->paths[f];
        fprintf(stderr, "gemmhost compare: %s is a probe file and %s is not: probes compare with probes only\n", probe,
                other);
        return COMPARE_USAGE;
    }
    if (a->markdown || a->junit || a->threshold_given)
        return usage_error("%s do not go with probe files (no timings there)", "--markdown, --junit and --threshold");
    gh_probe_compare_options o = {a->json, a->match.ignore_device_names, a->match.by_plugin};
    return gh_probe_compare(a->paths, a->n_paths, &o);
}

int gh_compare_main(int argc, char **argv)
{
    compare_args a;
    int status = parse_args(argc, argv, &a);
    if (status < 0) status = compare_probes(&a);
    if (status < 0) {
        gh_results_file *files = gh_xcalloc(a.n_paths, sizeof *files);
        status = compare(&a, files);
        for (size_t f = 0; f < a.n_paths; f++) gh_results_file_free(&files[f]);
        free(files);
    }
    free(a.paths);
    return status;
}
