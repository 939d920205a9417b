/* Freeing a decoded info; see msg_info.h. */
#include "msg_info.h"

#include <stdlib.h>

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
