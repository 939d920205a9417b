/* The files a run's report writes (gh_report_paths_resolve, report.h), and
 * what becomes of an earlier run's results there: the same experiment's,
 * complete, are replaced; an unfinished one is continued with --resume or
 * started over with --overwrite; another experiment's are kept unless
 * --overwrite, each refusal spelling out the commands (README, "The second
 * run"). */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "encode.h"
#include "experiment.h"
#include "junit.h"
#include "output_guard.h"
#include "util.h"

static char *str_concat(const char *a, const char *b)
{
    gh_sbuf sb = {0};
    gh_sb_puts(&sb, a);
    gh_sb_puts(&sb, b);
    return gh_sb_take(&sb);
}

static int is_folder(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int exists(const char *path)
{
    struct stat st;
    return path && lstat(path, &st) == 0;
}

void gh_report_paths_free(gh_report_paths *p)
{
    free(p->csv);
    free(p->json);
    free(p->log);
    free(p->junit);
    free(p->folder);
    memset(p, 0, sizeof *p);
}

/* An argument as a POSIX shell reads it back. */
static void shell_word(gh_sbuf *b, const char *s)
{
    if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./=:,+-@%") == strlen(s)) {
        gh_sb_puts(b, s);
        return;
    }
    gh_sb_putc(b, '\'');
    for (; *s; s++)
        if (*s == '\'') gh_sb_puts(b, "'\\''");
        else gh_sb_putc(b, *s);
    gh_sb_putc(b, '\'');
}

/* This run's command line, without --dry-run and without the option `drop`
 * (and its value), with `add` at the end: the command a refusal offers. */
static char *command_with(const gh_report_options *o, const char *drop, const char *add)
{
    gh_sbuf b = {0};
    if (o->argc < 1 || !o->argv) gh_sb_puts(&b, "gemmhost");
    size_t drop_len = drop ? strlen(drop) : 0;
    for (int i = 0; i < o->argc && o->argv; i++) {
        const char *a = o->argv[i];
        if (i > 0 && strcmp(a, "--dry-run") == 0) continue;
        if (i > 0 && drop && strncmp(a, drop, drop_len) == 0 && (a[drop_len] == '=' || a[drop_len] == '\0')) {
            if (a[drop_len] == '\0') i++; /* its value */
            continue;
        }
        if (b.len) gh_sb_putc(&b, ' ');
        shell_word(&b, a);
    }
    gh_sb_printf(&b, " %s", add);
    return gh_sb_take(&b);
}

/* "PREFIX-2" (or -3, ...): a prefix whose files are all still free. */
static char *free_prefix(const gh_report_paths *p)
{
    size_t stem = strlen(p->json) - strlen(".json");
    for (int n = 2;; n++) {
        char *prefix = gh_strdupf("%.*s-%d", (int)stem, p->json, n);
        char *csv = gh_strdupf("%s.csv", prefix), *json = gh_strdupf("%s.json", prefix),
             *log = gh_strdupf("%s.jsonl", prefix);
        int taken = exists(csv) || exists(json) || exists(log);
        free(csv);
        free(json);
        free(log);
        if (!taken || n >= 1000) return prefix;
        free(prefix);
    }
}

/* The results at the output are another experiment's, or cannot be told:
 * kept unless --overwrite, with both commands spelled out. */
static int refuse_other(const gh_report_options *o, const gh_report_paths *p, const char *what, char *err,
                        size_t err_size)
{
    char *prefix = free_prefix(p);
    gh_sbuf w = {0};
    gh_sb_puts(&w, "--output ");
    shell_word(&w, prefix);
    char *output = gh_sb_take(&w);
    char *keep = command_with(o, "--output", output), *replace = command_with(o, NULL, "--overwrite");
    snprintf(err, err_size,
             "%s %s, so this run does not replace it.\n"
             "  to keep both, write this run beside it:\n    %s\n"
             "  to replace it:\n    %s",
             p->json, what, keep, replace);
    free(prefix);
    free(output);
    free(keep);
    free(replace);
    return -1;
}

/* This experiment's own run, unfinished: --resume first. */
static int refuse_unfinished(const gh_report_options *o, const gh_report_paths *p, size_t n_results, char *err,
                             size_t err_size)
{
    char *resume = command_with(o, NULL, "--resume"), *over = command_with(o, NULL, "--overwrite");
    snprintf(err, err_size,
             "%s holds an unfinished run of this same experiment (%zu result%s, \"complete\": false), so this run "
             "does not replace it.\n"
             "  to continue it (what it has is kept, not run again):\n    %s\n"
             "  to start it over (what it has is lost):\n    %s",
             p->json, n_results, n_results == 1 ? "" : "s", resume, over);
    free(resume);
    free(over);
    return -1;
}

