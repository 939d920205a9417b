/* One search of the tuner; see tune_search.h. */
#define _POSIX_C_SOURCE 200809L
#include "tune_search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cancel.h"
#include "data.h"
#include "run.h"
#include "tune_space.h"
#include "util.h"

#define MAX_PER_CLASS 3

/* A representative size, its inputs and reference prepared on first need
 * and kept for every candidate. */
typedef struct size_slot {
    gh_shape shape;
    gh_size_class cls;
    gh_case_data *cd;
    int unprepared; /* preparing it failed (out of host memory) */
} size_slot;

typedef struct class_best {
    int has;
    size_t candidate;
    double gflops, default_gflops;
    char params[128];
} class_best;

/* Everything the candidates of one search share. */
typedef struct search_state {
    const gh_tune_search *s;
    const gh_kernel_info *info;
    gh_tune_entry *entry;
    gh_tune_who who;
    gh_trans trans;
    size_slot *slots;
    size_t n_slots;
    char class_sizes[GH_CLASS_COUNT][256]; /* "24x24x24, 33x17x29" */
    class_best best[GH_CLASS_COUNT];
    char default_params[128];
    gh_streak streak; /* the tuner's own: a crashing candidate does not give the backend up */
    gh_progress *progress;
    int in_process; /* isolation = none: a crash ends gemmhost, so a candidate is marked before it runs */
} search_state;

static double volume(gh_shape s)
{
    return (double)s.m * (double)s.n * (double)s.k;
}

static int by_volume(const void *x, const void *y)
{
    double a = volume(*(const gh_shape *)x), b = volume(*(const gh_shape *)y);
    return (a > b) - (a < b);
}

/* Up to MAX_PER_CLASS sizes of each class the run's sizes fall in: the
 * smallest, the median and the largest. Slots are ordered by class. */
static void pick_sizes(search_state *st)
{
    const gh_run_config *run = st->s->run;
    gh_shape *sorted = gh_xcalloc(run->n_sizes + 1, sizeof *sorted);
    size_t n = 0;
    for (size_t i = 0; i < run->n_sizes; i++) {
        int seen = 0;
        for (size_t j = 0; j < n && !seen; j++)
            seen = sorted[j].m == run->sizes[i].m && sorted[j].n == run->sizes[i].n && sorted[j].k == run->sizes[i].k;
        if (!seen) sorted[n++] = run->sizes[i];
    }
    qsort(sorted, n, sizeof *sorted, by_volume);
    st->slots = gh_xcalloc(GH_CLASS_COUNT * MAX_PER_CLASS, sizeof *st->slots);
    gh_shape *in_class = gh_xcalloc(n + 1, sizeof *in_class);
    for (int c = 0; c < GH_CLASS_COUNT; c++) {
        size_t count = 0;
        for (size_t i = 0; i < n; i++)
            if (gh_size_class_of(sorted[i].m, sorted[i].n, sorted[i].k) == (gh_size_class)c)
                in_class[count++] = sorted[i];
        size_t picks[MAX_PER_CLASS] = {0, count / 2, count - 1}; /* smallest, median, largest */
        const size_t n_picks = count < MAX_PER_CLASS ? count : MAX_PER_CLASS;
        for (size_t i = 0; count < MAX_PER_CLASS && i < count; i++) picks[i] = i;
        for (size_t i = 0; i < n_picks; i++) {
            const gh_shape sh = in_class[picks[i]];
            st->slots[st->n_slots++] = (size_slot){sh, (gh_size_class)c, NULL, 0};
            size_t used = strlen(st->class_sizes[c]);
            snprintf(st->class_sizes[c] + used, sizeof st->class_sizes[c] - used, "%s%lldx%lldx%lld", i ? ", " : "",
                     (long long)sh.m, (long long)sh.n, (long long)sh.k);
        }
    }
    free(in_class);
    free(sorted);
}

static gh_case_data *slot_data(search_state *st, size_t i)
{
    size_slot *sl = &st->slots[i];
    if (!sl->cd && !sl->unprepared) {
        sl->cd = gh_case_data_new(st->s->run, (int)i, sl->shape, st->s->dtype, st->trans);
        sl->unprepared = sl->cd == NULL;
    }
    return sl->cd;
}

static int rejects(const char *status)
{
    return !strcmp(status, "FAIL") || !strcmp(status, "crashed") || !strcmp(status, "timeout");
}

/* Whether the candidate would measure something (a size missing from the
 * cache before any cached measurement that rejects it). */
static int needs_measuring(const search_state *st, const int64_t *params)
{
    for (size_t i = 0; i < st->n_slots; i++) {
        gh_tune_measurement m;
        if (!gh_tune_entry_get(st->entry, st->info, params, st->trans, st->slots[i].shape, &m)) return 1;
        if (rejects(m.status) || !strcmp(m.status, "running")) return 0;
    }
    return 0;
}

