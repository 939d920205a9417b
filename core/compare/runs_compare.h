/* `gemmhost compare A.json B.json [C.json ...]`: results files from other
 * machines, drivers or builds compared: speed, status, outputs, and what
 * differs between their environments. */
#ifndef GEMMHOST_RUNS_COMPARE_H
#define GEMMHOST_RUNS_COMPARE_H

/* argv[0] is "compare". Returns the exit status: 0 nothing regressed, 1 a
 * regression, 2 a usage error or files that cannot be compared. */
int gh_compare_main(int argc, char **argv);

#endif
