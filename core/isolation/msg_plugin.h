/* The messages of a worker's life: loading the plugin, opening its context,
 * a refusal's words, and the small replies about devices and kernels. */
#ifndef GEMMHOST_MSG_PLUGIN_H
#define GEMMHOST_MSG_PLUGIN_H

#include "gemmhost/plugin.h"
#include "msg.h"
#include "msg_info.h"

/* LOAD's request. */
#define GH_MSG_LOAD_FIELDS(X, T) X(T, str, path)
GH_MSG(gh_msg_load, GH_MSG_LOAD_FIELDS)

/* LOAD's reply with status 1: the loader's words. */
#define GH_MSG_LOAD_REFUSED_FIELDS(X, T) X(T, str, error) X(T, u32, abi_major)
GH_MSG(gh_msg_load_refused, GH_MSG_LOAD_REFUSED_FIELDS)

/* LOAD's reply with status 0: the table's static data. flags: see
 * GH_LOADED_HAS_STREAMS and GH_LOADED_HAS_HOST_ALLOC. */
#define GH_MSG_DECL_option_info_list(m)     GH_MSG_DECL_LIST(gh_option_info, m)
#define GH_MSG_FIELD_option_info_list(T, m) GH_MSG_LIST_ENTRY(T, GH_FIELD_LIST, m, &gh_option_info_desc)
#define GH_MSG_LOADED_FIELDS(X, T) \
    X(T, u32, abi_major)           \
    X(T, u32, abi_minor)           \
    X(T, str, name) X(T, str, description) X(T, str, version) X(T, option_info_list, options) X(T, u32, flags)
GH_MSG(gh_msg_loaded, GH_MSG_LOADED_FIELDS)
#define GH_LOADED_HAS_STREAMS       1u /* the six stream members */
#define GH_LOADED_HAS_HOST_ALLOC    2u /* host_alloc and host_free */
#define GH_LOADED_HAS_HOST_REGISTER 4u /* host_register and host_unregister (minor 4) */

/* OPEN's request: the options, name and value each. */
#define GH_MSG_OPTION_VALUE_FIELDS(X, T) X(T, str, name) X(T, str, value)
GH_MSG_OF(gh_option_value, GH_MSG_OPTION_VALUE_FIELDS, 0)
#define GH_MSG_DECL_option_value_list(m)     GH_MSG_DECL_LIST(gh_option_value, m)
#define GH_MSG_FIELD_option_value_list(T, m) GH_MSG_LIST_ENTRY(T, GH_FIELD_LIST, m, &gh_option_value_desc)
#define GH_MSG_OPEN_FIELDS(X, T)             X(T, option_value_list, options)
GH_MSG(gh_msg_open, GH_MSG_OPEN_FIELDS)

/* Any reply other than GH_OK: the plugin's last_error() text. */
#define GH_MSG_ERROR_FIELDS(X, T) X(T, str, why)
GH_MSG(gh_msg_error, GH_MSG_ERROR_FIELDS)

/* A device or kernel index (DEVICE_INFO, KERNEL_INFO, SYNCHRONIZE and
 * STREAM_CREATE's requests), or KERNEL_COUNT's reply. */
#define GH_MSG_INDEX_FIELDS(X, T) X(T, i64, index)
GH_MSG(gh_msg_index, GH_MSG_INDEX_FIELDS)

/* DEVICE_COUNT's reply: the count, and last_error() when it is <= 0. */
#define GH_MSG_DEVICE_COUNT_FIELDS(X, T) X(T, i64, count) X(T, str, why)
GH_MSG(gh_msg_device_count, GH_MSG_DEVICE_COUNT_FIELDS)

#endif
