/* The end of a run on the terminal, when not --verbose: what a newcomer
 * asked, in a screen. A line per device and kernel (counts of each status,
 * best GFLOP/s per dtype; a kernel that ran no case says why, once), one
 * agreement verdict per dtype with its worst case named, the fastest result
 * per dtype. Unsupported results are counted, not listed; the CSV and JSON keep every row, and --verbose shows them. */
#ifndef GEMMHOST_FIRST_SCREEN_H
#define GEMMHOST_FIRST_SCREEN_H

#include <stdio.h>
#include "result.h"

typedef struct gh_first_screen gh_first_screen;

/* The width the screen fits in where it can (a long name is shortened). */
enum { GH_FIRST_SCREEN_COLUMNS = 80 };

gh_first_screen *gh_first_screen_new(void); /* NULL when out of memory */
void gh_first_screen_free(gh_first_screen *s);
/* device_label: "0:Intel Core i7", as the table shows it. */
void gh_first_screen_result(gh_first_screen *s, const gh_result *res, const char *device_label);
void gh_first_screen_agreement(gh_first_screen *s, const gh_agreement *a);
/* The device and kernel lines. */
void gh_first_screen_kernels(const gh_first_screen *s, FILE *out);
/* The agreement per dtype and the fastest per dtype. */
void gh_first_screen_verdicts(const gh_first_screen *s, FILE *out);

#endif