static int save_cache(const search_state *st)
{
    char err[1024];
    if (gh_tune_cache_save(st->s->cache, st->s->messages, err, sizeof err) == 0) return 0;
    fprintf(st->s->messages ? st->s->messages : stderr, "gemmhost: %s\n", err);
    return -1;
}

/* Measures one size of a candidate into m. Returns -1 when cancelled. */
static int measure_size(search_state *st, size_t i, const int64_t *params, const char *label, gh_tune_measurement *m)
{
    const gh_tune_search *s = st->s;
    size_slot *sl = &st->slots[i];
    memset(m, 0, sizeof *m);
    gh_case_data *cd = slot_data(st, i);
    if (!cd) {
        snprintf(m->status, sizeof m->status, "%s", gh_result_status_name(GH_RESULT_ERROR));
        snprintf(m->detail, sizeof m->detail, "out of host memory for the inputs or reference of %lldx%lldx%lld",
                 (long long)sl->shape.m, (long long)sl->shape.n, (long long)sl->shape.k);
        return 0;
    }
    if (st->in_process) { /* if it takes gemmhost down, the next tuning run knows */
        gh_tune_measurement running = {.status = "running"};
        gh_tune_entry_put(st->entry, st->info, params, st->trans, sl->shape, &running);
        if (save_cache(st) != 0) return -1;
    }
    gh_kernel_variant v = {.kernel = s->kernel, .info = st->info, .params = (int64_t *)params};
    snprintf(v.label, sizeof v.label, "%s", label);
    gh_result r;
    gh_run_measure(s->run, s->inst, s->device, &v, cd, &st->streak, st->progress, &r);
    st->streak.failures = 0; /* the tuner judges candidates, not the backend */
    free(st->streak.given_up);
    st->streak.given_up = NULL;
    if (r.status == GH_RESULT_CANCELLED) {
        if (st->in_process) gh_tune_entry_forget(st->entry, st->info, params, st->trans, sl->shape);
        return -1;
    }
    snprintf(m->status, sizeof m->status, "%s", gh_result_status_name(r.status));
    if (r.status == GH_RESULT_PASS) { /* a time only for what passed: a wrong result's is meaningless */
        m->kernel_ms = r.kernel_ms_median;
        m->gflops = r.gflops;
    }
    snprintf(m->detail, sizeof m->detail, "%.*s", (int)sizeof m->detail - 1, r.detail[0] ? r.detail : r.verify.message);
    return 0;
}

static void count(gh_tune_summary *sum, const char *status)
{
    if (!strcmp(status, "pass")) sum->passed++;
    else if (!strcmp(status, "FAIL")) sum->failed++;
    else if (!strcmp(status, "unsupported")) sum->unsupported++;
    else if (!strcmp(status, "crashed")) sum->crashed++;
    else if (!strcmp(status, "timeout")) sum->timeouts++;
    else sum->errors++;
}

/* The first line of a detail, for the terminal. */
static void first_line(const char *text, char *out, size_t size)
{
    size_t n = strcspn(text, "\n");
    snprintf(out, size, "%.*s", (int)(n < size ? n : size - 1), text);
}

/* After a candidate that measured `gflops` per size (0: did not pass):
 * each class whose sizes it all passed may have a new best. Appends the
 * candidate's numbers per class to `line`. */
static void judge(search_state *st, size_t c, const int64_t *params, const char *label, const double *gflops,
                  char *line, size_t line_size)
{
    for (int cls = 0; cls < GH_CLASS_COUNT; cls++) {
        double log_sum = 0;
        size_t n = 0, passed = 0;
        for (size_t i = 0; i < st->n_slots; i++) {
            if (st->slots[i].cls != (gh_size_class)cls) continue;
            n++;
            if (gflops[i] > 0) {
                passed++;
                log_sum += log(gflops[i]);
            }
        }
        if (n == 0 || passed < n) continue;
        const double mean = exp(log_sum / (double)n);
        class_best *b = &st->best[cls];
        if (c == 0) b->default_gflops = mean;
        const int better = !b->has || mean > b->gflops;
        size_t used = strlen(line);
        snprintf(line + used, line_size - used, "%s %s %.4g GFLOP/s%s", used ? "," : "", gh_size_class_name(cls), mean,
                 better ? " (best so far)" : "");
        if (!better) continue;
        b->has = 1;
        b->candidate = c;
        b->gflops = mean;
        snprintf(b->params, sizeof b->params, "%s", label);
        gh_tune_entry_set_best(st->entry, st->info, (gh_size_class)cls, params, mean, b->default_gflops,
                               st->class_sizes[cls], st->trans);
        gh_tune_winner w = {(gh_size_class)cls,  c, b->params, mean, st->default_params, b->default_gflops,
                            st->class_sizes[cls]};
        gh_tune_report_winner(st->s->report, &st->who, &w);
    }
}

