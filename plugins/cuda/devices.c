/* Device discovery, device info, making a device current, events; see devices.h. */
#include "devices.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"

/* The kernel module's version ("580.159.04"): what users know the driver by,
 * while cuDriverGetVersion only says which CUDA it supports. "" if unknown. */
static void read_kernel_module_version(char *out, size_t out_size)
{
    out[0] = '\0';
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    if (!f) return;
    char line[512];
    if (fgets(line, sizeof line, f)) {
        /* "NVRM version: NVIDIA UNIX [Open Kernel Module for] x86_64  580.159.04  Release ...":
         * the first word after "Module" that starts with a digit and has a dot. */
        const char *p = strstr(line, "Module");
        while (p && *p) {
            size_t len = strcspn(p, " \t\n");
            if (len > 0 && len < out_size && p[0] >= '0' && p[0] <= '9' && memchr(p, '.', len)) {
                memcpy(out, p, len);
                out[len] = '\0';
                break;
            }
            p += len;
            p += strspn(p, " \t\n");
        }
    }
    fclose(f);
}

static gh_status get_attribute(gh_plugin *ctx, gh_cuda_device *d, CUdevice_attribute attr, const char *attr_name,
                               int *value)
{
    return gh_cu_check(ctx->cu->cuDeviceGetAttribute(value, attr, d->handle), "cuDeviceGetAttribute(%s) for device %d",
                       attr_name, d->index);
}
#define GH_ATTR(ctx, d, attr, out) get_attribute((ctx), (d), attr, #attr, (out))

/* Releases whatever open_device got as far as creating: the events, the
 * stream and the primary context. What the layers above keep per device
 * (modules, a cuBLAS handle) is theirs to free first (entry.c's close). */
static void close_device(gh_plugin *ctx, gh_cuda_device *d)
{
    const gh_cu_api *cu = ctx->cu;
    if (!d->context) return;
    /* Cleanup can only report, not stop: keep going and leave the reason. */
    gh_cu_check(cu->cuCtxSetCurrent(d->context), "cuCtxSetCurrent for device %d", d->index);
    if (d->stop) gh_cu_check(cu->cuEventDestroy(d->stop), "cuEventDestroy on device %d", d->index);
    if (d->start) gh_cu_check(cu->cuEventDestroy(d->start), "cuEventDestroy on device %d", d->index);
    if (d->stream) gh_cu_check(cu->cuStreamDestroy(d->stream), "cuStreamDestroy on device %d", d->index);
    gh_cuda_gate_free(cu, &d->gate);
    gh_cu_check(cu->cuCtxSetCurrent(NULL), "cuCtxSetCurrent(NULL)");
    gh_cu_check(cu->cuDevicePrimaryCtxRelease(d->handle), "cuDevicePrimaryCtxRelease for device %d", d->index);
    d->context = NULL;
}

/* The device's PCI address as sysfs names it: lower case, a 4-digit domain
 * (the driver may give 8). Unknown ("") when the driver cannot say: the
 * address only places host threads (ABI minor 3), it never fails a device. */
static void read_pci_address(const gh_cu_api *cu, gh_cuda_device *d)
{
    char id[64] = "";
    d->pci_address[0] = '\0';
    if (cu->cuDeviceGetPCIBusId(id, (int)sizeof id, d->handle) != CUDA_SUCCESS) return;
    const char *p = id;
    if (strlen(id) == 16 && strncmp(id, "0000", 4) == 0) p += 4; /* "00000000:1B:00.0" */
    size_t i = 0;
    for (; p[i] && i + 1 < sizeof d->pci_address; i++) d->pci_address[i] = (char)tolower((unsigned char)p[i]);
    d->pci_address[i] = '\0';
}

