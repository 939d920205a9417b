/* The tuner's parts in process: size class bounds, the order of a
 * parameter space (the default first, every candidate once, the same order
 * every time, a config's list narrowing it, huge spaces sampled), durations,
 * and the cache file with names that are not valid UTF-8. */
#define _POSIX_C_SOURCE 200809L
#define CHECK_MAIN
#include "../check.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "tune_cache.h"
#include "tune_class.h"
#include "tune_space.h"

static void size_classes(void)
{
    CHECK(gh_size_class_of(255, 256, 256) == GH_CLASS_SMALL, "255x256x256 is small");
    CHECK(gh_size_class_of(256, 256, 256) == GH_CLASS_MEDIUM, "256^3 is medium");
    CHECK(gh_size_class_of(1000, 1001, 999) == GH_CLASS_MEDIUM, "1000x1001x999 is medium");
    CHECK(gh_size_class_of(2047, 2048, 2048) == GH_CLASS_MEDIUM, "2047x2048x2048 is medium");
    CHECK(gh_size_class_of(2048, 2048, 2048) == GH_CLASS_LARGE, "2048^3 is large");
    CHECK(gh_size_class_of(2147483647, 2147483647, 2147483647) == GH_CLASS_LARGE, "int32 edges: large, no overflow");
    CHECK(!strcmp(gh_size_class_name(GH_CLASS_MEDIUM), "medium"), "the class names");
}

static const int64_t tiles[] = {4, 8, 16, 32, 64};
static const int64_t works[] = {1, 2, 4, 8};
static const gh_param_info two_params[] = {
    {sizeof(gh_param_info), "tile", "", 32, tiles, 5, 0, 0},
    {sizeof(gh_param_info), "work", "", 4, works, 4, 0, 0},
};
static const gh_kernel_info two = {sizeof(gh_kernel_info), "k", "", 1, two_params, 2, NULL, 0, NULL, 0};

static void space_order(void)
{
    gh_tune_space a, b;
    gh_tune_space_build(&a, &two, NULL);
    gh_tune_space_build(&b, &two, NULL);
    CHECK(a.n_candidates == 20 && a.total == 20, "5 x 4 values: 20 candidates (got %zu)", a.n_candidates);
    const int64_t *first = gh_tune_space_candidate(&a, 0);
    CHECK(first[0] == 32 && first[1] == 4, "the default first (got tile=%lld work=%lld)", (long long)first[0],
          (long long)first[1]);
    int seen[5][4] = {{0}}, in_order = 1;
    for (size_t i = 0; i < a.n_candidates; i++) {
        const int64_t *p = gh_tune_space_candidate(&a, i);
        for (int t = 0; t < 5; t++)
            for (int w = 0; w < 4; w++) seen[t][w] += p[0] == tiles[t] && p[1] == works[w];
        in_order &= memcmp(p, gh_tune_space_candidate(&b, i), 2 * sizeof *p) == 0;
    }
    int once = 1;
    for (int t = 0; t < 5; t++)
        for (int w = 0; w < 4; w++) once &= seen[t][w] == 1;
    CHECK(once, "every combination once");
    CHECK(in_order, "the same order on every build (a fixed seed)");
    int shuffled = 0; /* not the enumeration order past the default */
    for (size_t i = 1; i + 1 < a.n_candidates; i++) {
        const int64_t *p = gh_tune_space_candidate(&a, i), *q = gh_tune_space_candidate(&a, i + 1);
        shuffled |= !(q[0] > p[0] || (q[0] == tiles[0] && p[0] == tiles[4]));
    }
    CHECK(shuffled, "the rest in a random order");
    gh_tune_space_free(&a);
    gh_tune_space_free(&b);

    /* tile = 64, 8 in the config: those two, and work's four */
    char *values[] = {"64", "8"};
    gh_raw_key key = {"tile", values, 2, {"t.ini", 1}};
    gh_backend_config bc = {.keys = &key, .n_keys = 1};
    gh_tune_space_build(&a, &two, &bc);
    first = gh_tune_space_candidate(&a, 0);
    CHECK(a.n_candidates == 8, "tile = 64, 8 narrows to 8 candidates (got %zu)", a.n_candidates);
    CHECK(first[0] == 8 && first[1] == 4, "without the default tile, the list's smallest first (got %lld %lld)",
          (long long)first[0], (long long)first[1]);
    gh_tune_space_free(&a);
    char *autos[] = {"auto"};
    key.values = autos;
    key.n_values = 1;
    gh_tune_space_build(&a, &two, &bc);
    CHECK(a.n_candidates == 20, "tile = auto: every allowed value (got %zu)", a.n_candidates);
    gh_tune_space_free(&a);
}

