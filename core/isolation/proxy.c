/* Proxied plugins and their contexts: loading in a worker, opening,
 * restarting after a death, infos; the table. The data calls are in
 * proxy_calls.c. See proxy.h. */
#define _GNU_SOURCE
#include "proxy.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proxy_internal.h"
#include "util.h"
#include "msg_plugin.h"

#define OPEN_LIMIT_S 300.0 /* loading and opening: drivers that compile at open take a while */
#define FLOOR_S      60.0  /* every other call: at least this */

/* ---- the calling thread's last error ---- */

static _Thread_local char last_error_text[2048];

void proxy_set_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error_text, sizeof last_error_text, fmt, ap);
    va_end(ap);
}

static const char *proxy_last_error(gh_plugin *ctx)
{
    (void)ctx;
    return last_error_text;
}

/* ---- limits ---- */

double proxy_limit(const proxy_ctx *c, double estimate_s)
{
    if (c->timeout == 0) return 0;
    if (c->timeout > 0) return c->timeout;
    return FLOOR_S + estimate_s;
}

/* Loading and opening, under a call limit of `timeout`. */
static double open_limit(double timeout)
{
    return timeout == 0 ? 0 : OPEN_LIMIT_S;
}

/* ---- loading ---- */

/* Sends GH_OP_LOAD to a fresh worker; the reply stays in *r. Returns 0 when
 * the worker answered (loaded or not), -1 with the fate when it died. */
static int load_in(gh_worker *w, const char *path, gh_wire *q, gh_wire *r, double limit, gh_fate *fate)
{
    gh_wire_start(q, GH_OP_LOAD);
    gh_msg_load_put(q, &(gh_msg_load){(char *)path});
    return gh_worker_call(w, q, r, limit, "loading the plugin", fate);
}

static gh_status stub_open(const gh_option_value *o, size_t n, gh_plugin **out)
{
    (void)o;
    (void)n;
    (void)out;
    proxy_set_error("internal: a proxied plugin is opened through gh_plugin_open");
    return GH_ERROR;
}

static void proxy_close(gh_plugin *ctx);
static int proxy_device_count(gh_plugin *ctx);
static const gh_device_info *proxy_device_info(gh_plugin *ctx, int device);
static int proxy_kernel_count(gh_plugin *ctx);
static const gh_kernel_info *proxy_kernel_info(gh_plugin *ctx, int kernel);

/* The table: every call a request; the minor-1 members only where the
 * plugin has them (host memory whenever it answers minor 1: see
 * proxy_host_alloc; gemm_batch_async whenever it has streams); get_proc is not forwarded (what it returns has no
 * signature the proxy could carry). */
static void fill_table(proxy_plugin *pp)
{
    gh_plugin_api *a = &pp->api;
    memset(a, 0, sizeof *a);
    a->size = sizeof *a;
    a->abi_major = GEMMHOST_ABI_MAJOR;
    a->abi_minor = pp->abi_minor;
    a->name = pp->name;
    a->description = pp->description;
    a->version = pp->version;
    a->options = pp->options;
    a->n_options = pp->n_options;
    a->open = stub_open;
    a->close = proxy_close;
    a->last_error = proxy_last_error;
    a->device_count = proxy_device_count;
    a->device_info = proxy_device_info;
    a->kernel_count = proxy_kernel_count;
    a->kernel_info = proxy_kernel_info;
    a->buffer_alloc = proxy_buffer_alloc;
    a->buffer_free = proxy_buffer_free;
    a->upload = proxy_upload;
    a->download = proxy_download;
    a->gemm = proxy_gemm;
    a->synchronize = proxy_synchronize;
    if (pp->flags & GH_LOADED_HAS_STREAMS) {
        a->stream_create = proxy_stream_create;
        a->stream_destroy = proxy_stream_destroy;
        a->upload_2d_async = proxy_upload_2d_async;
        a->download_2d_async = proxy_download_2d_async;
        a->gemm_async = proxy_gemm_async;
        a->stream_synchronize = proxy_stream_synchronize;
        /* Whatever the plugin's minor: one request for n launches (the
         * worker emulates it for a plugin without it), not n round trips;
         * gh_plugin_has_batch lets the host use it. */
        a->gemm_batch_async = proxy_gemm_batch_async;
    }
    if (pp->abi_minor >= 1) {
        a->host_alloc = proxy_host_alloc;
        a->host_free = proxy_host_free;
    }
    if (pp->abi_minor >= 4 && (pp->flags & GH_LOADED_HAS_HOST_REGISTER)) {
        a->host_register = proxy_host_register;
        a->host_unregister = proxy_host_unregister;
    }
}

