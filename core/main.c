/* gemmhost: the entry. A worker process, a subcommand (compare, merge), or
 * the command itself: command line, then config -> plan -> tune -> run ->
 * report (fleet_command.h, as one rank of an MPI job or alone). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fleet_command.h"
#include "fleet_report.h"
#include "runs_compare.h"
#include "stdout_guard.h"
#include "worker.h"

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], GH_WORKER_ARG) == 0) return gh_worker_main(argc, argv);
    gh_stdio_guard_begin();
    /* A subcommand: results files compared (core/compare), no run. */
    int status = argc > 1 && strcmp(argv[1], "compare") == 0 ? gh_compare_main(argc - 1, argv + 1)
                 : argc > 1 && strcmp(argv[1], "merge") == 0 ? gh_fleet_merge_main(argc - 1, argv + 1)
                                                             : gh_fleet_command(argc, argv);
    char err[256];
    if (gh_stdout_check(err, sizeof err) != 0) { /* the table asked for is a report too */
        fprintf(stderr, "gemmhost: %s\n", err);
        if (status == EXIT_PASS) status = EXIT_NOT_RUN;
    }
    return status;
}