enum { CANDIDATE_DONE = 0, CANDIDATE_UNTRIED = 1, CANDIDATE_CANCELLED = -1 };

/* Candidate c on every size (from the cache where it was measured before).
 * may_measure = 0 once the budget is spent: a candidate that would measure
 * anything is left untried. */
static int run_candidate(search_state *st, const gh_tune_space *space, size_t c, int may_measure, gh_tune_summary *sum)
{
    const gh_tune_search *s = st->s;
    const int64_t *params = gh_tune_space_candidate(space, c);
    if (!may_measure && needs_measuring(st, params)) return CANDIDATE_UNTRIED;
    char label[128], line[512] = "", why[256] = "";
    gh_tune_params_label(st->info, params, label, sizeof label);
    if (c == 0) snprintf(st->default_params, sizeof st->default_params, "%s", label);
    double *gflops = gh_xcalloc(st->n_slots + 1, sizeof *gflops);
    size_t cached = 0, measured = 0;
    int rejected = 0;
    for (size_t i = 0; i < st->n_slots && !rejected; i++) {
        const size_slot *sl = &st->slots[i];
        gh_tune_measurement m;
        int from_cache = gh_tune_entry_get(st->entry, st->info, params, st->trans, sl->shape, &m);
        if (from_cache && !strcmp(m.status, "running")) {
            /* it was running in-process when an earlier tuning run died */
            snprintf(m.status, sizeof m.status, "crashed");
            snprintf(m.detail, sizeof m.detail,
                     "an earlier tuning run (isolation = none) died while this candidate ran; remove its "
                     "measurement from the tune cache to try it again");
            gh_tune_entry_put(st->entry, st->info, params, st->trans, sl->shape, &m);
        } else if (!from_cache) {
            if (measure_size(st, i, params, label, &m) != 0) {
                free(gflops);
                return CANDIDATE_CANCELLED;
            }
            gh_tune_entry_put(st->entry, st->info, params, st->trans, sl->shape, &m);
            count(sum, m.status);
        }
        from_cache ? cached++ : measured++;
        gh_tune_row row = {c,        label,       sl->cls,  sl->shape.m, sl->shape.n, sl->shape.k,
                           m.status, m.kernel_ms, m.gflops, m.detail,    from_cache};
        gh_tune_report_row(s->report, &st->who, &row);
        if (!strcmp(m.status, "pass")) gflops[i] = m.gflops;
        rejected = rejects(m.status);
        if (strcmp(m.status, "pass") != 0 && !why[0]) {
            char first[200];
            first_line(m.detail, first, sizeof first);
            snprintf(why, sizeof why, "%s on %lldx%lldx%lld%s%s", m.status, (long long)sl->shape.m,
                     (long long)sl->shape.n, (long long)sl->shape.k, first[0] ? ": " : "", first);
        }
    }
    sum->measured += measured;
    sum->from_cache += cached;
    judge(st, c, params, label, gflops, line, sizeof line);
    free(gflops);
    if (s->out) {
        gh_progress_clear(st->progress);
        fprintf(s->out, "  [%zu/%zu] %s%s:%s", c + 1, space->n_candidates, label, c == 0 ? " (default)" : "", line);
        if (why[0]) fprintf(s->out, "%s %s", line[0] ? ";" : "", why);
        fprintf(s->out, "%s\n", measured ? "" : " (from the cache)");
        fflush(s->out);
    }
    return CANDIDATE_DONE;
}

/* The search's dtype as the cache keys it: "f32", or "e4m3xe5m2->f16". */
static void dtype_text(const gh_tune_search *s, char *text, size_t size)
{
    gh_tune_key key = {.dtype = s->dtype, .types = gh_run_case_types(s->run, s->dtype)};
    gh_tune_key_dtype_text(&key, text, size);
}

