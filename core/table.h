/* The terminal table: results as they arrive, with the split members and
 * each case's agreement under them, and the notes that explain the rest. */
#ifndef GEMMHOST_TABLE_H
#define GEMMHOST_TABLE_H

#include <stdio.h>
#include "report.h"
#include "result.h"

typedef struct gh_table gh_table;

/* NULL when out of memory. */
gh_table *gh_table_open(FILE *out);
void gh_table_result(gh_table *t, const gh_result *res);
void gh_table_split_members(gh_table *t, const gh_report_split_member *members, size_t n);
void gh_table_agreement(gh_table *t, const gh_agreement *a);
void gh_table_note(gh_table *t, const char *text);
/* Flushes and frees; NULL is fine. */
void gh_table_close(gh_table *t);

#endif
