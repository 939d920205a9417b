/* Registering host memory: the tables; see msg_host.h. */
#include "msg_host.h"

GH_MSG_DEFINE(gh_msg_host_register, GH_MSG_HOST_REGISTER_FIELDS, 0)
GH_MSG_DEFINE(gh_msg_host_registered, GH_MSG_HOST_REGISTERED_FIELDS, 0)
