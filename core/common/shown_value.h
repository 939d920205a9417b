/* A value echoed in a message, shortened when long, so that a 5000-character
 * value cannot push the reason after it out of the message. */
#ifndef GEMMHOST_SHOWN_VALUE_H
#define GEMMHOST_SHOWN_VALUE_H

#include <stddef.h>

#define GH_SHOWN_KEEP 60  /* characters kept from the start of a long value */
#define GH_SHOWN_SIZE 112 /* a buffer that holds any shortened value */

/* value itself when it has at most 80 bytes; else its first GH_SHOWN_KEEP
 * characters (not cutting a UTF-8 sequence), "..." and its length, e.g.
 * "99999...9... (5001 characters)", written into buf. */
const char *gh_shown_value(const char *value, char *buf, size_t size);

#endif
