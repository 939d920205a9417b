/* See run_files.h. */
#include "run_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output_guard.h"
#include "util.h"

/* Every path the spec writes, owned here. */
typedef struct run_paths {
    char *csv, *json, *log, *lock, *tune_csv, *tune_json, *junit, *junit_lock;
} run_paths;

static void run_paths_free(run_paths *p)
{
    free(p->csv);
    free(p->json);
    free(p->log);
    free(p->lock);
    free(p->tune_csv);
    free(p->tune_json);
    free(p->junit);
    free(p->junit_lock);
    memset(p, 0, sizeof *p);
}

static int run_paths_of(const gh_run_files_spec *s, run_paths *p, char *err, size_t err_size)
{
    memset(p, 0, sizeof *p);
    gh_report_options ro = *s->report;
    ro.overwrite = 1; /* the paths only: whether an earlier run's files may go is gh_report_open's question */
    ro.resume = 0;
    gh_report_paths rp;
    if (gh_report_paths_resolve(&ro, &rp, err, err_size) != 0) return -1;
    if (rp.csv) {
        char *prefix = gh_strdupf("%.*s", (int)(strlen(rp.csv) - strlen(".csv")), rp.csv);
        p->lock = gh_strdupf("%s.lock", prefix);
        if (s->results) {
            p->csv = gh_strdup(rp.csv);
            p->json = gh_strdup(rp.json);
            p->log = gh_strdup(rp.log);
        }
        if (s->tuning) {
            p->tune_csv = gh_strdupf("%s-tune.csv", prefix);
            p->tune_json = gh_strdupf("%s-tune.json", prefix);
        }
        if (!s->results && !s->tuning) {
            free(p->lock);
            p->lock = NULL;
        }
        free(prefix);
    }
    if (rp.junit && s->results) {
        p->junit = gh_strdup(rp.junit);
        p->junit_lock = gh_strdupf("%s.lock", rp.junit);
    }
    gh_report_paths_free(&rp);
    return 0;
}

static int check(const gh_run_files_spec *s, const run_paths *p, char *err, size_t err_size)
{
    const gh_output outputs[] = {
        {p->csv, "the results file"},
        {p->json, "the results file"},
        {p->log, "the record log"},
        {p->lock, "the results' lock file"},
        {p->tune_csv, "the tuning report"},
        {p->tune_json, "the tuning report"},
        {p->junit, "--junit"},
        {p->junit_lock, "the lock file of --junit"},
        {s->tuning ? s->tune_cache : NULL, "the tune cache"},
    };
    return gh_outputs_check(outputs, sizeof outputs / sizeof outputs[0], err, err_size);
}

int gh_run_files_check(const gh_run_files_spec *s, char *err, size_t err_size)
{
    run_paths p;
    if (run_paths_of(s, &p, err, err_size) != 0) return -1;
    int rc = check(s, &p, err, err_size);
    run_paths_free(&p);
    return rc;
}

int gh_run_files_hold(const gh_run_files_spec *s, gh_run_files *held, char *err, size_t err_size)
{
    memset(held, 0, sizeof *held);
    run_paths p;
    if (run_paths_of(s, &p, err, err_size) != 0) return -1;
    int rc = check(s, &p, err, err_size);
    if (rc == 0 && p.lock) {
        char *what = p.csv ? gh_strdupf("the results files %s and %s", p.csv, p.json)
                           : gh_strdupf("the tuning report's files %s and %s", p.tune_csv, p.tune_json);
        held->locks[0] = gh_output_lock_take(p.lock, what, err, err_size);
        rc = held->locks[0] ? 0 : -1;
        free(what);
    }
    if (rc == 0 && p.junit_lock) {
        char *what = gh_strdupf("the JUnit file %s", p.junit);
        held->locks[1] = gh_output_lock_take(p.junit_lock, what, err, err_size);
        rc = held->locks[1] ? 0 : -1;
        free(what);
    }
    run_paths_free(&p);
    if (rc != 0) {
        char ignored[1024];
        gh_run_files_release(held, ignored, sizeof ignored); /* the first lock, when the second failed */
    }
    return rc;
}

int gh_run_files_release(gh_run_files *held, char *err, size_t err_size)
{
    int rc = 0;
    for (size_t i = 0; i < sizeof held->locks / sizeof held->locks[0]; i++) {
        char e[1024];
        if (gh_output_lock_release(held->locks[i], e, sizeof e) != 0 && rc == 0) {
            snprintf(err, err_size, "%s", e);
            rc = -1;
        }
        held->locks[i] = NULL;
    }
    return rc;
}
