/* gemmhost compare over `gemmhost probe` JSON files: the findings of each
 * plugin, kernel, device, dtype (or combination) and property side by
 * side, so that a driver update that changes rounding shows as one line.
 * docs/compare.md, "Probes". */
#ifndef GEMMHOST_PROBE_COMPARE_H
#define GEMMHOST_PROBE_COMPARE_H

#include <stddef.h>

/* 1 when the file at path is a probe's JSON (a top-level
 * "gemmhost_probe"), 0 otherwise (also when unreadable: the results
 * reader then says why). */
int gh_is_probe_file(const char *path);

typedef struct gh_probe_compare_options {
    int json;                /* the comparison as JSON on stdout */
    int ignore_device_names; /* match devices by index only */
    int by_plugin;           /* match by plugin, not by [backend NAME] section */
} gh_probe_compare_options;

/* Compares the probe files (the first is A); prints the report. Returns 0
 * when every finding in common agrees, 1 when one differs, 2 when a file
 * cannot be read or is no probe, or the files have nothing in common. */
int gh_probe_compare(const char *const *paths, size_t n, const gh_probe_compare_options *o);

#endif
