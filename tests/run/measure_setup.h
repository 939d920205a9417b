/* What the measuring-path tests share: the C plugin (or any plugin) loaded
 * in process with some of its calls wrapped, its naive kernel, a run config
 * and one measurement of a 33 x 17 x 29 f32 case. Each test wraps the calls
 * it scripts; the rest is here once. */
#ifndef GEMMHOST_TESTS_MEASURE_SETUP_H
#define GEMMHOST_TESTS_MEASURE_SETUP_H

#include "plugin_handle.h"
#include "progress.h"
#include "run.h"

typedef struct measure_setup {
    gh_test_plugin plugin;
    gh_loaded_plugin loaded;
    gh_instance inst;
    gh_kernel_variant variant;
    gh_run_config run;
    gh_progress *progress;
} measure_setup;

/* Loads and opens the plugin at `path`; -1 (with a failed check) when it
 * does not. */
int measure_setup_load(measure_setup *s, const char *path);

/* Runs the setup through `api` (the plugin's table with some calls wrapped),
 * on its "naive" kernel, with measure_setup_run_config() and no progress
 * output; 0 when the kernel is there. */
int measure_setup_use(measure_setup *s, const char *path, const gh_plugin_api *api);

/* One device, warm-up 1, repeat 5, full verification, no isolation. */
gh_run_config measure_setup_run_config(void);

/* One measurement of a 33 x 17 x 29 f32 case with the run as set. */
gh_result measure_setup_once(measure_setup *s);

/* Stops the progress output and unloads the plugin. */
void measure_setup_close(measure_setup *s);

#endif
