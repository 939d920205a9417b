/* A kernel parameter set to `auto` in a [backend] (tile = auto): for each
 * case, the tune cache's best for the plugin, device, driver version,
 * kernel, dtype and size class of the case (tune_cache.h); without one, the
 * parameter's default. The result row says which (params_note). */
#ifndef GEMMHOST_TUNE_AUTO_H
#define GEMMHOST_TUNE_AUTO_H

#include <stddef.h>
#include "plan.h"
#include "tune_cache.h"

/* `out` becomes a copy of v whose params (allocated: the caller frees
 * out->params) and label have every `auto` one resolved for a case of this
 * case's types (A's is its dtype) and shape; `note` says where the values
 * came from. `cache` may be NULL (none could be found: defaults). */
void gh_tune_auto_resolve(const gh_tune_cache *cache, const gh_instance *inst, int device, const gh_kernel_variant *v,
                          const gh_case_types *types, gh_shape shape, gh_kernel_variant *out, char *note,
                          size_t note_size);

#endif
