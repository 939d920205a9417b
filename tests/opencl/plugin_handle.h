/* Loading a plugin the way the host does: dlopen, the entry, the ABI check. */
#ifndef GH_TEST_PLUGIN_HANDLE_H
#define GH_TEST_PLUGIN_HANDLE_H

#include <gemmhost/plugin.h>

typedef struct plugin_handle {
    void *library;
    gh_entry_fn entry;
    const gh_plugin_api *api;
} plugin_handle;

/* 0 on success; otherwise prints why and returns -1. */
int plugin_load(plugin_handle *h, const char *path);
void plugin_unload(plugin_handle *h);

/* Index of the kernel with this name, or -1. */
int find_kernel(const gh_plugin_api *api, gh_plugin *ctx, const char *name);

#endif