static gh_status open_device(gh_plugin *ctx, int ordinal, int driver_version, gh_cuda_device *d)
{
    const gh_cu_api *cu = ctx->cu;
    gh_status st;
    memset(d, 0, sizeof *d);
    d->index = ordinal;

    if ((st = gh_cu_check(cu->cuDeviceGet(&d->handle, ordinal), "cuDeviceGet(%d)", ordinal))) return st;
    if ((st = gh_cu_check(cu->cuDeviceGetName(d->name, (int)sizeof d->name, d->handle), "cuDeviceGetName for device %d",
                          ordinal)))
        return st;
    size_t total_mem = 0;
    if ((st = gh_cu_check(cu->cuDeviceTotalMem(&total_mem, d->handle), "cuDeviceTotalMem for device %d", ordinal)))
        return st;
    if ((st = GH_ATTR(ctx, d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &d->cc_major)) ||
        (st = GH_ATTR(ctx, d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &d->cc_minor)) ||
        (st = GH_ATTR(ctx, d, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &d->sm_count)) ||
        (st = GH_ATTR(ctx, d, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &d->max_threads_per_block)) ||
        (st = GH_ATTR(ctx, d, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, &d->max_shared_per_block)) ||
        (st = GH_ATTR(ctx, d, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, &d->max_shared_per_block_optin)) ||
        (st = GH_ATTR(ctx, d, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, &d->max_grid_x)) ||
        (st = GH_ATTR(ctx, d, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, &d->max_grid_y)) ||
        (st = GH_ATTR(ctx, d, CU_DEVICE_ATTRIBUTE_MAX_PITCH, &d->max_pitch)))
        return st;

    /* The primary context is the one the CUDA runtime (and so cuBLAS) uses,
     * which lets our kernels and cuBLAS share buffers and the stream. */
    if ((st = gh_cu_check(cu->cuDevicePrimaryCtxRetain(&d->context, d->handle),
                          "cuDevicePrimaryCtxRetain for device %d", ordinal)))
        return st;
    if ((st = gh_cu_check(cu->cuCtxSetCurrent(d->context), "cuCtxSetCurrent for device %d", ordinal)) ||
        (st = gh_cu_check(cu->cuStreamCreate(&d->stream, CU_STREAM_DEFAULT), "cuStreamCreate on device %d", ordinal)) ||
        (st = gh_cu_check(cu->cuEventCreate(&d->start, CU_EVENT_DEFAULT), "cuEventCreate on device %d", ordinal)) ||
        (st = gh_cu_check(cu->cuEventCreate(&d->stop, CU_EVENT_DEFAULT), "cuEventCreate on device %d", ordinal))) {
        close_device(ctx, d);
        return st;
    }

    char module_version[64];
    read_kernel_module_version(module_version, sizeof module_version);
    int cuda_major = driver_version / 1000, cuda_minor = driver_version % 1000 / 10;
    if (module_version[0])
        snprintf(d->driver_version, sizeof d->driver_version, "%s (CUDA %d.%d)", module_version, cuda_major,
                 cuda_minor);
    else snprintf(d->driver_version, sizeof d->driver_version, "CUDA %d.%d", cuda_major, cuda_minor);
    snprintf(d->api, sizeof d->api, "CUDA %d.%d driver API, sm_%d%d, NVRTC", cuda_major, cuda_minor, d->cc_major,
             d->cc_minor);

    read_pci_address(cu, d);
    d->info = (gh_device_info){
        .size = sizeof(gh_device_info),
        .name = d->name,
        .vendor = "NVIDIA",
        .driver_version = d->driver_version,
        .api = d->api,
        .platform = "",
        .global_mem_bytes = total_mem,
        .local_mem_bytes = (uint64_t)d->max_shared_per_block,
        .compute_units = (uint32_t)d->sm_count,
        .max_workgroup_size = (uint32_t)d->max_threads_per_block,
        .is_software = 0,
        .has_fp64 = 1,
        .pci_address = d->pci_address,
    };
    return GH_OK;
}

