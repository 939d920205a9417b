#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tally.h"

#define MAX_REASONS 32

static struct { char text[512]; int count; } skip_reasons[MAX_REASONS];
static int n_reasons;

static void remember_skip(const char *why)
{
    for (int i = 0; i < n_reasons; i++)
        if (strcmp(skip_reasons[i].text, why) == 0) {
            skip_reasons[i].count++;
            return;
        }
    if (n_reasons < MAX_REASONS) {
        snprintf(skip_reasons[n_reasons].text, sizeof skip_reasons[n_reasons].text, "%s", why);
        skip_reasons[n_reasons++].count = 1;
    }
}

void tally_record(tally *t, case_result r, const char *what, const char *why)
{
    switch (r) {
    case CASE_PASS:
        t->passed++;
        if (t->verbose) printf("PASS %s\n", what);
        break;
    case CASE_SKIP:
        t->skipped++;
        remember_skip(why);
        if (t->verbose) printf("SKIP %s: %s\n", what, why);
        break;
    case CASE_FAIL:
        t->failed++;
        printf("FAIL %s: %s\n", what, why);
        break;
    }
    fflush(stdout);
}

void tally_print_skips(void)
{
    for (int i = 0; i < n_reasons; i++)
        printf("skipped %d x: %s\n", skip_reasons[i].count, skip_reasons[i].text);
}
