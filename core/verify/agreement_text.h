/* A case's agreement in words: one line that names the groups compactly,
 * for the terminal (the full member lists are in the JSON). */
#ifndef GEMMHOST_AGREEMENT_TEXT_H
#define GEMMHOST_AGREEMENT_TEXT_H

#include <stddef.h>
#include "result.h"

/* Items named in one group of the line before "+N more". */
enum { GH_AGREEMENT_ITEMS = 4 };

/* "agreement f32 nn 37x53x29: 3 groups (A: cpu naive, cpu tiled; B: opencl x3;
 * C: vulkan x3), max diff 0.102 of the bound". A backend whose outputs are all
 * in one group is "backend xN"; its device index shows only when the case ran
 * it on several. One group: "1 group, identical outputs (all N results)".
 * Returns a malloc'd string, NULL when out of memory. */
char *gh_agreement_line(const gh_agreement *a);
/* The group's letter in that line: A..Z, then 27, 28, ... */
void gh_agreement_group_name(char *out, size_t size, size_t group);

#endif
