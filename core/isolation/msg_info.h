/* Infos across the worker socket: the worker sends what the plugin
 * returned, the host decodes a deep copy that it owns, with the same `size`,
 * the same NULL strings and the same counts as the original, so every check
 * the host makes in process sees the same thing isolated. Members a
 * plugin's shorter struct lacks travel as zeros and stay outside the copy's
 * `size`; counts are trusted only up to what one message holds. */
#ifndef GEMMHOST_MSG_INFO_H
#define GEMMHOST_MSG_INFO_H

#include "gemmhost/plugin.h"
#include "msg.h"

/* A list element of int64_t (a param's allowed values, a GEMM's params). */
typedef struct gh_msg_i64 {
    int64_t value;
} gh_msg_i64;
/* clang-format off */
#define GH_MSG_I64_FIELDS(X, T) \
    X(T, i64, value)
/* clang-format on */
GH_MSG_OF(gh_msg_i64, GH_MSG_I64_FIELDS, 0)
#define GH_MSG_FIELD_i64_list(T, m) GH_MSG_LIST_ENTRY(T, GH_FIELD_FLAGGED_LIST, m, &gh_msg_i64_desc)

/* clang-format off */
#define GH_MSG_DEVICE_INFO_FIELDS(X, T) \
    X(T, size, size)                    \
    X(T, str, name)                     \
    X(T, str, vendor)                   \
    X(T, str, driver_version)           \
    X(T, str, api)                      \
    X(T, str, platform)                 \
    X(T, u64, global_mem_bytes)         \
    X(T, u64, local_mem_bytes)          \
    X(T, u32, compute_units)            \
    X(T, u32, max_workgroup_size)       \
    X(T, u32, is_software)              \
    X(T, u32, has_fp64)                 \
    X(T, str_set, pci_address)
/* clang-format on */
GH_MSG_OF(gh_device_info, GH_MSG_DEVICE_INFO_FIELDS, 1)

/* clang-format off */
#define GH_MSG_PARAM_INFO_FIELDS(X, T) \
    X(T, size, size)                   \
    X(T, str, name)                    \
    X(T, str, description)             \
    X(T, i64, default_value)           \
    X(T, i64_list, allowed)            \
    X(T, i64, min_value)               \
    X(T, i64, max_value)
/* clang-format on */
GH_MSG_OF(gh_param_info, GH_MSG_PARAM_INFO_FIELDS, 1)

/* clang-format off */
#define GH_MSG_PRECISION_FIELDS(X, T) \
    X(T, size, size)                  \
    X(T, u32, dtype)                  \
    X(T, u32, inputs)                 \
    X(T, u32, accumulate)
/* clang-format on */
GH_MSG_OF(gh_kernel_precision, GH_MSG_PRECISION_FIELDS, 1)

/* (ABI 1.5) */
/* clang-format off */
#define GH_MSG_TYPE_COMBO_FIELDS(X, T) \
    X(T, size, size)                   \
    X(T, u32, a)                       \
    X(T, u32, b)                       \
    X(T, u32, c)                       \
    X(T, u32, inputs)                  \
    X(T, u32, accumulate)              \
    X(T, u32, accumulate_bits)         \
    X(T, u32, promote_every)
/* clang-format on */
GH_MSG_OF(gh_type_combo, GH_MSG_TYPE_COMBO_FIELDS, 1)

#define GH_MSG_FIELD_param_list(T, m)     GH_MSG_LIST_ENTRY(T, GH_FIELD_FLAGGED_LIST, m, &gh_param_info_desc)
#define GH_MSG_FIELD_precision_list(T, m) GH_MSG_LIST_ENTRY(T, GH_FIELD_FLAGGED_LIST, m, &gh_kernel_precision_desc)
#define GH_MSG_FIELD_combo_list(T, m)     GH_MSG_LIST_ENTRY(T, GH_FIELD_FLAGGED_LIST, m, &gh_type_combo_desc)
/* clang-format off */
#define GH_MSG_KERNEL_INFO_FIELDS(X, T) \
    X(T, size, size)                    \
    X(T, str, name)                     \
    X(T, str, description)              \
    X(T, u32, dtypes)                   \
    X(T, param_list, params)            \
    X(T, precision_list, precisions)    \
    X(T, combo_list, combos)
/* clang-format on */
GH_MSG_OF(gh_kernel_info, GH_MSG_KERNEL_INFO_FIELDS, 1)

/* clang-format off */
#define GH_MSG_OPTION_INFO_FIELDS(X, T) \
    X(T, size, size)                    \
    X(T, str, name)                     \
    X(T, str, description)              \
    X(T, str, default_value)
/* clang-format on */
GH_MSG_OF(gh_option_info, GH_MSG_OPTION_INFO_FIELDS, 1)

/* The replies to DEVICE_INFO and KERNEL_INFO: u32 present, then the info. */
#define GH_MSG_DECL_device_info_ptr(m)     gh_device_info *m;
#define GH_MSG_FIELD_device_info_ptr(T, m) GH_MSG_ENTRY(T, GH_FIELD_OPTIONAL, m, &gh_device_info_desc)
/* clang-format off */
#define GH_MSG_DEVICE_INFO_REPLY_FIELDS(X, T) \
    X(T, device_info_ptr, info)
/* clang-format on */
GH_MSG(gh_msg_device_info, GH_MSG_DEVICE_INFO_REPLY_FIELDS)

#define GH_MSG_DECL_kernel_info_ptr(m)     gh_kernel_info *m;
#define GH_MSG_FIELD_kernel_info_ptr(T, m) GH_MSG_ENTRY(T, GH_FIELD_OPTIONAL, m, &gh_kernel_info_desc)
/* clang-format off */
#define GH_MSG_KERNEL_INFO_REPLY_FIELDS(X, T) \
    X(T, kernel_info_ptr, info)
/* clang-format on */
GH_MSG(gh_msg_kernel_info, GH_MSG_KERNEL_INFO_REPLY_FIELDS)

/* A decoded info and all it holds (NULL allowed). */
void gh_device_info_free(gh_device_info *info);
void gh_kernel_info_free(gh_kernel_info *info);

#endif
