/* Device and kernel infos across the worker socket: the worker packs what
 * the plugin returned, the host unpacks a deep copy that it owns, with the
 * same `size`, the same NULL strings and the same counts as the original, so
 * every check the host makes in process sees the same thing isolated. */
#ifndef GEMMHOST_WIRE_INFO_H
#define GEMMHOST_WIRE_INFO_H

#include "gemmhost/plugin.h"
#include "wire.h"

void gh_wire_device_info(gh_wire *w, const gh_device_info *info); /* NULL allowed */
/* NULL for a NULL info (or a bad message); free with gh_device_info_free. */
gh_device_info *gh_wire_get_device_info(gh_wire *w);
void gh_device_info_free(gh_device_info *info);

/* n_params and n_precisions are trusted only up to what one message holds. */
void gh_wire_kernel_info(gh_wire *w, const gh_kernel_info *info);
gh_kernel_info *gh_wire_get_kernel_info(gh_wire *w);
void gh_kernel_info_free(gh_kernel_info *info);

void gh_wire_options(gh_wire *w, const gh_option_info *options, size_t n);
/* The options' array (n entries; NULL when n is 0). */
gh_option_info *gh_wire_get_options(gh_wire *w, size_t *n);
void gh_options_free(gh_option_info *options, size_t n);

#endif
