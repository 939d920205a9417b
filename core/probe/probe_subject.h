/* One thing the probe fingerprints: a kernel variant on a device in one
 * dtype, with its declaration and findings (or why it has none). The table
 * and the JSON read these. */
#ifndef GEMMHOST_PROBE_SUBJECT_H
#define GEMMHOST_PROBE_SUBJECT_H

#include <stddef.h>
#include "probe_declared.h"
#include "probe_finding.h"

typedef struct probe_subject {
    char backend[128];
    char plugin[64];
    int device_index;
    char device[256]; /* "0:pthread-haswell-AMD EPYC" */
    char driver[128]; /* the device's driver_version: what a driver update changes */
    char api[128];    /* "OpenCL 3.0 PoCL ...", "Vulkan 1.3.239" */
    char kernel[64];
    char params[128]; /* "tile=16", "" */
    gh_dtype dtype;
    char dtype_name[24];
    char note[512]; /* why there are no findings ("no probe cases for e4m3 yet"), "" */
    probe_declared decl;
    int has_decl;
    probe_findings findings;
} probe_subject;

typedef struct probe_subjects {
    probe_subject *items;
    size_t n, cap;
} probe_subjects;

size_t probe_mismatches(const probe_subject *s);

/* probe_table.c: the table per device and kernel on `out`. */
void probe_table_print(const probe_subjects *all, FILE *out);
/* probe_json.c: the whole probe as one JSON document (malloc'd). */
char *probe_json_text(const probe_subjects *all);

#endif
