/* Buffers, copies and shared segments: the tables; see msg_buffers.h. */
#include "msg_buffers.h"

GH_MSG_DEFINE(gh_msg_handle, GH_MSG_HANDLE_FIELDS, 0)
GH_MSG_DEFINE(gh_msg_buffer_alloc, GH_MSG_BUFFER_ALLOC_FIELDS, 0)
GH_MSG_DEFINE(gh_msg_place, GH_MSG_PLACE_FIELDS, 0)
GH_MSG_DEFINE(gh_msg_copy, GH_MSG_COPY_FIELDS, 0)
GH_MSG_DEFINE(gh_msg_copy_2d, GH_MSG_COPY_2D_FIELDS, 0)
GH_MSG_DEFINE(gh_msg_map, GH_MSG_MAP_FIELDS, 0)