static char *with_tail(const gh_fate *f)
{
    return f->tail[0] ? gh_strdupf("%s; its stderr ended with:\n%s", f->what, f->tail) : gh_strdup(f->what);
}

/* A loaded plugin's proxy, owning what the worker's answer holds. */
static proxy_plugin *proxy_from(const gh_msg_loaded *m, const char *path, double timeout)
{
    proxy_plugin *pp = gh_xcalloc(1, sizeof *pp);
    pp->abi_minor = m->abi_minor;
    pp->name = m->name;
    pp->description = m->description;
    pp->version = m->version;
    pp->options = m->options;
    pp->n_options = m->n_options;
    pp->flags = m->flags;
    pp->path = gh_strdup(path);
    pp->timeout = timeout;
    fill_table(pp);
    return pp;
}

int gh_proxy_load(const char *path, double timeout, gh_loaded_plugin *p)
{
    memset(p, 0, sizeof *p);
    p->path = gh_strdup(path);
    const char *base = strrchr(path, '/');
    p->name = gh_strdup(base ? base + 1 : path); /* the API's name once loaded; the loader names a failure */
    char err[512], label[160];
    snprintf(label, sizeof label, "worker %s", p->name);
    gh_worker *w = gh_worker_start(label, err, sizeof err);
    if (!w) {
        p->error = gh_strdupf("%s: %s", path, err);
        return -1;
    }
    gh_wire *q = gh_xmalloc(sizeof *q), *r = gh_xmalloc(sizeof *r);
    gh_fate fate;
    int rc = -1;
    gh_msg_load_refused no;
    gh_msg_loaded yes;
    if (load_in(w, path, q, r, open_limit(timeout), &fate) != 0) {
        char *why = with_tail(&fate);
        p->error = gh_strdupf("%s: crashed during discovery: %s", path, why);
        free(why);
    } else if (gh_wire_get_u32(r) != 0) {
        gh_msg_load_refused_get(r, &no);
        p->error = no.error ? no.error : gh_strdupf("%s: the worker could not load it", path);
        p->abi_major = no.abi_major;
    } else if (gh_msg_loaded_get(r, &yes) != 0 || !yes.name) {
        p->error = gh_strdupf("%s: the worker's answer to loading it is malformed", path);
        gh_msg_loaded_clear(&yes);
    } else {
        proxy_plugin *pp = proxy_from(&yes, path, timeout);
        p->abi_major = yes.abi_major;
        p->abi_minor = yes.abi_minor;
        snprintf(label, sizeof label, "worker %s", pp->name);
        gh_worker_set_label(w, label);
        pp->spare = w;
        w = NULL;
        p->api = &pp->api;
        free(p->name);
        p->name = gh_strdup(pp->name);
        rc = 0;
    }
    gh_worker_stop(w, 5.0);
    free(q);
    free(r);
    return rc;
}

void gh_proxy_unload(gh_loaded_plugin *p)
{
    if (!p->api || !gh_proxy_is(p->api)) return;
    proxy_plugin *pp = (proxy_plugin *)p->api;
    gh_worker_stop(pp->spare, 5.0);
    gh_msg_loaded_clear(&(gh_msg_loaded){.name = pp->name,
                                         .description = pp->description,
                                         .version = pp->version,
                                         .options = pp->options,
                                         .n_options = pp->n_options});
    free(pp->path);
    free(pp);
    p->api = NULL;
}

