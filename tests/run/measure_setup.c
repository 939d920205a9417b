/* See measure_setup.h. */
#define _POSIX_C_SOURCE 200809L
#include "measure_setup.h"

#include <string.h>

#include "../check.h"

int measure_setup_load(measure_setup *s, const char *path)
{
    memset(s, 0, sizeof *s);
    if (gh_test_plugin_load(&s->plugin, path) != 0 || gh_test_plugin_open(&s->plugin, NULL, 0) != GH_OK) {
        check_verdict(0, "the plugin loads and opens: %s", s->plugin.error);
        return -1;
    }
    return 0;
}

gh_run_config measure_setup_run_config(void)
{
    return (gh_run_config){.alpha = 1.0,
                           .beta = 0.0,
                           .warmup = 1,
                           .repeat = 5,
                           .seed = 7,
                           .verify = GH_VERIFY_FULL,
                           .freivalds_trials = 3,
                           .samples = 64,
                           .ld_pad = 3,
                           .guard = 8,
                           .isolation = GH_ISOLATION_NONE};
}

int measure_setup_use(measure_setup *s, const char *path, const gh_plugin_api *api)
{
    const gh_plugin_api *own = s->plugin.api;
    s->loaded = (gh_loaded_plugin){.path = (char *)path,
                                   .name = "cpu",
                                   .api = api,
                                   .abi_major = GEMMHOST_ABI_MAJOR,
                                   .abi_minor = s->plugin.abi_minor};
    s->inst = (gh_instance){.name = "cpu", .plugin = &s->loaded, .ctx = s->plugin.ctx};
    int naive = gh_test_find_kernel(own, s->plugin.ctx, "naive");
    s->variant = (gh_kernel_variant){.kernel = naive, .info = own->kernel_info(s->plugin.ctx, naive)};
    s->run = measure_setup_run_config();
    s->progress = gh_progress_start(GH_PROGRESS_OFF, 1, 1.0);
    return s->variant.info ? 0 : -1;
}

gh_result measure_setup_once(measure_setup *s)
{
    gh_result r;
    memset(&r, 0, sizeof r);
    gh_case_data *cd = gh_case_data_new(&s->run, 0, (gh_shape){33, 17, 29}, GH_F32, (gh_trans){0, 0});
    if (!cd) {
        check_verdict(0, "case data: out of memory");
        return r;
    }
    gh_streak streak = {0};
    gh_run_measure(&s->run, &s->inst, 0, &s->variant, cd, &streak, s->progress, &r);
    gh_case_data_free(cd);
    return r;
}

void measure_setup_close(measure_setup *s)
{
    gh_progress_finish(s->progress);
    gh_test_plugin_unload(&s->plugin);
}
