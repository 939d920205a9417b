/* gemmhost --version. */
#include <stdio.h>

#include "gemmhost_build_info.h"
#include "loader.h"
#include "version.h"

void gh_print_version(void)
{
    printf("gemmhost %s, git commit %s, %s build, plugin ABI %d.%d\n", GEMMHOST_VERSION, GEMMHOST_GIT_COMMIT,
           GEMMHOST_BUILD_TYPE, GEMMHOST_ABI_MAJOR, GEMMHOST_ABI_MINOR);
    gh_plugin_set plugins = {.isolated = 1};
    gh_plugins_discover(&plugins, NULL, 0);
    for (size_t i = 0; i < plugins.n; i++) {
        const gh_loaded_plugin *p = plugins.items[i];
        if (p->api)
            printf("  plugin %s %s (ABI %u.%u): %s\n", p->name, p->api->version ? p->api->version : "?", p->abi_major,
                   p->abi_minor, p->path);
        else printf("  plugin %s not loaded: %s\n", p->name, p->error);
    }
    gh_plugins_free(&plugins);
}