int gh_proxy_is(const gh_plugin_api *api)
{
    return api && api->close == proxy_close;
}

/* ---- contexts ---- */

static proxy_ctx *ctx_of(gh_plugin *ctx)
{
    return (proxy_ctx *)ctx;
}

/* The status of the reply in c->r; last_error set to its words (or
 * `no_words`) when it is not GH_OK. */
static gh_status reply_status(proxy_ctx *c, const char *no_words)
{
    gh_status s = (gh_status)gh_wire_get_u32(&c->r);
    if (s != GH_OK) {
        gh_msg_error e;
        gh_msg_error_get(&c->r, &e);
        proxy_set_error("%s", e.why ? e.why : no_words);
        gh_msg_error_clear(&e);
    }
    return s;
}

/* Opens the context's plugin in worker w (loaded already when `loaded`).
 * Returns GH_OK, the plugin's refusal (last_error set), or GH_ERROR with the
 * fate kept when the worker died. w is the context's afterwards, or stopped. */
static gh_status open_in(proxy_ctx *c, gh_worker *w, int loaded)
{
    gh_fate fate;
    int died = !loaded && load_in(w, c->pp->path, &c->q, &c->r, open_limit(c->timeout), &fate) != 0;
    if (!died && !loaded && gh_wire_get_u32(&c->r) != 0) {
        gh_msg_load_refused no;
        gh_msg_load_refused_get(&c->r, &no);
        proxy_set_error("%s", no.error ? no.error : "the worker could not load the plugin");
        gh_msg_load_refused_clear(&no);
        gh_worker_stop(w, 5.0);
        return GH_ERROR;
    }
    if (!died) {
        gh_wire_start(&c->q, GH_OP_OPEN);
        gh_msg_open_put(&c->q, &(gh_msg_open){c->opts, c->n_opts});
        died = gh_worker_call(w, &c->q, &c->r, open_limit(c->timeout), "open", &fate) != 0;
    }
    if (died) {
        c->fate = fate;
        c->fate_pending = 1;
        char *why = with_tail(&fate);
        proxy_set_error("%s", why);
        free(why);
        gh_worker_stop(w, 5.0);
        return GH_ERROR;
    }
    gh_status s = reply_status(c, "open failed");
    if (s != GH_OK) {
        gh_worker_stop(w, 5.0);
        return s;
    }
    c->w = w;
    c->generation++;
    return GH_OK;
}

gh_status gh_proxy_open(const gh_loaded_plugin *p, const gh_option_value *options, size_t n_options,
                        const gh_worker_settings *settings, gh_plugin **out)
{
    if (!out || (n_options > 0 && !options)) {
        proxy_set_error("open: out is NULL, or options is NULL with n_options > 0");
        return GH_INVALID_ARGUMENT;
    }
    proxy_plugin *pp = (proxy_plugin *)p->api;
    proxy_ctx *c = gh_xcalloc(1, sizeof *c);
    c->pp = pp;
    pthread_mutex_init(&c->lock, NULL);
    c->timeout = pp->timeout; /* the first open is limited as loading was; the backend's own from then on */
    if (settings && settings->label) snprintf(c->label, sizeof c->label, "%s", settings->label);
    else snprintf(c->label, sizeof c->label, "worker %s", pp->name);
    c->n_opts = n_options;
    c->opts = gh_xcalloc(n_options ? n_options : 1, sizeof *c->opts);
    for (size_t i = 0; i < n_options; i++) {
        c->opts[i].name = options[i].name ? gh_strdup(options[i].name) : NULL;
        c->opts[i].value = options[i].value ? gh_strdup(options[i].value) : NULL;
    }
    gh_worker *w = pp->spare;
    int loaded = w != NULL;
    pp->spare = NULL;
    if (w) gh_worker_set_label(w, c->label);
    char err[512];
    if (!w && !(w = gh_worker_start(c->label, err, sizeof err))) {
        proxy_set_error("%s", err);
        proxy_close((gh_plugin *)c);
        return GH_ERROR;
    }
    gh_status s = open_in(c, w, loaded);
    if (s != GH_OK) {
        proxy_close((gh_plugin *)c);
        return s;
    }
    if (settings && !isnan(settings->timeout)) c->timeout = settings->timeout;
    *out = (gh_plugin *)c;
    return GH_OK;
}

