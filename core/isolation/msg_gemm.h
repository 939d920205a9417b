/* The messages of a GEMM: its arguments (the buffers as the worker's
 * handles), GEMM, GEMM_ASYNC and GEMM_BATCH_ASYNC's requests, GEMM's reply,
 * and what STREAM_SYNCHRONIZE says each queued call measured. */
#ifndef GEMMHOST_MSG_GEMM_H
#define GEMMHOST_MSG_GEMM_H

#include "gemmhost/plugin.h"
#include "msg.h"
#include "msg_info.h"

/* gh_gemm_args with a, b and c holding the worker's buffer handles. */
/* clang-format off */
#define GH_MSG_GEMM_ARGS_FIELDS(X, T) \
    X(T, size, size)                  \
    X(T, u32, dtype)                  \
    X(T, u32, trans_a)                \
    X(T, u32, trans_b)                \
    X(T, i64, m)                      \
    X(T, i64, n)                      \
    X(T, i64, k)                      \
    X(T, f64, alpha)                  \
    X(T, f64, beta)                   \
    X(T, i64, lda)                    \
    X(T, i64, ldb)                    \
    X(T, i64, ldc)                    \
    X(T, ptr, a)                      \
    X(T, ptr, b)                      \
    X(T, ptr, c)                      \
    X(T, u64, a_offset)               \
    X(T, u64, b_offset)               \
    X(T, u64, c_offset)               \
    X(T, u32, explicit_types)         \
    X(T, u32, b_dtype)                \
    X(T, u32, c_dtype)                \
    X(T, f64, scale_a)                \
    X(T, f64, scale_b)                \
    X(T, f64, scale_c)                \
    X(T, i64_list, params)
/* clang-format on */
GH_MSG_OF(gh_gemm_args, GH_MSG_GEMM_ARGS_FIELDS, 1)
#define GH_MSG_DECL_gemm_args(m)     GH_MSG_DECL_STRUCT(gh_gemm_args, m)
#define GH_MSG_FIELD_gemm_args(T, m) GH_MSG_ENTRY(T, GH_FIELD_STRUCT, m, &gh_gemm_args_desc)

/* GEMM's request; timing_size is the caller's gh_gemm_timing.size (0 for none). */
/* clang-format off */
#define GH_MSG_GEMM_FIELDS(X, T) \
    X(T, i64, device)            \
    X(T, i64, kernel)            \
    X(T, gemm_args, args)        \
    X(T, u64, timing_size)
/* clang-format on */
GH_MSG(gh_msg_gemm, GH_MSG_GEMM_FIELDS)

/* GEMM_ASYNC's request. */
/* clang-format off */
#define GH_MSG_GEMM_ASYNC_FIELDS(X, T) \
    X(T, u64, stream)                  \
    X(T, i64, kernel)                  \
    X(T, gemm_args, args)              \
    X(T, u64, timing_size)
/* clang-format on */
GH_MSG(gh_msg_gemm_async, GH_MSG_GEMM_ASYNC_FIELDS)

/* GEMM_BATCH_ASYNC's request (ABI 1.6): n launches of one GEMM, one timing. */
/* clang-format off */
#define GH_MSG_GEMM_BATCH_ASYNC_FIELDS(X, T) \
    X(T, u64, stream)                        \
    X(T, i64, kernel)                        \
    X(T, gemm_args, args)                    \
    X(T, u32, n)                             \
    X(T, u64, timing_size)
/* clang-format on */
GH_MSG(gh_msg_gemm_batch_async, GH_MSG_GEMM_BATCH_ASYNC_FIELDS)

/* GEMM's reply: the plugin's gh_gemm_timing (split_*: ABI 1.6). */
/* clang-format off */
#define GH_MSG_GEMM_DONE_FIELDS(X, T) \
    X(T, f64, kernel_ms)              \
    X(T, u32, clock)                  \
    X(T, str, note)                   \
    X(T, u32, split_pieces)           \
    X(T, u32, split_precision)
/* clang-format on */
GH_MSG(gh_msg_gemm_done, GH_MSG_GEMM_DONE_FIELDS)

/* STREAM_SYNCHRONIZE's reply: per call queued since the last sync, in order. */
/* clang-format off */
#define GH_MSG_QUEUED_FIELDS(X, T) \
    X(T, u32, is_gemm)             \
    X(T, f64, ms)                  \
    X(T, f64, kernel_ms)           \
    X(T, u32, clock)               \
    X(T, str, note)                \
    X(T, u32, split_pieces)        \
    X(T, u32, split_precision)
/* clang-format on */
GH_MSG(gh_msg_queued, GH_MSG_QUEUED_FIELDS)
#define GH_MSG_DECL_queued_list(m)     GH_MSG_DECL_LIST(gh_msg_queued, m)
#define GH_MSG_FIELD_queued_list(T, m) GH_MSG_LIST_ENTRY(T, GH_FIELD_LIST, m, &gh_msg_queued_desc)
/* clang-format off */
#define GH_MSG_SYNCED_FIELDS(X, T) \
    X(T, queued_list, calls)
/* clang-format on */
GH_MSG(gh_msg_synced, GH_MSG_SYNCED_FIELDS)

#endif
