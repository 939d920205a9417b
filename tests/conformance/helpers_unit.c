/*
 * plugin_helpers.h's table helpers, as every plugin uses them: GH_PLUGIN_PARAM
 * fills one gh_param_info from (name, description, default, allowed array),
 * and gh_plugin_embedded_find finds a file of a gemmhost_embed table by name.
 */
#define CHECK_MAIN
#include <gemmhost/plugin_helpers.h>
#include "../check.h"

/* The error text GH_PLUGIN_ENTRY would define in a plugin. */
GH_PLUGIN_DEFINE_ERROR_TEXT;

static const int64_t tiles[] = {8, 16, 32};
static const gh_param_info params[] = {
    GH_PLUGIN_PARAM("tile", "edge of a tile", 16, tiles),
};

static const unsigned char naive_bytes[] = "naive\0", tiled_bytes[] = "tiled\0";
static const struct gh_embedded_file files[] = {
    {"naive.cl", naive_bytes, 5},
    {"tiled.cl", tiled_bytes, 5},
    {0, 0, 0},
};

int main(void)
{
    const gh_param_info *p = &params[0];
    CHECK(GH_PLUGIN_COUNT(params) == 1, "GH_PLUGIN_COUNT: one entry (got %zu)", GH_PLUGIN_COUNT(params));
    CHECK(p->size == sizeof(gh_param_info), "GH_PLUGIN_PARAM: size is sizeof(gh_param_info) (got %zu)", p->size);
    CHECK(strcmp(p->name, "tile") == 0, "GH_PLUGIN_PARAM: name (got %s)", p->name);
    CHECK(strcmp(p->description, "edge of a tile") == 0, "GH_PLUGIN_PARAM: description (got %s)", p->description);
    CHECK(p->default_value == 16, "GH_PLUGIN_PARAM: default (got %lld)", (long long)p->default_value);
    CHECK(p->allowed == tiles && p->n_allowed == 3, "GH_PLUGIN_PARAM: the allowed array and its count (got %zu)",
          p->n_allowed);
    CHECK(p->min_value == 0 && p->max_value == 0, "GH_PLUGIN_PARAM: no range beside the allowed values");
    CHECK(gh_plugin_param_index(p, 32) == 2 && gh_plugin_param_index(p, 4) == -1,
          "GH_PLUGIN_PARAM: gh_plugin_param_index reads its allowed values");

    const struct gh_embedded_file *e = gh_plugin_embedded_find(files, "tiled.cl");
    CHECK(e == &files[1], "gh_plugin_embedded_find: tiled.cl is the second entry");
    CHECK(e && e->size == 5 && memcmp(e->data, "tiled", 5) == 0, "gh_plugin_embedded_find: its bytes and size");
    CHECK(gh_plugin_embedded_find(files, "naive.cl") == &files[0], "gh_plugin_embedded_find: the first entry");
    CHECK(gh_plugin_embedded_find(files, "blocked.cl") == NULL, "gh_plugin_embedded_find: a missing file is NULL");
    CHECK(gh_plugin_embedded_find(files, "tiled") == NULL, "gh_plugin_embedded_find: a name must match whole");
    return check_summary("plugin_helpers tables");
}