/* A context's worker, started again after a death: same plugin, same
 * options. Its buffers and streams died with the old one. */
static gh_status restart(proxy_ctx *c)
{
    char err[512];
    gh_worker *w = gh_worker_start(c->label, err, sizeof err);
    if (!w) {
        proxy_set_error("could not restart the worker: %s", err);
        return GH_ERROR;
    }
    gh_fate keep = c->fate;
    int kept = c->fate_pending;
    gh_status s = open_in(c, w, 0);
    if (s != GH_OK && !c->fate_pending) {
        proxy_set_error("could not restart the worker: %s", last_error_text);
    }
    if (kept && !c->fate_pending) { /* the earlier fate is still to be told */
        c->fate = keep;
        c->fate_pending = 1;
    }
    return s;
}

gh_status proxy_begin(proxy_ctx *c, uint32_t op)
{
    if (!c->w && restart(c) != GH_OK) return GH_ERROR;
    gh_wire_start(&c->q, op);
    return GH_OK;
}

gh_status proxy_roundtrip(proxy_ctx *c, double limit_s, const char *call)
{
    gh_fate fate;
    if (gh_worker_call(c->w, &c->q, &c->r, limit_s, call, &fate) != 0) {
        gh_worker_stop(c->w, 5.0);
        c->w = NULL;
        c->fate = fate;
        c->fate_pending = 1;
        char *why = with_tail(&fate);
        proxy_set_error("%s", why);
        free(why);
        return GH_ERROR;
    }
    return reply_status(c, "(no reason given)");
}

