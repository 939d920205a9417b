/* libFuzzer target: a results JSON file as gemmhost compare reads it (the
 * file against itself: load, comparable check, match, analysis with the
 * fingerprints, text report and JUnit) and as --resume reads it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "compare_junit.h"
#include "compare_render.h"
#include "env_diff.h"
#include "fleet_layout.h"
#include "fuzz_input_file.h"
#include "resume.h"
#include "results_file.h"
#include "runs_analysis.h"
#include "runs_match.h"

static FILE *sink;

static void compare_with_itself(const char *path)
{
    gh_results_file files[2];
    char err[4096];
    if (gh_results_file_load(path, &files[0], err, sizeof err) != 0) return;
    if (gh_results_file_load(path, &files[1], err, sizeof err) != 0) {
        gh_results_file_free(&files[0]);
        return;
    }
    snprintf(files[0].label, sizeof files[0].label, "A");
    snprintf(files[1].label, sizeof files[1].label, "B");
    gh_matches m;
    gh_match_options o = {0};
    if (gh_env_check_comparable(files, 2, err, sizeof err) == 0 &&
        gh_fleet_layout_check(files, 2, &o, err, sizeof err) == 0 &&
        gh_match_results(files, 2, &o, &m, err, sizeof err) == 0) {
        size_t regressions;
        json_t *doc = gh_compare_analyse(files, 2, &m, 0.05, &regressions);
        json_object_set_new(doc, "environment", gh_env_diff(files, 2));
        gh_compare_render(sink, doc, GH_COMPARE_TEXT);
        gh_compare_render(sink, doc, GH_COMPARE_MARKDOWN);
        char junit[300];
        snprintf(junit, sizeof junit, "%s.xml", path);
        if (gh_compare_junit_write(doc, junit, err, sizeof err) == 0) remove(junit);
        json_decref(doc);
        gh_matches_free(&m);
    }
    gh_results_file_free(&files[0]);
    gh_results_file_free(&files[1]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!sink) sink = fopen("/dev/null", "w");
    if (!sink) abort();
    const char *path = fuzz_input_file(data, size, ".json");
    compare_with_itself(path);
    gh_resume *resume = NULL;
    char err[4096];
    if (gh_resume_load(path, NULL, "{}", &resume, err, sizeof err) == 0) gh_resume_free(resume);
    return 0;
}
