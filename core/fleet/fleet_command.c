/* One rank's command (docs/fleet.md): joining the MPI job when launched in
 * one, the command line, config and placement agreed on by every rank, the
 * plugins and the plan, then --list, --probe, the dry run or the run, alone
 * or as this rank's part of the fleet's. Alone it is one rank of one. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "config.h"
#include "crash.h"
#include "dry_run_command.h"
#include "fleet_comm.h"
#include "fleet_command.h"
#include "fleet_rank.h"
#include "fleet_report.h"
#include "kept_outputs.h"
#include "list.h"
#include "loader.h"
#include "placement.h"
#include "plan.h"
#include "probe.h"
#include "run_command.h"
#include "util.h"
#include "version.h"

/* This process's place in an MPI job (docs/fleet.md); one rank without. */
static gh_fleet fleet;
/* Under MPI, this rank as its results files' head says it: {"rank", ...}. */
static char *fleet_head;

const char *gh_fleet_command_head(void)
{
    return fleet_head;
}

/* A `devices = local_rank` backend whose plugin has no device at this
 * rank's node-local index: said before anything runs. */
static int check_local_rank_devices(const gh_config *cfg, const gh_plan *plan, char *err, size_t err_size)
{
    for (size_t i = 0; i < plan->n_instances; i++) {
        const gh_instance *inst = &plan->instances[i];
        for (size_t b = 0; b < cfg->n_backends && inst->problem; b++) {
            const gh_backend_config *bc = &cfg->backends[b];
            if (!bc->local_rank_devices || strcmp(bc->name, inst->name) != 0) continue;
            char at[512];
            snprintf(err, err_size, "%s: [backend %s] devices = local_rank: local rank %d on %s has no such device: %s",
                     gh_origin_format(&bc->devices_origin, at, sizeof at), bc->name, fleet.local_rank, fleet.host,
                     inst->problem);
            return -1;
        }
    }
    return 0;
}

typedef struct fleet_job {
    gh_cli *c;
    const gh_config *cfg;
    gh_plugin_set *plugins;
    gh_plan *plan;
    int argc;
    char **argv;
    int idle;
} fleet_job;

static int fleet_dry_run_rank(void *arg)
{
    fleet_job *j = arg;
    if (j->idle) {
        printf("idle: no [backend] or [split] is placed on this rank\n");
        return EXIT_PASS;
    }
    return gh_dry_run_command(j->c, j->cfg, j->plan, j->argc, j->argv);
}

static int fleet_run_rank(void *arg)
{
    fleet_job *j = arg;
    return gh_run_command(j->c, j->cfg, j->plugins, j->plan, j->argc, j->argv);
}

/* The run under MPI (fleet_rank.h): this rank's part quietly into its own
 * files PREFIX.rank-N.*, the fleet's report from rank 0. */
static int fleet_run(fleet_job *j, const char *prefix)
{
    gh_cli *c = j->c;
    const char *cli_output = c->output; /* argv's: gh_cli_free leaves it */
    int quiet = c->quiet;
    char *rank_prefix = gh_fleet_rank_prefix(prefix, fleet.rank);
    c->output = rank_prefix;
    c->quiet = 1;
    gh_fleet_outputs outputs = {j->cfg->run.kept_outputs, &j->cfg->run};
    int status = gh_fleet_run(&fleet, j->idle ? NULL : fleet_run_rank, j, prefix, quiet,
                              c->verbose || c->full_agreement, outputs.kept ? &outputs : NULL);
    c->output = cli_output;
    c->quiet = quiet;
    free(rank_prefix);
    return status;
}

/* Under MPI, each rank's files checked before any rank runs, as a single
 * run checks its own (report_paths.h): a refusal is everyone's, said by
 * rank 0 with the commands that go on for the whole job. */
static int fleet_check_files(gh_cli *c, const gh_config *cfg, const char *prefix, int argc, char **argv)
{
    const char *cli_output = c->output;
    char *rank_prefix = gh_fleet_rank_prefix(prefix, fleet.rank), err[4096] = "";
    c->output = rank_prefix;
    char *experiment = gh_run_experiment_of(c);
    gh_report_options ro = gh_run_report_options(c, cfg, "", experiment, argc, argv);
    gh_report_paths paths;
    int rc = c->resume ? 0 : gh_report_paths_resolve(&ro, &paths, err, sizeof err);
    if (rc == 0 && !c->resume) gh_report_paths_free(&paths);
    c->output = cli_output;
    if (rc == 0 && fleet.rank == 0) { /* the fleet's own file, PREFIX.json */
        char *base = gh_fleet_prefix(prefix), *path = gh_strdupf("%s.json", base), *id = gh_run_experiment_of(c);
        rc = gh_fleet_file_check(path, id, c->overwrite || c->resume, err, sizeof err);
        free(id);
        free(path);
        free(base);
    }
    free(experiment);
    free(rank_prefix);
    int status = gh_fleet_agree(&fleet, rc != 0 ? EXIT_USAGE : EXIT_PASS, rc != 0 ? err : "");
    if (status != EXIT_PASS && fleet.rank == 0)
        fprintf(stderr,
                "gemmhost: under MPI each rank's files are %s.rank-N.*: for the whole job, --output OTHER keeps "
                "them, --overwrite replaces them, --resume continues each rank's run\n",
                prefix);
    return status;
}

