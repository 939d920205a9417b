/* The C plugin's buffers: host memory standing in for device memory, and
 * the host memory of ABI minor 1 (plain memory: the CPU copies from anything
 * equally fast). */
#ifndef GEMMHOST_CPU_BUFFERS_H
#define GEMMHOST_CPU_BUFFERS_H

#include "state.h"

/* The buffer_alloc, buffer_free, upload and download members. */
gh_plugin_buffer_alloc_fn cpu_buffer_alloc;
gh_plugin_buffer_free_fn cpu_buffer_free;
gh_plugin_upload_fn cpu_upload;
gh_plugin_download_fn cpu_download;
gh_plugin_host_alloc_fn cpu_host_alloc;
gh_plugin_host_free_fn cpu_host_free;
gh_plugin_host_register_fn cpu_host_register;
gh_plugin_host_unregister_fn cpu_host_unregister;
/* What the argument checks of plugin_helpers.h need to know of a buffer. */
gh_plugin_extent_of_fn cpu_extent;

#endif
