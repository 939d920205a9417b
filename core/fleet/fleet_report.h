/* The fleet report (docs/fleet.md): every rank's results document put
 * together into one, with each result's rank and host, an agreement table
 * across ranks and hosts, and the ranks that are missing or did not finish.
 * Rank 0 builds it from what the ranks sent over MPI; `gemmhost merge
 * PREFIX` builds the same from the ranks' own files (PREFIX.rank-N.json and
 * .jsonl), for a job that died. No MPI here. */
#ifndef GEMMHOST_FLEET_REPORT_H
#define GEMMHOST_FLEET_REPORT_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* A rank's report, as sent to rank 0: {"rank", "host", "local_rank",
 * "size", "status" (its exit status), "idle" (nothing placed on it), "why"
 * (what stopped it before results, or null), "file", "doc" (its results
 * document, or null)}. The document is read back from json_path, or from
 * log_path when that holds more (a rank stopped between checkpoints). */
char *gh_fleet_rank_report(int rank, const char *host, int local_rank, int size, int status, int idle, const char *why,
                           const char *json_path, const char *log_path);

/* The per-rank file prefix: PREFIX.rank-N (a prefix naming a folder gets
 * FOLDER/gemmhost-results.rank-N). The caller's. */
char *gh_fleet_rank_prefix(const char *prefix, int rank);
/* The fleet file prefix: PREFIX, or FOLDER/gemmhost-results. The caller's. */
char *gh_fleet_prefix(const char *prefix);

/* Of two exit statuses, the worse: a signal's, then a usage error, a failed
 * result, a run with nothing run, a pass. */
int gh_fleet_worse_status(int a, int b);

/* The fleet document from the rank reports (reports[r] for rank r, NULL
 * for a rank that sent none or left no file) of a job of `size` ranks:
 * stolen. Its "fleet" member lists every rank with what became of it. */
json_t *gh_fleet_merge(json_t **reports, int size);

/* Whether the fleet file `path` may be written by a run of `experiment`:
 * nothing there, or a fleet file of the same experiment, or overwrite.
 * Anything else (a single run's results, another experiment's fleet, not
 * gemmhost's) is -1 with err saying what is there and what goes on. */
int gh_fleet_file_check(const char *path, const char *experiment, int overwrite, char *err, size_t err_size);

/* Writes it to PREFIX.json (whole, or not at all). 0, or -1 with err. */
int gh_fleet_write(const json_t *fleet, const char *path, char *err, size_t err_size);

/* The terminal report: a line per rank, the agreement across ranks per
 * dtype (verbose: first each case's groups and their members), each
 * failure and note with its rank, the totals (quiet: the totals alone).
 * Returns the fleet's exit
 * status: the worst of the ranks', a missing or unfinished rank counting as
 * a failed result. */
int gh_fleet_print(const json_t *fleet, FILE *out, int quiet, int verbose);

/* Adds "agreement" to the fleet document: per case, the groups of
 * bit-identical outputs across every rank and the largest difference
 * between groups in units of the bound, from the fingerprints
 * (fleet_agreement.c). */
void gh_fleet_agreement(json_t *fleet);
/* Rank 0 with whole outputs ([run] fleet_outputs_max, fleet_exact.c): each
 * agreement entry whose every group's output is in `kept` gets its distance
 * measured element by element against the case's reference (drawn again
 * from run's seed), as the single-machine agreement measures it, and
 * "distance": "exact"; the others keep their fingerprints' distance,
 * "distance": "fingerprints". */
struct gh_kept_outputs;
struct gh_run_config;
void gh_fleet_exact_agreement(json_t *fleet, const struct gh_kept_outputs *kept, const struct gh_run_config *run);

/* `gemmhost merge PREFIX [--output OUT]`: argv[0] is "merge". */
int gh_fleet_merge_main(int argc, char **argv);

#endif
