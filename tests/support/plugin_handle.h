/* A plugin loaded the way the host loads it: dlopen, the entry, the ABI
 * request; then open and close with the plugin's own words on failure. */
#ifndef GH_TEST_SUPPORT_PLUGIN_HANDLE_H
#define GH_TEST_SUPPORT_PLUGIN_HANDLE_H

#include <stddef.h>
#include "gemmhost/plugin.h"

typedef struct gh_test_plugin {
    void *library;
    gh_entry_fn entry;
    const gh_plugin_api *api;
    unsigned abi_minor; /* what the plugin answered */
    gh_plugin *ctx;     /* after gh_test_plugin_open */
    char error[1024];   /* why the last call failed */
} gh_test_plugin;

/* 0 when loaded and the ABI agreed; otherwise -1 with the reason (naming
 * the path) in h->error. The library stays unloaded on failure. */
int gh_test_plugin_load(gh_test_plugin *h, const char *path);
/* api->open with these options; the status, with the plugin's last_error
 * in h->error when it is not GH_OK. */
gh_status gh_test_plugin_open(gh_test_plugin *h, const gh_option_value *options, size_t n_options);
void gh_test_plugin_close(gh_test_plugin *h);
/* Closes when open, then dlcloses. */
void gh_test_plugin_unload(gh_test_plugin *h);

/* A plugin test's start: `argv[1]` is the plugin (`plugin_file` names it in
 * the usage line); loads and opens it with no options. 0 when it is open;
 * otherwise the exit code (2: usage, 1: load or open failed), having said
 * why on stderr. */
int gh_test_plugin_start(gh_test_plugin *h, int argc, char **argv, const char *plugin_file);
/* The same, opened with these options. */
int gh_test_plugin_start_with(gh_test_plugin *h, int argc, char **argv, const char *plugin_file,
                              const gh_option_value *options, size_t n_options);

/* Index of the kernel with this name, or -1. */
int gh_test_find_kernel(const gh_plugin_api *api, gh_plugin *ctx, const char *name);

#endif
