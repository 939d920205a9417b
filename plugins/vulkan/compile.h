/* Building the kernels: SPIR-V modules (embedded, or from kernel_dir), the
 * pipeline layout, and one pipeline per (kernel, dtype, parameter values),
 * created on first use and kept until close. */
#ifndef GH_VULKAN_COMPILE_H
#define GH_VULKAN_COMPILE_H

#include "kernels.h"
#include "state.h"

/* The pipeline for (kernel, type slot (vkp_type_slot), v), created and cached on first use,
 * with the device's pipeline layout and descriptor set (d->layout, d->set);
 * v must have passed vkp_check_limits. */
gh_status vkp_pipeline(vkp_device *d, int kernel, int types, const vkp_variant *v, VkPipeline *out);
/* Destroys the device's pipelines, modules, layout and descriptor set (at close). */
void vkp_compile_release(vkp_device *d);

#endif
