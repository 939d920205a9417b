/* Every message's table of fields, made once from the field lists of the
 * msg_*.h headers (see GH_MSG_TABLE in msg.h). */
#define GH_MSG_TABLES
#include "msg_buffers.h"
#include "msg_gemm.h"
#include "msg_info.h"
#include "msg_host.h"
#include "msg_plugin.h"
