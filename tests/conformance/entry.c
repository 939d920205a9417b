/* The entry's negotiation and the function table (plugin.h: gh_entry_request,
 * gh_plugin_api and its (required)/(minor 1) marks). */
#include <stddef.h>
#include <string.h>

#include "conformance.h"

/* A request as a newer host would send it: longer than ours. */
typedef struct longer_request {
    gh_entry_request request;
    uint64_t newer_members[4];
} longer_request;

static gh_entry_request request(uint32_t major, uint32_t minor)
{
    return (gh_entry_request){.size = sizeof(gh_entry_request),
                              .host_abi_major = major,
                              .abi_minor = minor,
                              .plugin_abi_major = 0xdead,
                              .api = NULL};
}

static void check_refusals(conformance *c)
{
    gh_entry_request r = request(GEMMHOST_ABI_MAJOR + 1, 0);
    gh_status s = c->entry(&r);
    CHECK(s == GH_VERSION_MISMATCH && r.plugin_abi_major == GEMMHOST_ABI_MAJOR && r.api == NULL,
          "entry.wrong_major: host major %d -> GH_VERSION_MISMATCH, plugin_abi_major %d, api NULL (got %s, %u, %s)",
          GEMMHOST_ABI_MAJOR + 1, GEMMHOST_ABI_MAJOR, conf_status_name(s), r.plugin_abi_major,
          r.api ? "a table" : "NULL");

    s = c->entry(NULL);
    CHECK(s == GH_INVALID_ARGUMENT, "entry.null: a NULL request -> GH_INVALID_ARGUMENT (got %s)", conf_status_name(s));

    r = request(GEMMHOST_ABI_MAJOR, GEMMHOST_ABI_MINOR);
    r.size = offsetof(gh_entry_request, api); /* no room for the answer */
    s = c->entry(&r);
    CHECK(
        s == GH_INVALID_ARGUMENT && r.api == NULL,
        "entry.short_request: a request of %zu bytes (no room for api) -> GH_INVALID_ARGUMENT, api untouched (got %s)",
        r.size, conf_status_name(s));
    r = request(GEMMHOST_ABI_MAJOR, GEMMHOST_ABI_MINOR);
    r.size = 0;
    s = c->entry(&r);
    CHECK(s == GH_INVALID_ARGUMENT, "entry.short_request: a request of size 0 -> GH_INVALID_ARGUMENT (got %s)",
          conf_status_name(s));
}

static void check_minors(conformance *c, uint32_t table_minor)
{
    gh_entry_request r = request(GEMMHOST_ABI_MAJOR, 99);
    gh_status s = c->entry(&r);
    CHECK(s == GH_OK && r.api == c->api && r.abi_minor == table_minor,
          "entry.newer_minor: a host offering 1.99 gets the table's own minor %u (got %s, minor %u)", table_minor,
          conf_status_name(s), r.abi_minor);

    r = request(GEMMHOST_ABI_MAJOR, 0);
    s = c->entry(&r);
    CHECK(s == GH_OK && r.api == c->api && r.abi_minor == 0,
          "entry.older_minor: a host offering 1.0 gets minor 0 and the same table (got %s, minor %u)",
          conf_status_name(s), r.abi_minor);

    longer_request l = {.request = request(GEMMHOST_ABI_MAJOR, GEMMHOST_ABI_MINOR)};
    l.request.size = sizeof l;
    s = c->entry(&l.request);
    CHECK(s == GH_OK && l.request.api == c->api && l.newer_members[0] == 0,
          "entry.longer_request: a newer host's longer request is answered, its newer members untouched (got %s)",
          conf_status_name(s));
}

/* Every minor-0 member but get_proc is required. */
static void check_required(const gh_plugin_api *api)
{
    const struct {
        const char *name;
        int set;
    } members[] = {
        {"name", api->name != NULL},
        {"description", api->description != NULL},
        {"version", api->version != NULL},
        {"open", api->open != NULL},
        {"close", api->close != NULL},
        {"last_error", api->last_error != NULL},
        {"device_count", api->device_count != NULL},
        {"device_info", api->device_info != NULL},
        {"kernel_count", api->kernel_count != NULL},
        {"kernel_info", api->kernel_info != NULL},
        {"buffer_alloc", api->buffer_alloc != NULL},
        {"buffer_free", api->buffer_free != NULL},
        {"upload", api->upload != NULL},
        {"download", api->download != NULL},
        {"gemm", api->gemm != NULL},
        {"synchronize", api->synchronize != NULL},
    };
    char missing[512] = "";
    for (size_t i = 0; i < sizeof members / sizeof members[0]; i++)
        if (!members[i].set)
            snprintf(missing + strlen(missing), sizeof missing - strlen(missing), " %s", members[i].name);
    CHECK(!missing[0], "table.required: every required member is set%s%s", missing[0] ? "; NULL:" : "", missing);
    CHECK(api->n_options == 0 || api->options, "table.options: options is non-NULL when n_options (%zu) > 0",
          api->n_options);
    if (api->get_proc)
        CHECK(api->get_proc("gemmhost.conformance.no_such_extra") == NULL,
              "table.get_proc: an unknown name gives NULL");
    else check_skip("table.get_proc: get_proc is NULL (optional)");
}

