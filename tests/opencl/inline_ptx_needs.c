/*
 * Which devices the plugin's inline-PTX kernels (mma, wgmma) accept:
 * ocl_inline_ptx_device_fits (plugins/opencl/kernels.c, compiled into this
 * test) on made-up devices, so the compute-capability rules are checked
 * without the GPUs they name: mma on 8.0 and newer, wgmma on 9.0 alone,
 * neither off NVIDIA, and each refusal naming what it lacks.
 */
#define CHECK_MAIN
#include <string.h>
#include <gemmhost/plugin_helpers.h>
#include "../check.h"
#include "kernels.h"
#include "state.h"

/* The plugin's error text, which GH_PLUGIN_ENTRY defines in the plugin. */
GH_PLUGIN_THREAD_LOCAL char gh_plugin_error_text[GH_PLUGIN_ERROR_SIZE];

static void expect(int kernel, unsigned major, unsigned minor, int fits, const char *named)
{
    char name[] = "Made-up GPU", platform[] = "Made-up Platform";
    ocl_device dev;
    memset(&dev, 0, sizeof dev);
    dev.name = name;
    dev.platform_name = platform;
    dev.nv_cc_major = major;
    dev.nv_cc_minor = minor;
    char why[512] = "";
    const int got = ocl_inline_ptx_device_fits(kernel, &dev, why, sizeof why);
    const char *kernel_name = ocl_kernels[kernel].info.name;
    if (fits) CHECK(got == 1, "%s on compute capability %u.%u runs (refused: %s)", kernel_name, major, minor, why);
    else
        CHECK(got == 0 && strstr(why, named) && strstr(why, name),
              "%s on %s %u.%u is refused, naming '%s' and the device (got %d: %s)", kernel_name,
              major ? "compute capability" : "a device off NVIDIA, no compute capability", major, minor, named, got,
              why);
}

int main(void)
{
    expect(OCL_KERNEL_MMA, 0, 0, 0, "inline PTX");
    expect(OCL_KERNEL_MMA, 0, 0, 0, "cl_intel_subgroup_matrix_multiply_accumulate");
    expect(OCL_KERNEL_MMA, 7, 5, 0, "8.0 or newer");
    expect(OCL_KERNEL_MMA, 8, 0, 1, NULL);
    expect(OCL_KERNEL_MMA, 8, 9, 1, NULL);
    expect(OCL_KERNEL_MMA, 9, 0, 1, NULL);
    expect(OCL_KERNEL_MMA, 10, 0, 1, NULL);

    expect(OCL_KERNEL_WGMMA, 0, 0, 0, "sm_90a");
    expect(OCL_KERNEL_WGMMA, 8, 9, 0, "9.0 exactly");
    expect(OCL_KERNEL_WGMMA, 9, 0, 1, NULL);
    expect(OCL_KERNEL_WGMMA, 10, 0, 0, "sm_90a");
    expect(OCL_KERNEL_WGMMA, 12, 0, 0, "9.0 exactly");

    /* Kernels of plain OpenCL C run anywhere. */
    expect(OCL_KERNEL_WARPTILE, 0, 0, 1, NULL);
    return check_summary("opencl inline-PTX device rules");
}
