/* The fleet report on the terminal (fleet_report.h): a line per rank, the
 * agreement across ranks per dtype, each failure and note with its rank. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fleet_report.h"

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static void count(const json_t *results, int rank, size_t counts[6])
{
    static const char *const names[] = {"pass", "fail", "unsupported", "error", "crashed", "timeout"};
    memset(counts, 0, 6 * sizeof *counts);
    size_t i;
    json_t *r;
    json_array_foreach(results, i, r)
    {
        if (json_integer_value(json_object_get(r, "rank")) != rank) continue;
        for (int k = 0; k < 6; k++)
            if (!strcmp(str(r, "status"), names[k])) counts[k]++;
    }
}

static void print_ranks(const json_t *fleet, FILE *out)
{
    const json_t *ranks = json_object_get(json_object_get(fleet, "fleet"), "ranks");
    fprintf(out, "fleet: %zu ranks\n", json_array_size(ranks));
    fprintf(out, "  %-5s %-20s %-5s %-10s %6s %5s %5s %5s %5s %5s %5s\n", "rank", "host", "local", "state", "results",
            "pass", "fail", "unsup", "error", "crash", "tmout");
    size_t i;
    json_t *e;
    json_array_foreach(ranks, i, e)
    {
        int rank = (int)json_integer_value(json_object_get(e, "rank"));
        const char *state = json_is_true(json_object_get(e, "missing"))     ? "MISSING"
                            : json_is_true(json_object_get(e, "idle"))      ? "idle"
                            : !json_is_true(json_object_get(e, "complete")) ? "UNFINISHED"
                                                                            : "complete";
        size_t c[6];
        count(json_object_get(fleet, "results"), rank, c);
        json_t *local = json_object_get(e, "local_rank");
        char local_text[16] = "-";
        if (json_is_integer(local))
            snprintf(local_text, sizeof local_text, "%lld", (long long)json_integer_value(local));
        fprintf(out, "  %-5d %-20s %-5s %-10s %6lld %5zu %5zu %5zu %5zu %5zu %5zu\n", rank, str(e, "host"), local_text,
                state, (long long)json_integer_value(json_object_get(e, "results")), c[0], c[1], c[2], c[3], c[4],
                c[5]);
    }
    json_array_foreach(ranks, i, e)
    {
        int rank = (int)json_integer_value(json_object_get(e, "rank"));
        if (json_is_true(json_object_get(e, "missing")))
            fprintf(out, "  rank %d is missing: %s\n", rank, str(e, "why"));
        else if (json_is_true(json_object_get(e, "idle")))
            fprintf(out, "  rank %d (%s) is idle: no [backend] or [split] is placed on it\n", rank, str(e, "host"));
        else if (*str(e, "why"))
            fprintf(out, "  rank %d (%s) stopped before its results: %s\n", rank, str(e, "host"), str(e, "why"));
        else if (!json_is_true(json_object_get(e, "complete")))
            fprintf(out, "  rank %d (%s) did not finish: its results file %s is incomplete (%lld results kept)\n", rank,
                    str(e, "host"), str(e, "file"), (long long)json_integer_value(json_object_get(e, "results")));
        else if (json_integer_value(json_object_get(e, "results")) == 0)
            fprintf(out, "  rank %d (%s) ran nothing: its backends could not run (see the notes)\n", rank,
                    str(e, "host"));
    }
}

/* One verdict per dtype, as the single-machine table gives it, but across ranks and hosts. */
static void print_agreement(const json_t *fleet, FILE *out)
{
    const json_t *agreement = json_object_get(fleet, "agreement");
    const char *dtypes[32];
    size_t n_dtypes = 0, i;
    json_t *e;
    json_array_foreach(agreement, i, e)
    {
        int seen = 0;
        for (size_t d = 0; d < n_dtypes; d++) seen |= !strcmp(dtypes[d], str(e, "dtype"));
        if (!seen && n_dtypes < 32) dtypes[n_dtypes++] = str(e, "dtype");
    }
    for (size_t d = 0; d < n_dtypes; d++) {
        size_t cases = 0, results = 0, identical = 0, beyond = 0, ranks = 0, hosts = 0, exact = 0, measured = 0;
        double worst = -1;
        const json_t *worst_entry = NULL;
        json_array_foreach(agreement, i, e)
        {
            if (strcmp(str(e, "dtype"), dtypes[d])) continue;
            cases++;
            results += (size_t)json_integer_value(json_object_get(e, "results"));
            if (json_array_size(json_object_get(e, "ranks")) > ranks)
                ranks = json_array_size(json_object_get(e, "ranks"));
            if (json_array_size(json_object_get(e, "hosts")) > hosts)
                hosts = json_array_size(json_object_get(e, "hosts"));
            if (json_array_size(json_object_get(e, "groups")) == 1) identical++;
            else measured++;
            exact += !strcmp(str(e, "distance"), "exact");
            const json_t *m = json_object_get(e, "max_diff_in_bounds");
            double v = json_is_number(m) ? json_number_value(m) : INFINITY;
            if (v > 1) beyond++;
            if (v > worst) worst = v, worst_entry = e;
        }
        fprintf(out, "agreement across ranks %s: ", dtypes[d]);
        if (identical == cases)
            fprintf(out, "all %zu cases identical across %zu results on %zu ranks, %zu host%s\n", cases, results, ranks,
                    hosts, hosts == 1 ? "" : "s");
        else if (!beyond)
            fprintf(out, "all %zu cases agree within %.3g of the bound (%zu results on %zu ranks, %zu host%s)\n", cases,
                    worst, results, ranks, hosts, hosts == 1 ? "" : "s");
        else
            fprintf(out,
                    "%zu of %zu cases DIFFER beyond the bound, by up to %.3g (%zu results on %zu ranks, %zu host%s)\n",
                    beyond, cases, worst, results, ranks, hosts, hosts == 1 ? "" : "s");
        if (measured && json_object_get(json_array_get(agreement, 0), "distance"))
            fprintf(out, "    distances: %zu of %zu cases with differing outputs exact (whole outputs at rank 0)%s\n",
                    exact, measured, exact < measured ? ", the others from fingerprints" : "");
        const json_t *pair = json_object_get(worst_entry, "worst");
        if (worst_entry && json_array_size(pair) == 2)
            fprintf(out, "    worst: %lldx%lldx%lld %s (case %lld), %s vs %s\n",
                    (long long)json_integer_value(json_object_get(worst_entry, "m")),
                    (long long)json_integer_value(json_object_get(worst_entry, "n")),
                    (long long)json_integer_value(json_object_get(worst_entry, "k")), str(worst_entry, "trans"),
                    (long long)json_integer_value(json_object_get(worst_entry, "case_index")),
                    json_string_value(json_array_get(pair, 0)), json_string_value(json_array_get(pair, 1)));
    }
}

