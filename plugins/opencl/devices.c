#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CL/cl_ext.h>
#include "devices.h"
#include "errors.h"

#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000 /* cl_nv_device_attribute_query */
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#endif
#ifndef CL_DEVICE_PCI_BUS_ID_NV
#define CL_DEVICE_PCI_BUS_ID_NV  0x4008 /* cl_nv_device_attribute_query */
#define CL_DEVICE_PCI_SLOT_ID_NV 0x4009 /* device << 3 | function */
#endif
#ifndef CL_DEVICE_PCI_DOMAIN_ID_NV
#define CL_DEVICE_PCI_DOMAIN_ID_NV 0x400A /* newer drivers only */
#endif
#ifndef CL_DEVICE_REGISTERS_PER_BLOCK_NV
#define CL_DEVICE_REGISTERS_PER_BLOCK_NV 0x4002 /* cl_nv_device_attribute_query */
#endif

/* A string query of a platform or device, in a new allocation ("?" when the
 * query fails: a description is not worth failing open() over). */
static char *query_string(cl_int (*query)(void *, cl_uint, size_t, void *, size_t *), void *object, cl_uint param)
{
    size_t size = 0;
    char *text = NULL;
    if (query(object, param, 0, NULL, &size) == CL_SUCCESS && size > 0 && (text = malloc(size + 1))) {
        if (query(object, param, size, text, NULL) == CL_SUCCESS) {
            text[size] = '\0';
            return text;
        }
        free(text);
    }
    text = malloc(2);
    if (text) strcpy(text, "?");
    return text;
}

/* Adapters: the OpenCL queries differ only in the type of their object. */
static cl_int platform_query(void *p, cl_uint param, size_t size, void *value, size_t *ret)
{
    return clGetPlatformInfo((cl_platform_id)p, param, size, value, ret);
}

static cl_int device_query(void *d, cl_uint param, size_t size, void *value, size_t *ret)
{
    return clGetDeviceInfo((cl_device_id)d, param, size, value, ret);
}

static int contains_ignoring_case(const char *haystack, const char *needle)
{
    size_t n = strlen(needle);
    for (; *haystack; haystack++) {
        size_t i = 0;
        while (i < n && haystack[i] && tolower((unsigned char)haystack[i]) == tolower((unsigned char)needle[i])) i++;
        if (i == n) return 1;
    }
    return n == 0;
}

/* Whether the device's extension string names `extension` (whole words only). */
static int has_extension(const char *extensions, const char *extension)
{
    size_t n = strlen(extension);
    for (const char *s = extensions; s && (s = strstr(s, extension)); s += n)
        if ((s == extensions || s[-1] == ' ') && (s[n] == ' ' || s[n] == '\0')) return 1;
    return 0;
}

/* Where the device sits on the PCI bus, as sysfs names it: through
 * cl_khr_pci_bus_info, else NVIDIA's attribute query; "" when neither
 * answers (PoCL's CPU device, a driver without either). The host maps the
 * device to its NVML device and NUMA node by it. */
static void read_pci_address(cl_device_id id, const char *extensions, char *out, size_t size)
{
    out[0] = '\0';
#ifdef CL_DEVICE_PCI_BUS_INFO_KHR
    cl_device_pci_bus_info_khr bus;
    if (has_extension(extensions, "cl_khr_pci_bus_info") &&
        clGetDeviceInfo(id, CL_DEVICE_PCI_BUS_INFO_KHR, sizeof bus, &bus, NULL) == CL_SUCCESS) {
        snprintf(out, size, "%04x:%02x:%02x.%x", bus.pci_domain & 0xffffu, bus.pci_bus & 0xffu, bus.pci_device & 0x1fu,
                 bus.pci_function & 0x7u);
        return;
    }
#endif
    cl_uint bus_id = 0, slot = 0, domain = 0;
    if (has_extension(extensions, "cl_nv_device_attribute_query") &&
        clGetDeviceInfo(id, CL_DEVICE_PCI_BUS_ID_NV, sizeof bus_id, &bus_id, NULL) == CL_SUCCESS &&
        clGetDeviceInfo(id, CL_DEVICE_PCI_SLOT_ID_NV, sizeof slot, &slot, NULL) == CL_SUCCESS) {
        if (clGetDeviceInfo(id, CL_DEVICE_PCI_DOMAIN_ID_NV, sizeof domain, &domain, NULL) != CL_SUCCESS) domain = 0;
        snprintf(out, size, "%04x:%02x:%02x.%x", domain & 0xffffu, bus_id & 0xffu, (slot >> 3) & 0x1fu, slot & 0x7u);
    }
}