static void huge_space(void)
{
    /* ranges of 0..2^40: the ends, the default and the 40 powers of two between (43 values), 5 of them */
    gh_param_info range[5];
    for (int i = 0; i < 5; i++)
        range[i] = (gh_param_info){sizeof(gh_param_info), "r", "", 3, NULL, 0, 0, (int64_t)1 << 40};
    gh_kernel_info k = {sizeof(gh_kernel_info), "big", "", 1, range, 5, NULL, 0, NULL, 0};
    gh_tune_space s;
    gh_tune_space_build(&s, &k, NULL);
    CHECK(s.n_values[0] == 43, "a range: ends, default and powers of two (got %zu values)", s.n_values[0]);
    CHECK(s.total > GH_TUNE_MAX_ENUMERATED && s.n_candidates == GH_TUNE_SAMPLES,
          "a product of %.0f is sampled: %zu candidates", s.total, s.n_candidates);
    CHECK(gh_tune_space_candidate(&s, 0)[0] == 3, "the default first");
    int distinct = 1;
    for (size_t i = 0; i < 200 && distinct; i++)
        for (size_t j = 0; j < i && distinct; j++)
            distinct = memcmp(gh_tune_space_candidate(&s, i), gh_tune_space_candidate(&s, j), 5 * sizeof(int64_t));
    CHECK(distinct, "sampled candidates are distinct");
    gh_tune_space_free(&s);
}

static void durations(void)
{
    double v;
    CHECK(gh_parse_seconds("120", &v) == 0 && v == 120, "120 is seconds");
    CHECK(gh_parse_seconds("120s", &v) == 0 && v == 120, "120s");
    CHECK(gh_parse_seconds("500ms", &v) == 0 && v == 0.5, "500ms");
    CHECK(gh_parse_seconds("2m", &v) == 0 && v == 120, "2m");
    CHECK(gh_parse_seconds("1.5h", &v) == 0 && v == 5400, "1.5h");
    CHECK(gh_parse_seconds("0", &v) == 0 && v == 0, "0");
    CHECK(gh_parse_seconds("-1", &v) != 0 && gh_parse_seconds("soon", &v) != 0 && gh_parse_seconds("3 s", &v) != 0 &&
              gh_parse_seconds("", &v) != 0 && gh_parse_seconds("1e999", &v) != 0,
          "-1, soon, \"3 s\", empty and 1e999 are refused");
}

/* A device name and a failure text with invalid UTF-8 (a Latin-1 driver
 * string, a worker's stderr) still make a cache that reads back. */
static void cache_utf8(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/sub/tune.json", dir);
    gh_tune_cache *c = gh_tune_cache_load(path, stderr);
    CHECK(gh_tune_cache_problem(c) == NULL, "a missing file is an empty cache");
    gh_tune_key key = {"plug", "Caf\xe9 GPU", "1.0 \xff", "k", GH_F32, {0}};
    gh_tune_entry *e = gh_tune_cache_entry(c, &key, &two);
    int64_t p[2] = {16, 2};
    gh_tune_measurement m = {"FAIL", 0, 0, "stderr: \xc3( bad"};
    gh_tune_entry_put(e, &two, p, (gh_trans){0, 1}, (gh_shape){7, 8, 9}, &m);
    gh_tune_entry_set_best(e, &two, GH_CLASS_SMALL, p, 1.5, 0.5, "7x8x9", (gh_trans){0, 1});
    char err[512] = "";
    CHECK(gh_tune_cache_save(c, stderr, err, sizeof err) == 0, "saved, its folder made (%s)", err);
    gh_tune_cache_free(c);
    json_error_t jerr;
    json_t *doc = json_load_file(path, 0, &jerr);
    CHECK(doc != NULL, "the file is JSON (%s)", doc ? "" : jerr.text);
    const char *device =
        json_string_value(json_object_get(json_array_get(json_object_get(doc, "entries"), 0), "device"));
    CHECK(device && !strcmp(device, "Caf? GPU"), "an invalid byte became '?' (got %s)", device ? device : "nothing");
    json_decref(doc);
    c = gh_tune_cache_load(path, stderr);
    CHECK(gh_tune_cache_problem(c) == NULL, "it reads back as a tune cache");
    int stale = 1;
    const gh_tune_entry *found = gh_tune_cache_find(c, &key, &two, &stale);
    CHECK(found && !stale, "the same key finds its entry");
    gh_tune_measurement got;
    CHECK(found && gh_tune_entry_get(found, &two, p, (gh_trans){0, 1}, (gh_shape){7, 8, 9}, &got) &&
              !strcmp(got.status, "FAIL") && !strcmp(got.detail, "stderr: ?( bad"),
          "its measurement reads back, the detail cleaned");
    CHECK(found && !gh_tune_entry_get(found, &two, p, (gh_trans){0, 0}, (gh_shape){7, 8, 9}, &got),
          "another transpose is another measurement");
    int64_t best[2] = {0, 0};
    char why[256];
    CHECK(found && gh_tune_entry_best(found, &two, GH_CLASS_SMALL, best, why, sizeof why) && best[0] == 16 &&
              best[1] == 2,
          "the best of small reads back");
    CHECK(found && !gh_tune_entry_best(found, &two, GH_CLASS_LARGE, best, why, sizeof why) &&
              strstr(why, "no best for this size class"),
          "large has none, and says so (%s)", why);
    gh_kernel_info other = two;
    other.n_params = 1;
    CHECK(!gh_tune_cache_find(c, &key, &other, &stale) && stale, "an entry for other parameters is stale");
    gh_tune_cache_free(c);
}

int main(void)
{
    size_classes();
    space_order();
    huge_space();
    durations();
    char dir[] = "/tmp/gemmhost-tune-unit-XXXXXX";
    if (mkdtemp(dir)) {
        cache_utf8(dir);
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    } else {
        check_skip("the cache file: no temporary folder");
    }
    return check_summary("tune_unit");
}
