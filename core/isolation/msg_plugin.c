/* Loading, opening, refusals and counts: the tables; see msg_plugin.h. */
#include "msg_plugin.h"

GH_MSG_DEFINE(gh_msg_load, GH_MSG_LOAD_FIELDS, 0)
GH_MSG_DEFINE(gh_msg_load_refused, GH_MSG_LOAD_REFUSED_FIELDS, 0)
GH_MSG_DEFINE(gh_msg_loaded, GH_MSG_LOADED_FIELDS, 0)
GH_MSG_DEFINE(gh_option_value, GH_MSG_OPTION_VALUE_FIELDS, 0)
GH_MSG_DEFINE(gh_msg_open, GH_MSG_OPEN_FIELDS, 0)
GH_MSG_DEFINE(gh_msg_error, GH_MSG_ERROR_FIELDS, 0)
GH_MSG_DEFINE(gh_msg_index, GH_MSG_INDEX_FIELDS, 0)
GH_MSG_DEFINE(gh_msg_device_count, GH_MSG_DEVICE_COUNT_FIELDS, 0)