/* The search's end: its winners (or why none), and how far it got. */
static void conclude(search_state *st, size_t untried, size_t n_candidates, gh_tune_summary *sum)
{
    const gh_tune_search *s = st->s;
    char who[256], dtype[64];
    dtype_text(s, dtype, sizeof dtype);
    snprintf(who, sizeof who, "%s/%d %s %s", s->inst->name, s->device, st->info->name, dtype);
    for (int cls = 0; cls < GH_CLASS_COUNT; cls++) {
        if (!st->class_sizes[cls][0]) continue;
        const class_best *b = &st->best[cls];
        if (!b->has) {
            gh_tune_report_note(s->report, "%s: no candidate passed on size class %s (%s)", who,
                                gh_size_class_name(cls), st->class_sizes[cls]);
            if (s->messages)
                fprintf(s->messages, "gemmhost: tune %s: no candidate passed on size class %s (%s)\n", who,
                        gh_size_class_name(cls), st->class_sizes[cls]);
            sum->no_winner++;
            continue;
        }
        if (!s->out) continue;
        fprintf(s->out, "  best %s (%s): %s, %.4g GFLOP/s", gh_size_class_name(cls), st->class_sizes[cls], b->params,
                b->gflops);
        if (b->default_gflops > 0 && b->candidate != 0)
            fprintf(s->out, ", %.2fx the default %s", b->gflops / b->default_gflops, st->default_params);
        fprintf(s->out, "\n");
    }
    if (untried) {
        gh_tune_report_note(s->report,
                            "%s: the budget of %g s ran out with %zu of %zu candidates untried; a rerun goes on "
                            "from the cache",
                            who, s->budget_s, untried, n_candidates);
        if (s->out)
            fprintf(s->out, "  budget of %g s spent: %zu of %zu candidates untried (a rerun goes on)\n", s->budget_s,
                    untried, n_candidates);
    }
    sum->untried += untried;
}

int gh_tune_search_run(const gh_tune_search *s, gh_tune_summary *sum)
{
    const gh_plugin_api *api = s->inst->plugin->api;
    search_state st = {.s = s, .in_process = s->run->isolation == GH_ISOLATION_NONE};
    st.info = api->kernel_info(s->inst->ctx, s->kernel);
    const gh_device_info *dev = api->device_info(s->inst->ctx, s->device);
    const char *device_name = dev && dev->name ? dev->name : "?";
    const char *driver = dev && dev->driver_version ? dev->driver_version : "";
    gh_tune_key key = {api->name, device_name, driver, st.info->name, s->dtype, gh_run_case_types(s->run, s->dtype)};
    st.entry = gh_tune_cache_entry(s->cache, &key, st.info);
    st.trans = s->run->trans[0];
    st.who = (gh_tune_who){s->inst->name, api->name, s->device,  device_name, driver,
                           st.info->name, s->dtype,  st.trans.a, st.trans.b};
    pick_sizes(&st);
    gh_tune_space space;
    gh_tune_space_build(&space, st.info, s->bc);
    st.progress = gh_progress_start(GH_PROGRESS_OFF, 1, 5.0);
    sum->searches++;
    if (s->out) {
        char dtype[64];
        dtype_text(s, dtype, sizeof dtype);
        fprintf(s->out, "tune %s/%d %s %s %c%c: %zu candidates%s, budget %g s; sizes", s->inst->name, s->device,
                st.info->name, dtype, st.trans.a ? 't' : 'n', st.trans.b ? 't' : 'n', space.n_candidates,
                space.total > (double)space.n_candidates ? " (a sample)" : "", s->budget_s);
        for (int c = 0; c < GH_CLASS_COUNT; c++)
            if (st.class_sizes[c][0]) fprintf(s->out, " %s: %s;", gh_size_class_name(c), st.class_sizes[c]);
        fprintf(s->out, "\n");
    }
    const double start = gh_now_ms();
    size_t untried = 0;
    int rc = 0;
    for (size_t c = 0; c < space.n_candidates && rc == 0; c++) {
        if (gh_cancel_requested()) rc = -1;
        const int may_measure = c == 0 || gh_now_ms() - start < s->budget_s * 1000.0;
        int got = rc ? CANDIDATE_CANCELLED : run_candidate(&st, &space, c, may_measure, sum);
        if (got == CANDIDATE_UNTRIED) untried++;
        if (got == CANDIDATE_CANCELLED) rc = -1;
        if (got == CANDIDATE_DONE && save_cache(&st) != 0) rc = -2;
        char err[1024];
        if (got == CANDIDATE_DONE && gh_tune_report_write(s->report, err, sizeof err) != 0 && s->messages)
            fprintf(s->messages, "gemmhost: %s\n", err);
    }
    if (rc == 0) conclude(&st, untried, space.n_candidates, sum);
    if (rc == -1) sum->cancelled = 1;
    if (rc != 0 && save_cache(&st) != 0) rc = -2; /* a cancelled candidate's mark is gone */
    gh_progress_finish(st.progress);
    gh_tune_space_free(&space);
    for (size_t i = 0; i < st.n_slots; i++) gh_case_data_free(st.slots[i].cd);
    free(st.slots);
    free(st.streak.given_up);
    return rc ? -1 : 0;
}
