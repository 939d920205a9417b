#include "plugin_handle.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int gh_test_plugin_load(gh_test_plugin *h, const char *path)
{
    memset(h, 0, sizeof *h);
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(h->error, sizeof h->error, "dlopen(%s): %s", path, dlerror());
        return -1;
    }
    /* POSIX allows this conversion from void * (dlsym has no other way). */
    *(void **)&h->entry = dlsym(library, GEMMHOST_ENTRY_NAME);
    if (!h->entry) {
        snprintf(h->error, sizeof h->error, "%s has no entry %s: %s", path, GEMMHOST_ENTRY_NAME, dlerror());
        dlclose(library);
        return -1;
    }
    gh_entry_request req = {sizeof req, GEMMHOST_ABI_MAJOR, GEMMHOST_ABI_MINOR, 0, NULL};
    gh_status status = h->entry(&req);
    if (status != GH_OK || !req.api) {
        snprintf(h->error, sizeof h->error, "%s refused ABI %d.%d (status %d, plugin ABI major %u)", path,
                 GEMMHOST_ABI_MAJOR, GEMMHOST_ABI_MINOR, (int)status, req.plugin_abi_major);
        dlclose(library);
        h->entry = NULL;
        return -1;
    }
    h->library = library;
    h->api = req.api;
    h->abi_minor = req.abi_minor;
    return 0;
}

gh_status gh_test_plugin_open(gh_test_plugin *h, const gh_option_value *options, size_t n_options)
{
    h->ctx = NULL;
    gh_status status = h->api->open(options, n_options, &h->ctx);
    if (status != GH_OK || !h->ctx) {
        const char *why = h->api->last_error(NULL);
        snprintf(h->error, sizeof h->error, "%s: open: status %d: %s", h->api->name ? h->api->name : "plugin",
                 (int)status, why && why[0] ? why : "(no error text)");
        h->ctx = NULL;
        return status == GH_OK ? GH_ERROR : status;
    }
    return GH_OK;
}

void gh_test_plugin_close(gh_test_plugin *h)
{
    if (h->ctx) h->api->close(h->ctx);
    h->ctx = NULL;
}

void gh_test_plugin_unload(gh_test_plugin *h)
{
    if (h->api) gh_test_plugin_close(h);
    if (h->library && dlclose(h->library) != 0) fprintf(stderr, "dlclose: %s\n", dlerror());
    h->library = NULL;
    h->api = NULL;
}

int gh_test_find_kernel(const gh_plugin_api *api, gh_plugin *ctx, const char *name)
{
    for (int i = 0; i < api->kernel_count(ctx); i++) {
        const gh_kernel_info *k = api->kernel_info(ctx, i);
        if (k && k->name && strcmp(k->name, name) == 0) return i;
    }
    return -1;
}

int gh_test_plugin_start(gh_test_plugin *h, int argc, char **argv, const char *plugin_file)
{
    return gh_test_plugin_start_with(h, argc, argv, plugin_file, NULL, 0);
}

int gh_test_plugin_start_with(gh_test_plugin *h, int argc, char **argv, const char *plugin_file,
                              const gh_option_value *options, size_t n_options)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s %s\n", argv[0], plugin_file);
        return 2;
    }
    if (gh_test_plugin_load(h, argv[1]) != 0 || gh_test_plugin_open(h, options, n_options) != GH_OK) {
        fprintf(stderr, "%s\n", h->error);
        return 1;
    }
    return 0;
}
