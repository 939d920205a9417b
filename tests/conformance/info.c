/* Options (open), device and kernel info: the plugin's static data. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "conformance.h"

/* ---- options ---- */

static void check_option_infos(const conformance *c)
{
    const gh_plugin_api *api = c->api;
    int sane = 1;
    for (size_t i = 0; i < api->n_options && sane; i++) {
        const gh_option_info *o = &api->options[i];
        sane = GH_HAS_MEMBER(o, gh_option_info, default_value) && o->name && o->name[0] && o->description &&
               o->default_value;
        for (size_t j = 0; j < i && sane; j++) sane = strcmp(api->options[j].name, o->name) != 0;
        if (!sane)
            check_verdict(0,
                          "options.info: option %zu: size covers default_value, name non-empty and unique, "
                          "description and default non-NULL",
                          i);
    }
    if (sane)
        check_verdict(1, "options.info: %zu option%s, each with a size, a unique name, a description and a default",
                      api->n_options, api->n_options == 1 ? "" : "s");
}

/* Opens with the given options; a context it gets is closed at once. */
static gh_status try_open(const conformance *c, const gh_option_value *values, size_t n)
{
    gh_plugin *ctx = NULL;
    gh_status s = c->api->open(values, n, &ctx);
    if (s == GH_OK) c->api->close(ctx);
    return s;
}

static void check_open_refusals(const conformance *c)
{
    const gh_plugin_api *api = c->api;
    const gh_option_value unknown = {"conformance-no-such-option", "1"};
    gh_plugin *const canary = (gh_plugin *)&unknown;
    gh_plugin *ctx = canary; /* a refusal returns no context */
    gh_status s = api->open(&unknown, 1, &ctx);
    if (s == GH_OK) api->close(ctx);
    const char *e = api->last_error(NULL);
    conf_expect(c, "options.unknown", s, GH_INVALID_ARGUMENT, "open with an unknown option");
    CHECK(e && strstr(e, unknown.name), "options.unknown_named: the refusal names the option (\"%s\")", e ? e : "NULL");
    CHECK(s == GH_OK || ctx == canary || ctx == NULL,
          "options.out_on_refusal: a refused open leaves *out alone or sets it to NULL");

    if (api->n_options > 0) {
        const gh_option_value no_value = {api->options[0].name, NULL};
        conf_expect(c, "options.null_value", try_open(c, &no_value, 1), GH_INVALID_ARGUMENT,
                    "open with a NULL option value");
    }
    const gh_option_value no_name = {NULL, "1"};
    conf_expect(c, "options.null_name", try_open(c, &no_name, 1), GH_INVALID_ARGUMENT, "open with a NULL option name");
    conf_expect(c, "options.null_array", try_open(c, NULL, 1), GH_INVALID_ARGUMENT,
                "open with n_options 1 and no array");
    conf_expect(c, "open.null_out", api->open(NULL, 0, NULL), GH_INVALID_ARGUMENT, "open with out NULL");
}

/* Every option at its default must mean the same as none given. */
static void check_defaults(const conformance *c)
{
    const gh_plugin_api *api = c->api;
    gh_option_value *values = calloc(api->n_options + 1, sizeof *values);
    for (size_t i = 0; i < api->n_options; i++)
        values[i] = (gh_option_value){api->options[i].name, api->options[i].default_value};
    gh_plugin *plain = NULL, *defaults = NULL;
    gh_status s1 = api->open(NULL, 0, &plain);
    gh_status s2 = api->open(values, api->n_options, &defaults); /* two contexts open at once */
    if (CHECK(s1 == GH_OK && s2 == GH_OK,
              "options.defaults: open with every option at its default succeeds, beside another context (%s; %s)",
              conf_status_name(s1), conf_outcome(c, s2))) {
        int n1 = api->device_count(plain), n2 = api->device_count(defaults);
        CHECK(n1 == n2, "options.defaults: the same devices as with no options (%d vs %d)", n1, n2);
    }
    if (s1 == GH_OK) api->close(plain);
    if (s2 == GH_OK) api->close(defaults);
    free(values);
}

void conf_check_options(const conformance *c)
{
    check_option_infos(c);
    if (c->api->n_options > 0 && !c->api->options) return;
    check_open_refusals(c);
    check_defaults(c);
}

/* ---- devices ---- */

