/*
 * Can OpenCL C reach Hopper's sm_90a instructions (wgmma, setmaxnreg) on
 * NVIDIA? Not directly: NVIDIA's OpenCL compiler emits PTX for .target
 * sm_90 (it takes -cl-nv-arch sm_90a and still does), where ptxas refuses
 * them. This checks the route around it that an OpenCL wgmma kernel would
 * take: build the source with the sm_90a instructions inside PTX comments
 * ("//SM90A ...", operands substituted like any inline asm), take the
 * program's PTX, uncomment them and retarget it to sm_90a, and load that as
 * a program binary, which the driver assembles and runs (the rewrite is
 * the plugin's own, plugins/opencl/ptx_rewrite.c, which kernel wgmma takes).
 *   sm90a_binary   exit 0: the route works; 1: it does not (says where);
 *                  77: no NVIDIA OpenCL device of compute capability 9.0.
 * The control: the same PTX left at sm_90 must fail to build, so the
 * uncommented instructions are really assembled.
 */
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "ptx_rewrite.h"

/* errors.c records failures for a plugin's last_error; here they are printed. */
GH_PLUGIN_DEFINE_ERROR_TEXT;

#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#define SKIP_EXIT                             77
#define GROUP                                 128 /* a warpgroup: wgmma.fence needs all four warps */

static const char *source =
    "__kernel __attribute__((reqd_work_group_size(128, 1, 1))) void k(__global uint *x) {\n"
    "    uint v = 1;\n"
    "    asm volatile(\"//SM90A wgmma.fence.sync.aligned;\" ::: \"memory\");\n"
    "    asm volatile(\"//SM90A mov.b32 %0, 7;\" : \"+r\"(v));\n"
    "    x[get_global_id(0)] = v;\n"
    "}\n";

static int failed(const char *call, cl_int code)
{
    char text[96];
    printf("FAIL: %s: %s\n", call, ocl_cl_code_text(code, text, sizeof text));
    return 1;
}

/* s with every `from` replaced by `to` (malloc'd). */
static char *replace_all(const char *s, const char *from, const char *to)
{
    size_t count = 0, lf = strlen(from), lt = strlen(to);
    for (const char *p = s; (p = strstr(p, from)) != NULL; p += lf) count++;
    char *out = malloc(strlen(s) + count * lt + 1), *o = out;
    if (!out) return NULL;
    for (const char *p = s;;) {
        const char *q = strstr(p, from);
        if (!q) {
            strcpy(o, p);
            return out;
        }
        memcpy(o, p, (size_t)(q - p));
        o += q - p;
        memcpy(o, to, lt);
        o += lt;
        p = q + lf;
    }
}

/* The first NVIDIA GPU of compute capability 9.0, or 0. */
static int find_hopper(cl_device_id *dev)
{
    cl_platform_id platforms[16];
    cl_uint n = 0;
    if (clGetPlatformIDs(16, platforms, &n) != CL_SUCCESS) return 0;
    for (cl_uint i = 0; i < n && i < 16; i++) {
        char name[256] = "";
        clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        cl_uint major = 0, minor = 0;
        if (!strstr(name, "NVIDIA") || clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_GPU, 1, dev, NULL) != CL_SUCCESS ||
            clGetDeviceInfo(*dev, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major, NULL) != CL_SUCCESS ||
            clGetDeviceInfo(*dev, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor, NULL) != CL_SUCCESS)
            continue;
        if (major == 9 && minor == 0) return 1;
    }
    return 0;
}

/* Builds a program from PTX; its build log into log. */
static cl_int build_ptx(cl_context ctx, cl_device_id dev, const char *ptx, cl_program *program, char *log,
                        size_t log_size)
{
    size_t length = strlen(ptx);
    const unsigned char *binaries[1] = {(const unsigned char *)ptx};
    cl_int status = CL_SUCCESS, e;
    log[0] = '\0'; /* read by the caller on every failure, the early ones too */
    *program = clCreateProgramWithBinary(ctx, 1, &dev, &length, binaries, &status, &e);
    if (e != CL_SUCCESS) return e;
    if (status != CL_SUCCESS) return status;
    e = clBuildProgram(*program, 1, &dev, "", NULL, NULL);
    clGetProgramBuildInfo(*program, dev, CL_PROGRAM_BUILD_LOG, log_size, log, NULL);
    return e;
}