/* The results files at the output: new, this experiment's (replaced), or refused. */
static int check_earlier_results(const gh_report_options *o, gh_report_paths *p, char *err, size_t err_size)
{
    if (!exists(p->csv) && !exists(p->json) && !exists(p->log)) return 0;
    if (o->overwrite || o->resume) return 0;
    gh_earlier_run e;
    gh_earlier_run_read(p->json, p->log, &e);
    int rc = 0;
    char what[700];
    if (!e.exists) {
        snprintf(what, sizeof what, "is missing but %s exists (whose results it holds cannot be told)", p->csv);
        rc = refuse_other(o, p, what, err, err_size);
    } else if (!e.readable) {
        snprintf(what, sizeof what, "exists but cannot be read as gemmhost's results (%s)", e.why);
        rc = refuse_other(o, p, what, err, err_size);
    } else if (!e.experiment) {
        rc = refuse_other(o, p, "holds results that name no experiment (an older gemmhost wrote it)", err, err_size);
    } else if (!o->experiment || strcmp(e.experiment, o->experiment) != 0) {
        snprintf(what, sizeof what,
                 "holds the results of another experiment (%zu results of another config, --set, --size, ... or "
                 "--backend/--kernel/--device selection)",
                 e.n_results);
        rc = refuse_other(o, p, what, err, err_size);
    } else if (!e.complete) {
        rc = refuse_unfinished(o, p, e.n_results, err, err_size);
    } else {
        p->replaces = 1;
    }
    gh_earlier_run_free(&e);
    return rc;
}

/* A JUnit file there already: replaced when it is this experiment's
 * complete run's, else kept unless --overwrite. */
static int check_earlier_junit(const gh_report_options *o, gh_report_paths *p, char *err, size_t err_size)
{
    if (!p->junit || !exists(p->junit) || o->overwrite || o->resume) return 0;
    char *experiment;
    int complete;
    int same = gh_junit_experiment(p->junit, &experiment, &complete) == 0 && o->experiment &&
               strcmp(experiment, o->experiment) == 0;
    free(experiment);
    if (same && complete) return 0;
    char *replace = command_with(o, NULL, "--overwrite");
    snprintf(err, err_size,
             "%s holds %s, so this run does not replace it.\n"
             "  to keep it, give this run another --junit FILE\n"
             "  to replace it:\n    %s",
             p->junit,
             same ? "an unfinished run of this same experiment"
                  : "another experiment's results (or results that name no experiment)",
             replace);
    free(replace);
    return -1;
}

int gh_report_paths_resolve(const gh_report_options *o, gh_report_paths *p, char *err, size_t err_size)
{
    memset(p, 0, sizeof *p);
    const char *out = o->prefix;
    size_t len = out ? strlen(out) : 0;
    int oom = 0;
    if (len) {
        char *prefix;
        if (out[len - 1] == '/' || is_folder(out)) {
            while (len > 1 && out[len - 1] == '/') len--; /* "dir//" and "dir" alike; "/" stays */
            gh_sbuf b = {0};
            gh_sb_putn(&b, out, len);
            p->folder = gh_sb_take(&b);
            prefix = p->folder ? str_concat(p->folder, strcmp(p->folder, "/") ? "/" GH_REPORT_DEFAULT_NAME
                                                                              : GH_REPORT_DEFAULT_NAME)
                               : NULL;
        } else {
            prefix = str_concat(out, "");
        }
        p->csv = prefix ? str_concat(prefix, ".csv") : NULL;
        p->json = prefix ? str_concat(prefix, ".json") : NULL;
        p->log = prefix ? str_concat(prefix, ".jsonl") : NULL;
        oom = !p->csv || !p->json || !p->log;
        free(prefix);
    }
    if (o->junit_path && *o->junit_path) oom |= !(p->junit = str_concat(o->junit_path, ""));
    if (oom) {
        snprintf(err, err_size, "cannot open the report: out of memory");
        gh_report_paths_free(p);
        return -1;
    }
    /* Only regular files are read for an earlier run's experiment: a FIFO
     * there would block the read, a device is not gemmhost's (output_guard.h). */
    const gh_output outputs[] = {
        {p->csv, "the results file"}, {p->json, "the results file"}, {p->log, "the record log"}, {p->junit, "--junit"}};
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++)
        if (outputs[i].path && gh_output_check_kind(outputs[i].path, outputs[i].role, err, err_size) != 0) {
            gh_report_paths_free(p);
            return -1;
        }
    int rc = p->csv ? check_earlier_results(o, p, err, err_size) : 0;
    if (rc == 0) rc = check_earlier_junit(o, p, err, err_size);
    if (rc) gh_report_paths_free(p);
    return rc;
}