static void check_device_info(const conformance *c, int d)
{
    const gh_device_info *i = c->api->device_info(c->ctx, d);
    if (!CHECK(i != NULL, "devices.info: device %d has info", d)) return;
    if (!CHECK(GH_HAS_MEMBER(i, gh_device_info, has_fp64), "devices.info: device %d: size %zu covers ABI 1.0's %zu", d,
               i->size, sizeof(gh_device_info)))
        return;
    CHECK(i->name && i->name[0] && i->vendor && i->driver_version && i->api && i->platform,
          "devices.info: device %d: name non-empty, vendor, driver_version, api, platform non-NULL", d);
    CHECK(i->compute_units >= 1 && i->global_mem_bytes > 0,
          "devices.info: device %d: compute_units >= 1 (%u), global_mem_bytes > 0 (%llu)", d, i->compute_units,
          (unsigned long long)i->global_mem_bytes);
    CHECK((i->is_software == 0 || i->is_software == 1) && (i->has_fp64 == 0 || i->has_fp64 == 1),
          "devices.info: device %d: is_software (%d) and has_fp64 (%d) are 0 or 1", d, i->is_software, i->has_fp64);
}

static void check_devices(const conformance *c)
{
    CHECK(c->n_devices >= 0, "devices.count: device_count >= 0 (%d)", c->n_devices);
    if (c->n_devices == 0) {
        const char *e = conf_error(c);
        CHECK(e[0], "devices.no_device_reason: with 0 devices, last_error on the same thread says why (\"%s\")", e);
    }
    for (int d = 0; d < c->n_devices; d++) check_device_info(c, d);
    CHECK(c->api->device_info(c->ctx, -1) == NULL && c->api->device_info(c->ctx, c->n_devices) == NULL,
          "devices.out_of_range: device_info(-1) and device_info(%d) are NULL", c->n_devices);
}

/* ---- kernels ---- */

static int param_value_allowed(const gh_param_info *p, int64_t v)
{
    if (p->n_allowed == 0) return v >= p->min_value && v <= p->max_value;
    for (size_t i = 0; i < p->n_allowed; i++)
        if (p->allowed[i] == v) return 1;
    return 0;
}

/* A reason the kernel's info breaks plugin.h, or NULL. */
static const char *kernel_problem(const conformance *c, int k, char *why, size_t size)
{
    const gh_kernel_info *ki = c->api->kernel_info(c->ctx, k);
    if (!ki) return "kernel_info returns NULL";
    if (!GH_HAS_MEMBER(ki, gh_kernel_info, n_params)) return "its size does not cover n_params";
    if (!ki->name || !ki->name[0] || !ki->description) return "no name or no description";
    if (ki->dtypes == 0 || ki->dtypes >> GH_DTYPE_COUNT) return "its dtype mask is empty or has unknown bits";
    if (ki->n_params && !ki->params) return "n_params > 0 but params is NULL";
    const char *precisions = conf_precisions_problem(c, ki, why, size);
    if (precisions) return precisions;
    for (int j = 0; j < k; j++) {
        const gh_kernel_info *other = c->api->kernel_info(c->ctx, j);
        if (other && other->name && strcmp(other->name, ki->name) == 0) return "its name is not unique";
    }
    for (size_t i = 0; i < ki->n_params; i++) {
        const gh_param_info *p = &ki->params[i];
        const char *bad = NULL;
        if (!GH_HAS_MEMBER(p, gh_param_info, max_value)) bad = "size does not cover max_value";
        else if (!p->name || !p->name[0] || !p->description) bad = "no name or no description";
        else if (p->n_allowed && !p->allowed) bad = "n_allowed > 0 but allowed is NULL";
        else if (!p->n_allowed && p->min_value > p->max_value) bad = "min_value > max_value";
        else if (!param_value_allowed(p, p->default_value)) bad = "its default is not an allowed value";
        for (size_t j = 0; j < i && !bad; j++)
            if (ki->params[j].name && p->name && strcmp(ki->params[j].name, p->name) == 0)
                bad = "its name is not unique in the kernel";
        if (bad) {
            snprintf(why, size, "parameter %zu (%s): %s", i, p->name ? p->name : "?", bad);
            return why;
        }
    }
    return NULL;
}

static void check_kernels(const conformance *c)
{
    if (!CHECK(c->n_kernels >= 1, "kernels.count: at least one kernel (%d)", c->n_kernels)) return;
    for (int k = 0; k < c->n_kernels; k++) {
        char why[256];
        const char *problem = kernel_problem(c, k, why, sizeof why);
        const gh_kernel_info *ki = c->api->kernel_info(c->ctx, k);
        CHECK(!problem,
              "kernels.info: kernel %d (%s): size, unique name, description, dtype mask, precisions, params with "
              "allowed defaults%s%s",
              k, ki && ki->name ? ki->name : "?", problem ? ": " : "", problem ? problem : "");
    }
    CHECK(c->api->kernel_info(c->ctx, -1) == NULL && c->api->kernel_info(c->ctx, c->n_kernels) == NULL,
          "kernels.out_of_range: kernel_info(-1) and kernel_info(%d) are NULL", c->n_kernels);
}

void conf_check_static_info(const conformance *c)
{
    check_devices(c);
    check_kernels(c);
}
