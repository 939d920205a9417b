/* The messages about memory: device buffers and the handles of buffers and
 * streams, copies between host and device, and sharing host segments. */
#ifndef GEMMHOST_MSG_BUFFERS_H
#define GEMMHOST_MSG_BUFFERS_H

#include "msg.h"

/* A handle (a worker's pointer): BUFFER_FREE, STREAM_DESTROY,
 * STREAM_SYNCHRONIZE and UNMAP's requests, BUFFER_ALLOC and STREAM_CREATE's
 * replies. */
#define GH_MSG_HANDLE_FIELDS(X, T) X(T, u64, handle)
GH_MSG(gh_msg_handle, GH_MSG_HANDLE_FIELDS)

#define GH_MSG_BUFFER_ALLOC_FIELDS(X, T) X(T, i64, device) X(T, u64, bytes)
GH_MSG(gh_msg_buffer_alloc, GH_MSG_BUFFER_ALLOC_FIELDS)

/* A host pointer: kind 0 NULL, 1 a place in a shared segment, 2 a non-NULL
 * pointer for zero bytes. */
#define GH_PLACE_NULL             0u
#define GH_PLACE_SEGMENT          1u
#define GH_PLACE_EMPTY            2u
#define GH_MSG_PLACE_FIELDS(X, T) X(T, u32, kind) X(T, u64, segment) X(T, u64, offset) X(T, u64, extent)
GH_MSG(gh_msg_place, GH_MSG_PLACE_FIELDS)
#define GH_MSG_DECL_place(m)     GH_MSG_DECL_STRUCT(gh_msg_place, m)
#define GH_MSG_FIELD_place(T, m) GH_MSG_ENTRY(T, GH_FIELD_STRUCT, m, &gh_msg_place_desc)

/* UPLOAD and DOWNLOAD. */
#define GH_MSG_COPY_FIELDS(X, T) X(T, u64, buffer) X(T, u64, offset) X(T, place, host) X(T, u64, bytes)
GH_MSG(gh_msg_copy, GH_MSG_COPY_FIELDS)

/* UPLOAD_2D_ASYNC and DOWNLOAD_2D_ASYNC. */
#define GH_MSG_COPY_2D_FIELDS(X, T) \
    X(T, u64, stream)               \
    X(T, u64, buffer)               \
    X(T, u64, offset)               \
    X(T, u64, pitch) X(T, place, host) X(T, u64, host_pitch) X(T, u64, width) X(T, u64, rows) X(T, u32, want_ms)
GH_MSG(gh_msg_copy_2d, GH_MSG_COPY_2D_FIELDS)

/* MAP (one way, with the segment's descriptor). */
#define GH_MSG_MAP_FIELDS(X, T) X(T, u64, segment) X(T, u64, size) X(T, u32, writable)
GH_MSG(gh_msg_map, GH_MSG_MAP_FIELDS)

#endif