/* A device offers f64 when it reports a double-precision configuration or,
 * for drivers that leave that query empty, the cl_khr_fp64 extension. */
static int device_has_fp64(cl_device_id id, const char *extensions)
{
    cl_device_fp_config fp64 = 0;
    if (clGetDeviceInfo(id, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL) == CL_SUCCESS && fp64) return 1;
    return has_extension(extensions, "cl_khr_fp64");
}

static gh_status describe_device(ocl_device *dev, cl_platform_id platform, cl_device_id id, const char *platform_name)
{
    memset(dev, 0, sizeof *dev);
    dev->platform = platform;
    dev->id = id;
    dev->name = query_string(device_query, id, CL_DEVICE_NAME);
    dev->vendor = query_string(device_query, id, CL_DEVICE_VENDOR);
    dev->driver_version = query_string(device_query, id, CL_DRIVER_VERSION);
    dev->api = query_string(device_query, id, CL_DEVICE_VERSION);
    dev->platform_name = malloc(strlen(platform_name) + 1);
    if (!dev->name || !dev->vendor || !dev->driver_version || !dev->api || !dev->platform_name)
        return gh_plugin_set_error(GH_OUT_OF_MEMORY, "out of host memory describing an OpenCL device");
    strcpy(dev->platform_name, platform_name);

    /* Numbers stay 0 where a query fails; the limits checked before a launch
     * are queried again there with their errors reported. */
    cl_device_type type = 0;
    cl_ulong global_mem = 0, local_mem = 0;
    cl_uint compute_units = 0;
    size_t max_wg = 0;
    clGetDeviceInfo(id, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    clGetDeviceInfo(id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global_mem, &global_mem, NULL);
    clGetDeviceInfo(id, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_mem, &local_mem, NULL);
    clGetDeviceInfo(id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof compute_units, &compute_units, NULL);
    clGetDeviceInfo(id, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL);
    clGetDeviceInfo(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof dev->max_alloc_bytes, &dev->max_alloc_bytes, NULL);
    clGetDeviceInfo(id, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof dev->max_work_item_sizes, dev->max_work_item_sizes, NULL);
    char *extensions = query_string(device_query, id, CL_DEVICE_EXTENSIONS);
    if (!extensions) return gh_plugin_set_error(GH_OUT_OF_MEMORY, "out of host memory describing an OpenCL device");
    /* NVIDIA's: build options for ptxas (register limit, verbose), and the
     * register file a work-group shares. */
    dev->nv_compiler_options = has_extension(extensions, "cl_nv_compiler_options");
    dev->has_fp16 = has_extension(extensions, "cl_khr_fp16");
    if (has_extension(extensions, "cl_nv_device_attribute_query")) {
        clGetDeviceInfo(id, CL_DEVICE_REGISTERS_PER_BLOCK_NV, sizeof dev->nv_registers_per_block,
                        &dev->nv_registers_per_block, NULL);
        /* Which PTX instructions inline assembly may use (kernel mma). */
        clGetDeviceInfo(id, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof dev->nv_cc_major, &dev->nv_cc_major, NULL);
        clGetDeviceInfo(id, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof dev->nv_cc_minor, &dev->nv_cc_minor, NULL);
    }

    char pci[32];
    read_pci_address(id, extensions, pci, sizeof pci);
    if (!(dev->pci_address = malloc(strlen(pci) + 1))) {
        free(extensions);
        return gh_plugin_set_error(GH_OUT_OF_MEMORY, "out of host memory describing an OpenCL device");
    }
    strcpy(dev->pci_address, pci);

    dev->info = (gh_device_info){
        .size = sizeof(gh_device_info),
        .name = dev->name,
        .vendor = dev->vendor,
        .driver_version = dev->driver_version,
        .api = dev->api,
        .platform = dev->platform_name,
        .global_mem_bytes = global_mem,
        .local_mem_bytes = local_mem,
        .compute_units = compute_units,
        .max_workgroup_size = (uint32_t)max_wg,
        /* A CPU device (PoCL, Intel's CPU runtime) is software running on
         * the host, whatever the driver calls itself. */
        .is_software = (type & CL_DEVICE_TYPE_CPU) ? 1 : 0,
        .has_fp64 = device_has_fp64(id, extensions),
        .pci_address = dev->pci_address,
    };
    free(extensions);
    return GH_OK;
}

/* Appends to a fixed-size text, cutting it short rather than overflowing. */
static void append(char *text, size_t size, const char *fmt, const char *arg)
{
    size_t used = strlen(text);
    if (used + 1 < size) snprintf(text + used, size - used, fmt, arg);
}

gh_status ocl_devices_discover(gh_plugin *ctx, const char *platform_filter)
{
    char code_text[96];
    cl_uint n_platforms = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &n_platforms);
    if (err != CL_SUCCESS || n_platforms == 0) {
        /* The ICD loader says CL_PLATFORM_NOT_FOUND_KHR when it found no
         * driver at all; the usual cause is a missing vendor file. */
        snprintf(ctx->no_device_reason, sizeof ctx->no_device_reason,
                 "no OpenCL platform found (clGetPlatformIDs: %s): is an ICD installed? "
                 "see /etc/OpenCL/vendors (or OCL_ICD_VENDORS)",
                 err != CL_SUCCESS ? ocl_cl_code_text(err, code_text, sizeof code_text) : "0 platforms");
        return GH_OK;
    }
    cl_platform_id *platforms = calloc(n_platforms, sizeof *platforms);
    if (!platforms) return gh_plugin_set_error(GH_OUT_OF_MEMORY, "out of host memory listing OpenCL platforms");
    err = clGetPlatformIDs(n_platforms, platforms, NULL);
    if (err != CL_SUCCESS) {
        free(platforms);
        snprintf(ctx->no_device_reason, sizeof ctx->no_device_reason,
                 "no OpenCL platform could be listed (clGetPlatformIDs: %s)",
                 ocl_cl_code_text(err, code_text, sizeof code_text));
        return GH_OK;
    }

    /* What was seen, for the reason given when no device is left. */
    char seen[768] = "";
    int matched_platforms = 0;
    gh_status status = GH_OK;
    for (cl_uint p = 0; p < n_platforms && status == GH_OK; p++) {
        char *pname = query_string(platform_query, platforms[p], CL_PLATFORM_NAME);
        if (!pname) {
            status = gh_plugin_set_error(GH_OUT_OF_MEMORY, "out of host memory");
            break;
        }
        append(seen, sizeof seen, seen[0] ? ", '%s'" : "'%s'", pname);
        if (platform_filter && !contains_ignoring_case(pname, platform_filter)) {
            free(pname);
            continue;
        }
        matched_platforms++;

        cl_uint n_devices = 0;
        err = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &n_devices);
        if (err != CL_SUCCESS || n_devices == 0) {
            append(seen, sizeof seen, " (no devices: clGetDeviceIDs: %s)",
                   err != CL_SUCCESS ? ocl_cl_code_text(err, code_text, sizeof code_text) : "0 devices");
            free(pname);
            continue;
        }
        cl_device_id *ids = calloc(n_devices, sizeof *ids);
        ocl_device *grown = realloc(ctx->devices, (size_t)(ctx->device_count + (int)n_devices) * sizeof *grown);
        if (!ids || !grown) {
            free(ids);
            free(pname);
            status = gh_plugin_set_error(GH_OUT_OF_MEMORY, "out of host memory listing OpenCL devices");
            break;
        }
        ctx->devices = grown;
        err = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, n_devices, ids, NULL);
        if (err != CL_SUCCESS) {
            append(seen, sizeof seen, " (no devices: clGetDeviceIDs: %s)",
                   ocl_cl_code_text(err, code_text, sizeof code_text));
            n_devices = 0;
        }
        for (cl_uint d = 0; d < n_devices && status == GH_OK; d++) {
            status = describe_device(&ctx->devices[ctx->device_count], platforms[p], ids[d], pname);
            ctx->device_count++; /* counted even when half-described, so release frees it */
        }
        free(ids);
        free(pname);
    }
    free(platforms);
    if (status != GH_OK) return status;

    if (ctx->device_count == 0) {
        if (matched_platforms == 0)
            snprintf(ctx->no_device_reason, sizeof ctx->no_device_reason,
                     "no OpenCL platform name contains '%s' (platforms found: %s)", platform_filter, seen);
        else
            snprintf(ctx->no_device_reason, sizeof ctx->no_device_reason, "no OpenCL device found (platforms: %s)",
                     seen);
    }
    return GH_OK;
}