static void proxy_close(gh_plugin *ctx)
{
    proxy_ctx *c = ctx_of(ctx);
    if (!c) return;
    pthread_mutex_lock(&c->lock);
    if (c->w) {
        gh_wire_start(&c->q, GH_OP_CLOSE);
        proxy_roundtrip(c, proxy_limit(c, 0), "close");
        gh_worker_stop(c->w, 5.0);
        c->w = NULL;
    }
    pthread_mutex_unlock(&c->lock);
    for (size_t i = 0; i < c->n_device_slots; i++) gh_device_info_free(c->devices[i]);
    free(c->devices);
    for (int i = 0; c->kernels && i < c->kernel_count; i++) gh_kernel_info_free(c->kernels[i]);
    free(c->kernels);
    free(c->count_error);
    for (size_t i = 0; i < c->n_opts; i++) {
        free((char *)c->opts[i].name);
        free((char *)c->opts[i].value);
    }
    free(c->opts);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

int gh_proxy_take_fate(const gh_plugin_api *api, gh_plugin *ctx, gh_fate *fate)
{
    if (!gh_proxy_is(api) || !ctx) return 0;
    proxy_ctx *c = ctx_of(ctx);
    pthread_mutex_lock(&c->lock);
    int had = c->fate_pending;
    if (had) *fate = c->fate;
    c->fate_pending = 0;
    pthread_mutex_unlock(&c->lock);
    return had;
}

/* ---- infos: asked once each, kept until close ---- */

static int proxy_device_count(gh_plugin *ctx)
{
    proxy_ctx *c = ctx_of(ctx);
    pthread_mutex_lock(&c->lock);
    if (!c->count_known && proxy_begin(c, GH_OP_DEVICE_COUNT) == GH_OK &&
        proxy_roundtrip(c, proxy_limit(c, 0), "device_count") == GH_OK) {
        gh_msg_device_count m;
        c->count_known = gh_msg_device_count_get(&c->r, &m) == 0;
        c->device_count = m.count < 0 ? 0 : m.count > INT32_MAX ? INT32_MAX : (int)m.count;
        c->count_error = m.why;
    }
    int n = c->count_known ? c->device_count : 0;
    if (c->count_known && n <= 0) proxy_set_error("%s", c->count_error ? c->count_error : "");
    pthread_mutex_unlock(&c->lock);
    return n;
}

/* Slots are kept for indices below this; above, each call asks again. */
#define MAX_INFO_SLOTS (1u << 20)

static const gh_device_info *proxy_device_info(gh_plugin *ctx, int device)
{
    proxy_ctx *c = ctx_of(ctx);
    if (device < 0) return NULL;
    pthread_mutex_lock(&c->lock);
    const gh_device_info *info = (size_t)device < c->n_device_slots ? c->devices[device] : NULL;
    if (!info && proxy_begin(c, GH_OP_DEVICE_INFO) == GH_OK) {
        gh_msg_index_put(&c->q, &(gh_msg_index){device});
        gh_msg_device_info m = {0};
        if (proxy_roundtrip(c, proxy_limit(c, 0), "device_info") == GH_OK) {
            gh_msg_device_info_get(&c->r, &m);
            gh_device_info *got = m.info;
            if (got && (size_t)device >= c->n_device_slots && (size_t)device < MAX_INFO_SLOTS) {
                size_t n = (size_t)device + 1 > 2 * c->n_device_slots ? (size_t)device + 1 : 2 * c->n_device_slots;
                c->devices = gh_xrealloc(c->devices, n * sizeof *c->devices);
                memset(c->devices + c->n_device_slots, 0, (n - c->n_device_slots) * sizeof *c->devices);
                c->n_device_slots = n;
            }
            if (got && (size_t)device < c->n_device_slots) c->devices[device] = got;
            else gh_device_info_free(got); /* beyond the slots: not kept, so not returned */
            info = got && (size_t)device < c->n_device_slots ? got : NULL;
        }
    }
    pthread_mutex_unlock(&c->lock);
    return info;
}

static void fetch_kernels(proxy_ctx *c)
{
    if (c->kernels_known || proxy_begin(c, GH_OP_KERNEL_COUNT) != GH_OK ||
        proxy_roundtrip(c, proxy_limit(c, 0), "kernel_count") != GH_OK)
        return;
    gh_msg_index m;
    gh_msg_index_get(&c->r, &m);
    int64_t n = m.index;
    c->kernel_count = n < 0 ? 0 : n > 4096 ? 4096 : (int)n; /* the planner refuses more than 256 */
    c->kernels = gh_xcalloc((size_t)c->kernel_count + 1, sizeof *c->kernels);
    c->kernels_known = 1;
}

static int proxy_kernel_count(gh_plugin *ctx)
{
    proxy_ctx *c = ctx_of(ctx);
    pthread_mutex_lock(&c->lock);
    fetch_kernels(c);
    int n = c->kernels_known ? c->kernel_count : 0;
    pthread_mutex_unlock(&c->lock);
    return n;
}

static const gh_kernel_info *proxy_kernel_info(gh_plugin *ctx, int kernel)
{
    proxy_ctx *c = ctx_of(ctx);
    pthread_mutex_lock(&c->lock);
    fetch_kernels(c);
    gh_kernel_info *info = NULL;
    if (c->kernels_known && kernel >= 0 && kernel < c->kernel_count) {
        info = c->kernels[kernel];
        if (!info && proxy_begin(c, GH_OP_KERNEL_INFO) == GH_OK) {
            gh_msg_index_put(&c->q, &(gh_msg_index){kernel});
            gh_msg_kernel_info m = {0};
            if (proxy_roundtrip(c, proxy_limit(c, 0), "kernel_info") == GH_OK && gh_msg_kernel_info_get(&c->r, &m) == 0)
                info = c->kernels[kernel] = m.info;
        }
    }
    pthread_mutex_unlock(&c->lock);
    return info;
}