/* --verbose: every case across the ranks, with its groups of bit-identical
 * outputs and their members. */
static void print_cases(const json_t *fleet, FILE *out)
{
    const json_t *agreement = json_object_get(fleet, "agreement");
    if (!json_array_size(agreement)) return;
    fprintf(out,
            "agreement across ranks, per case (groups of bit-identical outputs; diff: the largest between "
            "groups, in units of the bound)\n");
    size_t i, g, k;
    json_t *e, *grp, *member;
    json_array_foreach(agreement, i, e)
    {
        const json_t *m = json_object_get(e, "max_diff_in_bounds");
        char diff[32];
        if (json_is_number(m)) snprintf(diff, sizeof diff, "%.3g", json_number_value(m));
        else snprintf(diff, sizeof diff, "%s", json_is_string(m) ? json_string_value(m) : "?");
        fprintf(out, "  case %lld %s %s %lldx%lldx%lld: %lld results on %zu ranks, %zu host%s, %zu groups, diff %s%s\n",
                (long long)json_integer_value(json_object_get(e, "case_index")), str(e, "dtype"), str(e, "trans"),
                (long long)json_integer_value(json_object_get(e, "m")),
                (long long)json_integer_value(json_object_get(e, "n")),
                (long long)json_integer_value(json_object_get(e, "k")),
                (long long)json_integer_value(json_object_get(e, "results")),
                json_array_size(json_object_get(e, "ranks")), json_array_size(json_object_get(e, "hosts")),
                json_array_size(json_object_get(e, "hosts")) == 1 ? "" : "s",
                json_array_size(json_object_get(e, "groups")), diff,
                !strcmp(str(e, "distance"), "exact")                ? " (exact)"
                : json_is_false(json_object_get(e, "fingerprints")) ? " (some groups without comparable fingerprints)"
                                                                    : "");
        json_array_foreach(json_object_get(e, "groups"), g, grp)
        {
            fprintf(out, "    %s:", str(grp, "hash"));
            json_array_foreach(json_object_get(grp, "members"), k, member)
                fprintf(out, "%s %s", k ? "," : "", json_string_value(member));
            fprintf(out, "\n");
        }
    }
}

static void print_failures_and_notes(const json_t *fleet, FILE *out)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(fleet, "results"), i, r)
    {
        const char *s = str(r, "status");
        if (strcmp(s, "fail") && strcmp(s, "error") && strcmp(s, "crashed") && strcmp(s, "timeout")) continue;
        fprintf(out, "  %s: rank %lld (%s) %s/%lld/%s %lldx%lldx%lld %s %s: %s\n", s,
                (long long)json_integer_value(json_object_get(r, "rank")), str(r, "host"), str(r, "backend"),
                (long long)json_integer_value(json_object_get(r, "device_index")), str(r, "kernel"),
                (long long)json_integer_value(json_object_get(r, "m")),
                (long long)json_integer_value(json_object_get(r, "n")),
                (long long)json_integer_value(json_object_get(r, "k")), str(r, "dtype"), str(r, "trans"),
                *str(r, "detail") ? str(r, "detail") : str(r, "verify_message"));
    }
    const json_t *notes = json_object_get(fleet, "notes");
    if (json_array_size(notes)) fprintf(out, "notes (%zu):\n", json_array_size(notes));
    json_array_foreach(notes, i, r) fprintf(out, "  %s\n", json_string_value(r));
}

int gh_fleet_print(const json_t *fleet, FILE *out, int quiet, int verbose)
{
    if (!quiet) {
        print_ranks(fleet, out);
        if (verbose) print_cases(fleet, out);
        print_agreement(fleet, out);
        print_failures_and_notes(fleet, out);
    }
    int status = EXIT_PASS;
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(json_object_get(fleet, "fleet"), "ranks"), i, e) status =
        gh_fleet_worse_status(status, (int)json_integer_value(json_object_get(e, "status")));
    size_t c[6] = {0}, n = 0;
    json_array_foreach(json_object_get(json_object_get(fleet, "fleet"), "ranks"), i, e)
    {
        size_t one[6];
        count(json_object_get(fleet, "results"), (int)json_integer_value(json_object_get(e, "rank")), one);
        for (int k = 0; k < 6; k++) c[k] += one[k];
        n++;
    }
    fprintf(out,
            "%sgemmhost fleet: %zu ranks: %zu passed, %zu failed, %zu unsupported, %zu errors, %zu crashed, %zu "
            "timeout\n",
            quiet ? "" : "\n", n, c[0], c[1], c[2], c[3], c[4], c[5]);
    return status;
}
