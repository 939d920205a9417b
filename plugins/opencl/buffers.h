/* Device memory (cl_mem) and blocking copies to and from it. */
#ifndef GH_OPENCL_BUFFERS_H
#define GH_OPENCL_BUFFERS_H

#include <gemmhost/plugin_helpers.h>
#include "state.h"

/* The buffer_alloc, buffer_free, upload and download members. */
gh_plugin_buffer_alloc_fn ocl_buffer_alloc;
gh_plugin_buffer_free_fn ocl_buffer_free;
gh_plugin_upload_fn ocl_upload;
gh_plugin_download_fn ocl_download;

/* A buffer's size and device, for the argument checks of plugin_helpers.h. */
gh_plugin_extent_of_fn ocl_buffer_extent;

/* Frees every buffer still alive on the device (at close). */
void ocl_buffers_release(ocl_device *dev);

#endif
