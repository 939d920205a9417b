/* The plugin's behaviour around GEMM: version negotiation, options, device
 * info, refused arguments, the kernel directory, per-thread errors, and
 * devices driven from several threads at once. */
#ifndef GH_TEST_API_CHECKS_H
#define GH_TEST_API_CHECKS_H

#include <gemmhost/plugin.h>
#include "tally.h"

/* Need no device. */
void api_checks_entry(gh_entry_fn entry, tally *t);
void api_checks_open(const gh_plugin_api *api, tally *t);

/* On one device of ctx; `platform` is the filter ctx was opened with (or NULL),
 * used again for the extra contexts these checks open. */
void api_checks_device(const gh_plugin_api *api, gh_plugin *ctx, int device, const char *platform, tally *t);

/* Every device at once, one thread each (only meaningful with 2 or more). */
void api_checks_threads(const gh_plugin_api *api, gh_plugin *ctx, tally *t);

/* Index of the kernel with this name, or -1. */
int find_kernel(const gh_plugin_api *api, gh_plugin *ctx, const char *name);

#endif
