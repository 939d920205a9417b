/* The host CPU as a gh_device_info; see devices.h. */
#define _GNU_SOURCE
#include "devices.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The CPU's model name, from /proc/cpuinfo where there is one. */
static void read_cpu_name(char *out, size_t size)
{
    snprintf(out, size, "host CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0) continue;
        const char *colon = strchr(line, ':');
        if (!colon) break;
        colon++;
        while (*colon == ' ' || *colon == '\t') colon++;
        snprintf(out, size, "%s", colon);
        out[strcspn(out, "\n")] = '\0';
        break;
    }
    fclose(f);
}

void cpu_describe_device(gh_plugin *ctx, int threads)
{
    read_cpu_name(ctx->device_name, sizeof ctx->device_name);
    snprintf(ctx->api, sizeof ctx->api, "C11 + pthreads (%d threads)", threads);
    long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
    ctx->info = (gh_device_info){
        .size = sizeof(gh_device_info),
        .name = ctx->device_name,
        .vendor = "host",
        .driver_version = "n/a",
        .api = ctx->api,
        .platform = "",
        .global_mem_bytes = pages > 0 && page_size > 0 ? (uint64_t)pages * (uint64_t)page_size : 0,
        .local_mem_bytes = 0,
        .compute_units = (uint32_t)threads,
        .max_workgroup_size = 0,
        .is_software = 1,
        .has_fp64 = 1,
        .pci_address = ctx->pci_address,
    };
    /* For tests only: a PCI address a fake libnvidia-ml answers for
     * (tests/run/fake_nvml.c), so the host's GPU sampling runs without a GPU. */
    const char *fake = getenv("GEMMHOST_CPU_FAKE_PCI_ADDRESS");
    snprintf(ctx->pci_address, sizeof ctx->pci_address, "%s", fake ? fake : "");
}
