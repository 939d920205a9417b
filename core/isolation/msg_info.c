/* Device and kernel infos and option lists: the tables; see msg_info.h. */
#include "msg_info.h"

#include <stdlib.h>

GH_MSG_DEFINE(gh_msg_i64, GH_MSG_I64_FIELDS, 0)
GH_MSG_DEFINE(gh_device_info, GH_MSG_DEVICE_INFO_FIELDS, 1)
GH_MSG_DEFINE(gh_param_info, GH_MSG_PARAM_INFO_FIELDS, 1)
GH_MSG_DEFINE(gh_kernel_precision, GH_MSG_PRECISION_FIELDS, 1)
GH_MSG_DEFINE(gh_kernel_info, GH_MSG_KERNEL_INFO_FIELDS, 1)
GH_MSG_DEFINE(gh_option_info, GH_MSG_OPTION_INFO_FIELDS, 1)
GH_MSG_DEFINE(gh_msg_device_info, GH_MSG_DEVICE_INFO_REPLY_FIELDS, 0)
GH_MSG_DEFINE(gh_msg_kernel_info, GH_MSG_KERNEL_INFO_REPLY_FIELDS, 0)

void gh_device_info_free(gh_device_info *info)
{
    gh_msg_free(&gh_device_info_desc, info);
    free(info);
}

void gh_kernel_info_free(gh_kernel_info *info)
{
    gh_msg_free(&gh_kernel_info_desc, info);
    free(info);
}
