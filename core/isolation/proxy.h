/* Isolation, host side: a plugin loaded in a worker process looks to the
 * rest of the host like any loaded plugin. gh_loaded_plugin.api is then a
 * proxy table: each call is a request to the context's worker, which makes
 * the real call and replies. Infos are deep copies held until close; host
 * memory travels through shared segments (core/shm). A call the worker
 * does not survive (crash, any exit, or past its time limit) returns
 * GH_ERROR and leaves a fate, which core/run turns into the result's status;
 * the next call starts a fresh worker, opened with the same options
 * (buffers and streams of the dead one are gone). docs/isolation.md has the
 * protocol. */
#ifndef GEMMHOST_PROXY_H
#define GEMMHOST_PROXY_H

#include "gemmhost/plugin.h"
#include "loader.h"
#include "proxy_proc.h"

/* Loads `path` in a worker, its calls limited by `timeout` (see
 * gh_worker_settings; loading has 300 s, none when it is 0): like gh_plugin_load (the same errors, word for
 * word), but p->api is the proxy table and p->handle stays NULL. A worker
 * that dies while loading leaves p->error "crashed during discovery: ...".
 * The worker stays, to serve the first open. Returns 0 when loaded. */
int gh_proxy_load(const char *path, double timeout, gh_loaded_plugin *p);
/* Frees what gh_proxy_load made (the table, an unused worker). */
void gh_proxy_unload(gh_loaded_plugin *p);

/* api->open for a proxied plugin (open has no context to find the plugin
 * by): a context in a worker of its own. */
gh_status gh_proxy_open(const gh_loaded_plugin *p, const gh_option_value *options, size_t n_options,
                        const gh_worker_settings *settings, gh_plugin **out);

/* Whether a table is a proxy's (a context of it is then a proxy context). */
int gh_proxy_is(const gh_plugin_api *api);

/* What happened to the context's worker since the last time asked: 1 and
 * *fate filled when a call killed or stopped it (or it could not be
 * restarted: kind GH_FATE_CRASHED with what saying so), else 0. Not a proxy:
 * 0. */
int gh_proxy_take_fate(const gh_plugin_api *api, gh_plugin *ctx, gh_fate *fate);

#endif
