/* Shortened values for messages; see shown_value.h. */
#include "shown_value.h"

#include <stdio.h>
#include <string.h>

#define SHOWN_WHOLE_MAX 80 /* a value this long is echoed whole */

const char *gh_shown_value(const char *value, char *buf, size_t size)
{
    size_t len = strlen(value);
    if (len <= SHOWN_WHOLE_MAX || size == 0) return value;
    size_t keep = GH_SHOWN_KEEP;
    while (keep > 0 && ((unsigned char)value[keep] & 0xC0) == 0x80) keep--; /* a UTF-8 continuation byte */
    snprintf(buf, size, "%.*s... (%zu characters)", (int)keep, value, len);
    return buf;
}