gh_status gh_cuda_devices_open(gh_plugin *ctx)
{
    const char *why = NULL;
    ctx->cu = gh_cuda_driver(&why);
    if (!ctx->cu) {
        snprintf(ctx->no_device, sizeof ctx->no_device, "%s", why);
        return GH_OK;
    }
    const gh_cu_api *cu = ctx->cu;
    int driver_version = 0, count = 0;
    if (gh_cu_check(cu->cuDriverGetVersion(&driver_version), "cuDriverGetVersion") ||
        gh_cu_check(cu->cuDeviceGetCount(&count), "cuDeviceGetCount")) {
        snprintf(ctx->no_device, sizeof ctx->no_device, "CUDA driver found but %.960s", gh_plugin_last_error(NULL));
        return GH_OK;
    }
    if (count <= 0) {
        snprintf(ctx->no_device, sizeof ctx->no_device, "CUDA driver found but no CUDA device (cuDeviceGetCount: 0)");
        return GH_OK;
    }
    ctx->devices = calloc((size_t)count, sizeof *ctx->devices);
    if (!ctx->devices) return gh_plugin_set_error(GH_OUT_OF_MEMORY, "out of host memory for %d CUDA devices", count);

    for (int i = 0; i < count; ++i) {
        gh_cuda_device *d = &ctx->devices[ctx->n_devices];
        if (open_device(ctx, i, driver_version, d) == GH_OK) {
            ctx->n_devices++;
            continue;
        }
        /* Keep the others usable; say which one is missing and why. */
        size_t used = strlen(ctx->no_device);
        snprintf(ctx->no_device + used, sizeof ctx->no_device - used, "%sCUDA device %d left out: %.900s",
                 used ? "; " : "", i, gh_plugin_last_error(NULL));
    }
    /* The primary contexts stay current on no thread: each call sets its own. */
    cu->cuCtxSetCurrent(NULL);
    return GH_OK;
}

void gh_cuda_devices_close(gh_plugin *ctx)
{
    for (int i = 0; i < ctx->n_devices; ++i) close_device(ctx, &ctx->devices[i]);
    free(ctx->devices);
    ctx->devices = NULL;
    ctx->n_devices = 0;
}

gh_status gh_cuda_check_device(const gh_plugin *ctx, const char *call, int device)
{
    if (!ctx) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: no context (NULL)", call);
    return gh_plugin_check_device(call, device, ctx->n_devices, ctx->no_device);
}

gh_status gh_cuda_device_enter(gh_plugin *ctx, const char *call, int device, gh_cuda_device **out)
{
    gh_status st = gh_cuda_check_device(ctx, call, device);
    if (st) return st;
    gh_cuda_device *d = &ctx->devices[device];
    st = gh_cu_check(ctx->cu->cuCtxSetCurrent(d->context), "%s: cuCtxSetCurrent for device %d", call, d->index);
    if (st == GH_OK) *out = d;
    return st;
}

gh_status gh_cuda_device_use(gh_plugin *ctx, const gh_cuda_device *dev)
{
    return gh_cu_check(ctx->cu->cuCtxSetCurrent(dev->context), "cuCtxSetCurrent for device %d", dev->index);
}

gh_status gh_cuda_record(gh_plugin *ctx, const gh_cuda_device *dev, CUevent ev, CUstream stream)
{
    if (!ev) return GH_OK;
    return gh_cu_check(ctx->cu->cuEventRecord(ev, stream), "cuEventRecord on device %d", dev->index);
}

gh_status gh_cuda_wait_elapsed(gh_plugin *ctx, const gh_cuda_device *dev, CUevent start, CUevent stop, const char *what,
                               double *ms)
{
    const gh_cu_api *cu = ctx->cu;
    gh_status st;
    if ((st =
             gh_cu_check(cu->cuEventSynchronize(stop), "%s on device %d (waiting for it to finish)", what, dev->index)))
        return st;
    float elapsed = 0.0f;
    if ((st =
             gh_cu_check(cu->cuEventElapsedTime(&elapsed, start, stop), "cuEventElapsedTime on device %d", dev->index)))
        return st;
    *ms = elapsed;
    return GH_OK;
}

int gh_cuda_device_count(gh_plugin *ctx)
{
    if (!ctx) return 0;
    /* plugin.h: with no device, last_error() says why. */
    if (ctx->n_devices == 0) gh_plugin_set_error(GH_NO_DEVICE, "%s", ctx->no_device);
    return ctx->n_devices;
}

const gh_device_info *gh_cuda_device_info(gh_plugin *ctx, int device)
{
    if (!ctx || device < 0 || device >= ctx->n_devices) {
        gh_plugin_set_error(GH_INVALID_ARGUMENT, "device_info: device %d does not exist", device);
        return NULL;
    }
    return &ctx->devices[device].info;
}

gh_status gh_cuda_synchronize(gh_plugin *ctx, int device)
{
    gh_cuda_device *dev = NULL;
    gh_status st = gh_cuda_device_enter(ctx, "synchronize", device, &dev);
    if (st) return st;
    return gh_cu_check(ctx->cu->cuCtxSynchronize(), "synchronize: cuCtxSynchronize on device %d", dev->index);
}