static void check_minor1(conformance *c)
{
    const gh_plugin_api *api = c->api;
    if (!CHECK(api->size >= GH_PLUGIN_API_MINOR1_SIZE,
               "table.minor1_size: a table answering minor 1 covers minor 1 (%zu >= %zu bytes)", api->size,
               (size_t)GH_PLUGIN_API_MINOR1_SIZE))
        return;
    int n = !!api->stream_create + !!api->stream_destroy + !!api->upload_2d_async + !!api->download_2d_async +
            !!api->gemm_async + !!api->stream_synchronize;
    CHECK(n == 0 || n == 6, "table.streams_all_or_none: the six stream members are all set or all NULL (%d set)", n);
    CHECK(!api->host_alloc == !api->host_free, "table.host_alloc_pair: host_alloc and host_free both set or both NULL");
    c->has_streams = n == 6;
    c->has_host_alloc = api->host_alloc && api->host_free;
}

void conf_check_entry(conformance *c)
{
    /* First the host's own call, as gemmhost makes it. */
    gh_entry_request r = request(GEMMHOST_ABI_MAJOR, GEMMHOST_ABI_MINOR);
    gh_status s = c->entry(&r);
    if (!CHECK(s == GH_OK && r.api && r.plugin_abi_major == GEMMHOST_ABI_MAJOR,
               "entry.negotiate: host %d.%d -> GH_OK, a table and plugin major %d (got %s, major %u)",
               GEMMHOST_ABI_MAJOR, GEMMHOST_ABI_MINOR, GEMMHOST_ABI_MAJOR, conf_status_name(s), r.plugin_abi_major))
        return;
    const gh_plugin_api *api = r.api;
    if (!CHECK(api->size >= GH_PLUGIN_API_MINOR0_SIZE && api->abi_major == GEMMHOST_ABI_MAJOR,
               "table.size: at least minor 0's %zu bytes, major %d (got %zu bytes, major %u)",
               (size_t)GH_PLUGIN_API_MINOR0_SIZE, GEMMHOST_ABI_MAJOR, api->size, api->abi_major))
        return;
    CHECK(r.abi_minor <= GEMMHOST_ABI_MINOR &&
              r.abi_minor == (api->abi_minor < GEMMHOST_ABI_MINOR ? api->abi_minor : GEMMHOST_ABI_MINOR),
          "entry.minor: answers min(host %d, table %u) (got %u)", GEMMHOST_ABI_MINOR, api->abi_minor, r.abi_minor);
    c->api = api;
    c->minor = r.abi_minor;
    check_note("plugin %s %s: %s (ABI %u.%u negotiated)", api->name ? api->name : "(no name)",
               api->version ? api->version : "", api->description ? api->description : "", GEMMHOST_ABI_MAJOR,
               c->minor);
    check_required(api);
    if (!api->open || !api->close || !api->last_error || !api->device_count || !api->device_info ||
        !api->kernel_count || !api->kernel_info || !api->buffer_alloc || !api->buffer_free || !api->upload ||
        !api->download || !api->gemm || !api->synchronize) {
        c->api = NULL; /* nothing more can be called */
        return;
    }
    if (c->minor >= 1) check_minor1(c);
    else check_skip("table.minor1: the plugin answers minor 0: no minor-1 members");
    check_minors(c, api->abi_minor);
    check_refusals(c);
}

int conf_negotiate(conformance *c)
{
    gh_entry_request r = request(GEMMHOST_ABI_MAJOR, GEMMHOST_ABI_MINOR);
    if (c->entry(&r) != GH_OK || !r.api || r.api->size < GH_PLUGIN_API_MINOR0_SIZE) return -1;
    const gh_plugin_api *api = r.api;
    if (!api->open || !api->close || !api->last_error || !api->device_count || !api->device_info ||
        !api->kernel_count || !api->kernel_info || !api->buffer_alloc || !api->buffer_free || !api->upload ||
        !api->download || !api->gemm || !api->synchronize)
        return -1;
    c->api = api;
    c->minor = r.abi_minor;
    if (c->minor >= 1 && api->size >= GH_PLUGIN_API_MINOR1_SIZE) {
        c->has_streams = api->stream_create && api->stream_destroy && api->upload_2d_async && api->download_2d_async &&
                         api->gemm_async && api->stream_synchronize;
        c->has_host_alloc = api->host_alloc && api->host_free;
    }
    c->has_batch =
        c->has_streams && c->minor >= 6 && GH_HAS_MEMBER(api, gh_plugin_api, gemm_batch_async) && api->gemm_batch_async;
    return 0;
}
