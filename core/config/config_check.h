/* What the files that check a config share (step 3 of config.c): the value
 * readers every section uses (config_values.c) and the section checks
 * (config_run.c, config_sections.c). Internal to core/config. */
#ifndef GEMMHOST_CONFIG_CHECK_H
#define GEMMHOST_CONFIG_CHECK_H

#include <stdint.h>

#include "config.h"
#include "config_ini.h"

#define MAX_DIM   2147483647LL /* 2^31 - 1: plugins may index with int32 */
#define MAX_COUNT 1000000LL    /* warmup, repeat */
#define MAX_PAD   1048576LL    /* ld_pad, guard */

/* Value readers (config_values.c): each reads one entry's value, checks it
 * and on error names the key, where it was written and what is allowed. */
int cfg_parse_uint64(const char *s, uint64_t *out);
int cfg_parse_double(const char *s, double *out);
gh_origin cfg_origin_of(loader *ld, const entry *e);
void cfg_resolve_in_config_dir(const loader *ld, const entry *e, char **path);
int cfg_get_single(loader *ld, const section *s, const entry *e, const char **out);
int cfg_get_list(loader *ld, const section *s, const entry *e, char ***items, size_t *n);
int cfg_get_unique_list(loader *ld, const section *s, const entry *e, char ***items, size_t *n);
int cfg_get_int(loader *ld, const section *s, const entry *e, int64_t lo, int64_t hi, int64_t *out);
int cfg_get_choice(loader *ld, const section *s, const entry *e, const char *item, const char *what,
                   const char *const *names, int count, int *out);
int cfg_get_choice_list(loader *ld, const section *s, const entry *e, const char *what, const char *const *names,
                        int count, int **out, size_t *n_out);
int cfg_get_timeout(loader *ld, const section *s, const entry *e, double *out);
/* A duration (gh_parse_seconds), above 0 when above_zero; the message
 * names the examples given ("10s, 500ms, 2m"). */
int cfg_get_seconds(loader *ld, const section *s, const entry *e, int above_zero, const char *examples, double *out);
int cfg_get_tune_budget(loader *ld, const section *s, const entry *e, double *out);
int cfg_get_nonempty(loader *ld, const section *s, const entry *e, const char *what, char **out);
int cfg_get_yes_no(loader *ld, const section *s, const entry *e, int *out);
int cfg_get_mem_limit(loader *ld, const section *s, const entry *e, uint64_t *out);
int cfg_get_string(loader *ld, const section *s, const entry *e, char **out);

/* The [run] keys of how a result is measured (config_measure.c): cache,
 * repeat, batch and their companions, and the checks across them. */
int cfg_set_cache(loader *ld, const section *s, const entry *e, gh_run_config *run);
int cfg_set_repeat(loader *ld, const section *s, const entry *e, gh_run_config *run);
int cfg_set_flush_size(loader *ld, const section *s, const entry *e, gh_run_config *run);
int cfg_set_max_time(loader *ld, const section *s, const entry *e, gh_run_config *run);
int cfg_set_target_spread(loader *ld, const section *s, const entry *e, gh_run_config *run);
int cfg_set_batch(loader *ld, const section *s, const entry *e, gh_run_config *run);
int cfg_set_batch_below(loader *ld, const section *s, const entry *e, gh_run_config *run);
int cfg_check_measure(loader *ld, const section *s, gh_run_config *run);

/* The [run] keys of an 8-bit GEMM's other types and scales (config_types.c). */
int cfg_set_b_dtype(loader *ld, const section *s, const entry *e, gh_run_config *run);
int cfg_set_c_dtype(loader *ld, const section *s, const entry *e, gh_run_config *run);
int cfg_set_scale(loader *ld, const section *s, const entry *e, double *out);
int cfg_check_types(loader *ld, const section *s, gh_run_config *run);

/* ranks and hosts (config_placement.c): 1 when e is neither, 0 read, -1 an
 * error (also in a build without MPI: the keys are refused there). */
int cfg_placement_key(loader *ld, const section *s, const entry *e, gh_placement *p);

/* Section checks: [run] (config_run.c), [backend] and [split] (config_sections.c). */
int cfg_check_run(loader *ld, gh_run_config *run);
int cfg_check_backend(loader *ld, const section *s, gh_config *cfg);
int cfg_check_split(loader *ld, const section *s, gh_config *cfg);
int cfg_check_split_members(loader *ld, const gh_config *cfg);

#endif
