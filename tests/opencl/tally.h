/* Counting and printing results: one line per failure, skips grouped by reason. */
#ifndef GH_TEST_TALLY_H
#define GH_TEST_TALLY_H

#include "gemm_case.h"

typedef struct tally {
    int passed, failed, skipped;
    int verbose;             /* print passes too */
} tally;

void tally_record(tally *t, case_result r, const char *what, const char *why);

/* Prints each distinct skip reason with its count. */
void tally_print_skips(void);

#endif
