/* See gate.h. */
#include "gate.h"

#include "errors.h"

/* How long the holding kernel waits for the flag at most. */
#define GH_GATE_LIMIT_NS 50000000ull

/* Spins on the mapped flag until it reaches `want`, or `limit_ns` of the
 * GPU's global timer have passed. PTX, JIT-compiled by the driver for any
 * device: no NVRTC needed, and nothing to go stale. */
static const char gate_ptx[] =
    ".version 7.0\n"
    ".target sm_52\n"
    ".address_size 64\n"
    ".visible .entry gh_gate_hold(.param .u64 flag, .param .u32 want, .param .u64 limit_ns)\n"
    "{\n"
    "    .reg .pred %p<3>;\n"
    "    .reg .b32 %r<3>;\n"
    "    .reg .b64 %rd<7>;\n"
    "    ld.param.u64 %rd1, [flag];\n"
    "    ld.param.u32 %r1, [want];\n"
    "    ld.param.u64 %rd2, [limit_ns];\n"
    "    cvta.to.global.u64 %rd3, %rd1;\n"
    "    mov.u64 %rd4, %globaltimer;\n"
    "WAIT:\n"
    "    ld.volatile.global.u32 %r2, [%rd3];\n"
    "    setp.ge.u32 %p1, %r2, %r1;\n"
    "    @%p1 bra DONE;\n"
    "    mov.u64 %rd5, %globaltimer;\n"
    "    sub.u64 %rd6, %rd5, %rd4;\n"
    "    setp.lt.u64 %p2, %rd6, %rd2;\n"
    "    @%p2 bra WAIT;\n"
    "DONE:\n"
    "    ret;\n"
    "}\n";

static gh_status make_gate(const gh_cu_api *cu, int device_index, gh_cuda_gate *g)
{
    void *p = NULL;
    gh_status st =
        gh_cu_check(cu->cuMemHostAlloc(&p, sizeof(uint32_t), CU_MEMHOSTALLOC_DEVICEMAP),
                    "cuMemHostAlloc(4 bytes, CU_MEMHOSTALLOC_DEVICEMAP) for device %d's timing gate", device_index);
    if (st) return st;
    g->flag = p;
    *g->flag = 0;
    g->next = 1;
    if ((st = gh_cu_check(cu->cuMemHostGetDevicePointer(&g->flag_device, p, 0),
                          "cuMemHostGetDevicePointer for device %d's timing gate", device_index)) ||
        (st = gh_cu_check(cu->cuModuleLoadData(&g->module, gate_ptx),
                          "cuModuleLoadData (the timing gate's PTX) on device %d", device_index)) ||
        (st = gh_cu_check(cu->cuModuleGetFunction(&g->hold, g->module, "gh_gate_hold"),
                          "cuModuleGetFunction(gh_gate_hold) on device %d", device_index)))
        gh_cuda_gate_free(cu, g);
    return st;
}

gh_status gh_cuda_gate_shut(const gh_cu_api *cu, int device_index, gh_cuda_gate *g, CUstream stream)
{
    gh_status st = g->hold ? GH_OK : make_gate(cu, device_index, g);
    if (st) return st;
    unsigned long long limit = GH_GATE_LIMIT_NS;
    void *params[] = {&g->flag_device, &g->next, &limit};
    st = gh_cu_check(cu->cuLaunchKernel(g->hold, 1, 1, 1, 1, 1, 1, 0, stream, params, NULL),
                     "cuLaunchKernel(the timing gate) on device %d", device_index);
    if (st == GH_OK) g->shut = 1;
    return st;
}

void gh_cuda_gate_open(gh_cuda_gate *g)
{
    if (!g->shut) return;
    __atomic_store_n(g->flag, g->next, __ATOMIC_SEQ_CST);
    g->next++;
    g->shut = 0;
}

gh_status gh_cuda_timed_begin(const gh_cu_api *cu, int device_index, const gh_cuda_timed *t, CUstream stream)
{
    if (!t || !t->start) return GH_OK;
    gh_status st = t->gate ? gh_cuda_gate_shut(cu, device_index, t->gate, stream) : GH_OK;
    if (st) return st;
    return gh_cu_check(cu->cuEventRecord(t->start, stream), "cuEventRecord on device %d", device_index);
}

gh_status gh_cuda_timed_end(const gh_cu_api *cu, int device_index, const gh_cuda_timed *t, CUstream stream)
{
    if (!t || !t->stop) return GH_OK;
    return gh_cu_check(cu->cuEventRecord(t->stop, stream), "cuEventRecord on device %d", device_index);
}

void gh_cuda_gate_free(const gh_cu_api *cu, gh_cuda_gate *g)
{
    if (g->module) gh_cu_check(cu->cuModuleUnload(g->module), "cuModuleUnload (the timing gate)");
    if (g->flag) gh_cu_check(cu->cuMemFreeHost((void *)g->flag), "cuMemFreeHost (the timing gate)");
    *g = (gh_cuda_gate){0};
}