gh_status ocl_device_ready(ocl_device *dev)
{
    if (dev->queue) return GH_OK;
    cl_int err;
    if (!dev->context) {
        cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)dev->platform, 0};
        dev->context = clCreateContext(props, 1, &dev->id, NULL, NULL, &err);
        if (err != CL_SUCCESS) {
            dev->context = NULL;
            return ocl_fail_cl(err, "clCreateContext", "cannot open OpenCL device '%s'", dev->name);
        }
    }
    dev->queue = clCreateCommandQueue(dev->context, dev->id, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS) {
        dev->queue = NULL;
        return ocl_fail_cl(err, "clCreateCommandQueue", "cannot open a queue on OpenCL device '%s'", dev->name);
    }
    return GH_OK;
}

void ocl_devices_release(gh_plugin *ctx)
{
    for (int i = 0; i < ctx->device_count; i++) {
        ocl_device *dev = &ctx->devices[i];
        if (dev->queue) clReleaseCommandQueue(dev->queue);
        if (dev->context) clReleaseContext(dev->context);
        free(dev->name);
        free(dev->vendor);
        free(dev->driver_version);
        free(dev->api);
        free(dev->platform_name);
        free(dev->pci_address);
    }
    free(ctx->devices);
    ctx->devices = NULL;
    ctx->device_count = 0;
}

int ocl_device_count(gh_plugin *ctx)
{
    if (!ctx) return 0;
    /* Set again here, so that last_error() after device_count() explains a 0
     * whichever thread opened the context. */
    if (ctx->device_count == 0) gh_plugin_set_error(GH_NO_DEVICE, "%s", ctx->no_device_reason);
    return ctx->device_count;
}

const gh_device_info *ocl_device_info(gh_plugin *ctx, int device)
{
    if (!ctx || gh_plugin_check_index("device_info", "device", device, ctx->device_count) != GH_OK) return NULL;
    return &ctx->devices[device].info;
}

gh_status ocl_synchronize(gh_plugin *ctx, int device)
{
    gh_status status = gh_plugin_check_device("synchronize", device, ctx->device_count, ctx->no_device_reason);
    if (status != GH_OK) return status;
    ocl_device *dev = &ctx->devices[device];
    if (!dev->queue) return GH_OK; /* nothing was ever queued */
    cl_int err = clFinish(dev->queue);
    if (err != CL_SUCCESS) return ocl_fail_cl(err, "clFinish", "synchronize: '%s'", dev->name);
    return GH_OK;
}
