/* --list: every plugin found, its devices, kernels and options, and why a
 * plugin could not be loaded or opened; as text, JSON or one line each. */
#ifndef GEMMHOST_LIST_H
#define GEMMHOST_LIST_H

#include "loader.h"

typedef enum gh_list_mode {
    GH_LIST_TEXT,   /* everything, for people */
    GH_LIST_JSON,   /* everything, for programs (like clinfo --json) */
    GH_LIST_SUMMARY /* one line per plugin and per device */
} gh_list_mode;

/* Prints on stdout; returns the exit status (0). */
int gh_list_plugins(gh_plugin_set *set, gh_list_mode mode);

#endif