/* Which sections this rank runs (placement.h), checked against the job on
 * every rank alike: one message, from rank 0. */
static int place_sections(gh_cli *c, gh_config *cfg, char **filter, int *idle)
{
    char err[2048] = "";
    int bad = gh_placement_check(cfg, fleet.size, fleet.hosts, err, sizeof err) != 0;
    int status = gh_fleet_agree(&fleet, bad ? EXIT_USAGE : EXIT_PASS, fleet.rank == 0 ? err : "");
    if (status != EXIT_PASS) return status;
    size_t placed = gh_placement_apply(cfg, fleet.rank, fleet.host, fleet.local_rank, c->filters.backends, filter);
    *idle = fleet.active && placed == 0;
    return EXIT_PASS;
}

/* "name.rank-N.ext" for "name.ext": a file each rank writes for itself. */
static char *rank_file(const char *path)
{
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    if (!dot || (slash && dot < slash) || dot == (slash ? slash + 1 : path))
        return gh_strdupf("%s.rank-%d", path, fleet.rank);
    return gh_strdupf("%.*s.rank-%d%s", (int)(dot - path), path, fleet.rank, dot);
}

/* Under MPI, the files of --junit, --timeline and --save-outputs are each
 * rank's own (a lock held by one rank would refuse the others; two ranks
 * saving one output would race on its temporary file). owned[3]: to free. */
static void rank_own_files(gh_cli *c, char *owned[3])
{
    if (!fleet.active) return;
    if (c->junit) c->junit = owned[0] = rank_file(c->junit);
    if (c->timeline) c->timeline = owned[1] = rank_file(c->timeline);
    if (c->save_outputs) c->save_outputs = owned[2] = gh_strdupf("%s/rank-%d", c->save_outputs, fleet.rank);
}

static int gemmhost_rank_files(int argc, char **argv, char *owned[3]);

static int gemmhost_rank(int argc, char **argv)
{
    char *owned[3] = {NULL, NULL, NULL};
    int status = gemmhost_rank_files(argc, argv, owned);
    for (int i = 0; i < 3; i++) free(owned[i]);
    return status;
}

typedef struct cli_parse_job {
    int argc;
    char **argv;
    gh_cli *c;
    int exit_now, version, rc;
} cli_parse_job;

/* The command line parsed; its status as an exit status (0 for --help). */
static int parse_cli(void *arg)
{
    cli_parse_job *j = arg;
    j->rc = gh_cli_parse(j->argc, j->argv, j->c, &j->exit_now, &j->version);
    return j->rc != 0 ? j->exit_now : EXIT_PASS;
}

