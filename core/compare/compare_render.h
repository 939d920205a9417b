/* The comparison document (runs_analysis.h, with "environment") as a
 * terminal report or as Markdown for a pull request. */
#ifndef GEMMHOST_COMPARE_RENDER_H
#define GEMMHOST_COMPARE_RENDER_H

#include <jansson.h>
#include <stdio.h>

typedef enum gh_compare_style { GH_COMPARE_TEXT, GH_COMPARE_MARKDOWN } gh_compare_style;

void gh_compare_render(FILE *out, const json_t *doc, gh_compare_style style);

#endif