int main(void)
{
    cl_device_id dev;
    if (!find_hopper(&dev)) {
        printf("skipped: no NVIDIA OpenCL device of compute capability 9.0 here\n");
        return SKIP_EXIT;
    }
    cl_int e;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    if (e != CL_SUCCESS) return failed("clCreateContext", e);
    cl_program from_source = clCreateProgramWithSource(ctx, 1, &source, NULL, &e);
    if (e != CL_SUCCESS) return failed("clCreateProgramWithSource", e);
    if ((e = clBuildProgram(from_source, 1, &dev, "", NULL, NULL)) != CL_SUCCESS)
        return failed("clBuildProgram (the source, sm_90a instructions in comments)", e);
    size_t size = 0;
    if ((e = clGetProgramInfo(from_source, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL)) != CL_SUCCESS)
        return failed("clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)", e);
    char *ptx = calloc(size + 1, 1);
    if (!ptx) return failed("calloc", CL_OUT_OF_HOST_MEMORY);
    if ((e = clGetProgramInfo(from_source, CL_PROGRAM_BINARIES, sizeof ptx, &ptx, NULL)) != CL_SUCCESS)
        return failed("clGetProgramInfo(CL_PROGRAM_BINARIES)", e);
    if (!strstr(ptx, ".target sm_90,") || !strstr(ptx, "//SM90A wgmma.fence")) {
        printf("FAIL: the program's PTX has no \".target sm_90,\" or no commented wgmma.fence:\n%s\n", ptx);
        return 1;
    }
    /* The control by hand; the route through the plugin's own rewrite. */
    char *uncommented = replace_all(ptx, OCL_SM90A_MARK, "");
    const char *why = "";
    char *retargeted = ocl_ptx_to_sm90a(ptx, &why);
    if (!uncommented || !retargeted) {
        printf("FAIL: rewriting the PTX: %s\n", uncommented ? why : "out of memory");
        return 1;
    }
    if (!strstr(retargeted, ".target sm_90a,") || strstr(retargeted, OCL_SM90A_MARK)) {
        printf("FAIL: ocl_ptx_to_sm90a left the target or a mark:\n%s\n", retargeted);
        return 1;
    }

    char log[4096];
    cl_program control;
    if (build_ptx(ctx, dev, uncommented, &control, log, sizeof log) == CL_SUCCESS ||
        !strstr(log, "not supported on .target 'sm_90'")) {
        printf("FAIL: the uncommented PTX at .target sm_90 built, or failed for another reason: %s\n", log);
        return 1;
    }
    printf("control: at .target sm_90 ptxas refuses it: %s", strstr(log, "Instruction"));

    cl_program program;
    if ((e = build_ptx(ctx, dev, retargeted, &program, log, sizeof log)) != CL_SUCCESS) {
        printf("build log: %s\n", log);
        return failed("the sm_90a PTX as a program binary", e);
    }
    cl_kernel kernel = clCreateKernel(program, "k", &e);
    if (e != CL_SUCCESS) return failed("clCreateKernel", e);
    cl_command_queue queue = clCreateCommandQueueWithProperties(ctx, dev, NULL, &e);
    if (e != CL_SUCCESS) return failed("clCreateCommandQueueWithProperties", e);
    cl_uint x[2 * GROUP] = {0};
    cl_mem buffer = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof x, x, &e);
    if (e != CL_SUCCESS) return failed("clCreateBuffer", e);
    if ((e = clSetKernelArg(kernel, 0, sizeof buffer, &buffer)) != CL_SUCCESS) return failed("clSetKernelArg", e);
    size_t global = 2 * GROUP, local = GROUP;
    if ((e = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL)) != CL_SUCCESS)
        return failed("clEnqueueNDRangeKernel", e);
    if ((e = clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof x, x, 0, NULL, NULL)) != CL_SUCCESS)
        return failed("clEnqueueReadBuffer (after the kernel)", e);
    for (int i = 0; i < 2 * GROUP; i++)
        if (x[i] != 7) {
            printf("FAIL: x[%d] = %u, 7 expected (the uncommented mov did not run)\n", i, x[i]);
            return 1;
        }
    printf("pass: OpenCL C with sm_90a instructions runs on this device through a retargeted PTX binary\n");
    clReleaseMemObject(buffer);
    clReleaseCommandQueue(queue);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    if (control) clReleaseProgram(control);
    clReleaseProgram(from_source);
    clReleaseContext(ctx);
    free(retargeted);
    free(uncommented);
    free(ptx);
    return 0;
}
