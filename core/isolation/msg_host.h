/* The message about registering host memory (ABI minor 4): a worker makes
 * its own mapping of a shared segment reachable by DMA (pinned, imported). */
#ifndef GEMMHOST_MSG_HOST_H
#define GEMMHOST_MSG_HOST_H

#include "msg.h"
#include "msg_buffers.h"

/* HOST_REGISTER's request: the segment (any place inside it; the worker
 * registers its whole view), and GH_HOST_REGISTER_READ_ONLY for the
 * read-only view, 0 for the read-write one. */
#define GH_MSG_HOST_REGISTER_FIELDS(X, T) X(T, place, host) X(T, u32, flags)
GH_MSG(gh_msg_host_register, GH_MSG_HOST_REGISTER_FIELDS)

/* HOST_REGISTER's reply with GH_OK: what the plugin did. */
#define GH_MSG_HOST_REGISTERED_FIELDS(X, T) X(T, str, how)
GH_MSG(gh_msg_host_registered, GH_MSG_HOST_REGISTERED_FIELDS)

#endif
