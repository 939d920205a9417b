#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "plugin_handle.h"

int plugin_load(plugin_handle *h, const char *path)
{
    h->library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h->library) {
        fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
        return -1;
    }
    /* POSIX allows this conversion from void * (dlsym has no other way). */
    *(void **)&h->entry = dlsym(h->library, GEMMHOST_ENTRY_NAME);
    if (!h->entry) {
        fprintf(stderr, "%s has no %s: %s\n", path, GEMMHOST_ENTRY_NAME, dlerror());
        dlclose(h->library);
        return -1;
    }
    gh_entry_request req = {sizeof req, GEMMHOST_ABI_MAJOR, GEMMHOST_ABI_MINOR, 0, NULL};
    gh_status status = h->entry(&req);
    if (status != GH_OK || !req.api) {
        fprintf(stderr, "%s refused ABI %d.%d (status %d, plugin ABI major %u)\n", path, GEMMHOST_ABI_MAJOR,
                GEMMHOST_ABI_MINOR, (int)status, req.plugin_abi_major);
        dlclose(h->library);
        return -1;
    }
    h->api = req.api;
    return 0;
}

void plugin_unload(plugin_handle *h)
{
    if (h->library) dlclose(h->library);
    h->library = NULL;
}

int find_kernel(const gh_plugin_api *api, gh_plugin *ctx, const char *name)
{
    for (int i = 0; i < api->kernel_count(ctx); i++) {
        const gh_kernel_info *k = api->kernel_info(ctx, i);
        if (k && strcmp(k->name, name) == 0) return i;
    }
    return -1;
}