static int gemmhost_rank_files(int argc, char **argv, char *owned[3])
{
    gh_crash_install();
    gh_cli c;
    /* Under MPI every rank parses the same line: its usage error (or --help) is said once, by rank 0. */
    cli_parse_job parse = {argc, argv, &c, 0, 0, 0};
    int parsed = gh_fleet_say_once(&fleet, parse_cli, &parse);
    if (parse.rc != 0 || parsed != EXIT_PASS) {
        gh_cli_free(&c);
        return parse.rc != 0 ? parse.exit_now : parsed;
    }
    int version = parse.version;
    if (version) {
        if (fleet.rank == 0) gh_print_version();
        gh_cli_free(&c);
        return EXIT_PASS;
    }
    char err[2048] = "";
    rank_own_files(&c, owned);
    gh_config cfg;
    int rc = c.config_path ? gh_config_load_file(c.config_path, c.overrides, c.n_overrides, &cfg, err, sizeof err)
                           : gh_config_load_text(gh_default_config_text, "<built-in>", c.overrides, c.n_overrides, &cfg,
                                                 err, sizeof err);
    if (gh_fleet_agree(&fleet, rc != 0 ? EXIT_USAGE : EXIT_PASS, rc != 0 ? err : "") != EXIT_PASS) {
        if (rc == 0) gh_config_free(&cfg);
        gh_cli_free(&c);
        return EXIT_USAGE;
    }
    cfg.run.save_outputs = c.save_outputs; /* not a config key: where one machine keeps its outputs */
    char *rank_filter = NULL;
    int idle = 0;
    if (place_sections(&c, &cfg, &rank_filter, &idle) != EXIT_PASS) {
        gh_config_free(&cfg);
        gh_cli_free(&c);
        return EXIT_USAGE;
    }
    const char *prefix = c.output ? c.output : cfg.run.output;
    if (gh_fleet_agree(&fleet, fleet.active && !c.list && (!prefix || !*prefix) ? EXIT_USAGE : EXIT_PASS,
                       fleet.active && fleet.rank == 0 && !c.list && (!prefix || !*prefix)
                           ? "under MPI every rank writes its results to PREFIX.rank-N.json: give --output PREFIX "
                             "(output is empty)"
                           : "") != EXIT_PASS) {
        free(rank_filter);
        gh_config_free(&cfg);
        gh_cli_free(&c);
        return EXIT_USAGE;
    }
    gh_plugin_set plugins = {
        .isolated = cfg.run.isolation == GH_ISOLATION_PROCESS, .has_timeout = 1, .timeout = cfg.run.timeout};
    if (!idle) gh_plugins_discover(&plugins, (const char *const *)cfg.run.plugin_dirs, cfg.run.n_plugin_dirs);
    if (c.list) {
        int status = fleet.rank != 0 ? EXIT_PASS
                                     : gh_list_plugins(&plugins, c.json      ? GH_LIST_JSON
                                                                 : c.summary ? GH_LIST_SUMMARY
                                                                             : GH_LIST_TEXT);
        free(rank_filter);
        gh_plugins_free(&plugins);
        gh_config_free(&cfg);
        gh_cli_free(&c);
        return status;
    }
    gh_plan plan;
    memset(&plan, 0, sizeof plan);
    gh_plan_filters filters = {rank_filter ? rank_filter : c.filters.backends, c.filters.kernels, c.filters.devices};
    rc = idle ? 0 : gh_plan_build(&cfg, &plugins, &filters, &plan, err, sizeof err);
    if (rc == 0 && !idle) rc = check_local_rank_devices(&cfg, &plan, err, sizeof err);
    int status = gh_fleet_agree(&fleet, rc != 0 ? EXIT_USAGE : EXIT_PASS, rc != 0 ? err : "");
    gh_kept_outputs kept = {0};
    if (status == EXIT_PASS) {
        prefix = c.output ? c.output : cfg.run.output;
        /* [run] fleet_outputs_max: the run keeps its small outputs whole, for rank 0's exact distances */
        if (fleet.active && cfg.run.fleet_outputs_max) cfg.run.kept_outputs = &kept;
        fleet_job job = {&c, &cfg, &plugins, &plan, argc, argv, idle};
        gh_probe_options probe = {c.output && *c.output ? c.output : NULL, c.json, c.quiet};
        if (c.probe) /* each rank probes what it was placed on */
            status = gh_probe(&cfg, &plan, &probe);
        else if (!fleet.active)
            status = c.dry_run ? gh_dry_run_command(&c, &cfg, &plan, argc, argv)
                               : gh_run_command(&c, &cfg, &plugins, &plan, argc, argv);
        else if (c.dry_run) status = gh_fleet_dry_run(&fleet, fleet_dry_run_rank, &job);
        else if ((status = fleet_check_files(&c, &cfg, prefix, argc, argv)) == EXIT_PASS)
            status = fleet_run(&job, prefix);
    }
    if (!idle) gh_plan_free(&plan);
    gh_kept_outputs_free(&kept);
    free(rank_filter);
    gh_plugins_free(&plugins);
    gh_config_free(&cfg);
    gh_cli_free(&c);
    return status;
}

int gh_fleet_command(int argc, char **argv)
{
    char err[1024];
    if (gh_fleet_init(&fleet, &argc, &argv, err, sizeof err) != 0) {
        fprintf(stderr, "gemmhost: cannot join the MPI job: %s\n", err);
        gh_fleet_finalize(&fleet);
        return EXIT_USAGE;
    }
    if (fleet.active)
        fleet_head = gh_strdupf("{\"rank\": %d, \"size\": %d, \"host\": \"%s\", \"local_rank\": %d}", fleet.rank,
                                fleet.size, fleet.host, fleet.local_rank);
    int status = gemmhost_rank(argc, argv);
    free(fleet_head);
    fleet_head = NULL;
    gh_fleet_finalize(&fleet);
    return status;
}
