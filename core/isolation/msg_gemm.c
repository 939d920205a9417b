/* GEMMs and what streams measured: the tables; see msg_gemm.h. */
#include "msg_gemm.h"

GH_MSG_DEFINE(gh_gemm_args, GH_MSG_GEMM_ARGS_FIELDS, 1)
GH_MSG_DEFINE(gh_msg_gemm, GH_MSG_GEMM_FIELDS, 0)
GH_MSG_DEFINE(gh_msg_gemm_async, GH_MSG_GEMM_ASYNC_FIELDS, 0)
GH_MSG_DEFINE(gh_msg_gemm_done, GH_MSG_GEMM_DONE_FIELDS, 0)
GH_MSG_DEFINE(gh_msg_queued, GH_MSG_QUEUED_FIELDS, 0)
GH_MSG_DEFINE(gh_msg_synced, GH_MSG_SYNCED_FIELDS, 0)
