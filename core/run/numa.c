/* NUMA placement from sysfs; see numa.h. The system calls go through
 * syscall(2) so that no libnuma is needed: mbind and get_mempolicy are all
 * the split uses of it. */
#define _GNU_SOURCE
#include "numa.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* From <linux/mempolicy.h>, spelled here to need no kernel headers. */
#define GH_MPOL_BIND    2
#define GH_MPOL_MF_MOVE (1 << 1)
#define GH_MPOL_F_NODE  (1 << 0)
#define GH_MPOL_F_ADDR  (1 << 1)
#define GH_MAX_NODES    1024

const char *gh_device_pci_address(const gh_device_info *d)
{
    if (!d || !GH_HAS_MEMBER(d, gh_device_info, pci_address) || !d->pci_address) return "";
    return d->pci_address;
}

const char *gh_numa_sysfs_root(void)
{
    const char *root = getenv("GEMMHOST_SYSFS_ROOT");
    return root && *root ? root : "/sys";
}

static void mask_set(gh_cpu_mask *m, long cpu)
{
    m->bits[cpu / 64] |= (uint64_t)1 << (cpu % 64);
}

static int mask_has(const gh_cpu_mask *m, long cpu)
{
    return (m->bits[cpu / 64] >> (cpu % 64)) & 1;
}

/* A CPU number at *p, advancing it; -1 when there is none or it is too large. */
static long cpu_number(const char **p)
{
    if (!isdigit((unsigned char)**p)) return -1;
    char *end;
    errno = 0;
    long v = strtol(*p, &end, 10);
    if (errno || v >= GH_MAX_CPUS) return -2;
    *p = end;
    return v;
}

int gh_numa_parse_cpulist(const char *text, gh_cpu_mask *set, char *err, size_t err_size)
{
    memset(set, 0, sizeof *set);
    size_t len = strlen(text);
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' ')) len--;
    char *copy = strndup(text, len);
    if (!copy) {
        snprintf(err, err_size, "out of memory reading a cpulist");
        return -1;
    }
    int count = 0;
    const char *p = copy;
    while (*p) {
        const char *item = p;
        long lo = cpu_number(&p), hi = lo;
        if (lo >= 0 && *p == '-') {
            p++;
            hi = cpu_number(&p);
        }
        if (lo < 0 || hi < 0 || hi < lo || (*p && *p != ',')) {
            size_t n = strcspn(item, ",");
            snprintf(err, err_size, "cpulist \"%s\": \"%.*s\" is not a CPU or a range of CPUs (like 0-3) below %d",
                     copy, (int)n, item, GH_MAX_CPUS);
            free(copy);
            return -1;
        }
        for (long c = lo; c <= hi; c++)
            if (!mask_has(set, c)) {
                mask_set(set, c);
                count++;
            }
        if (*p == ',') {
            p++;
            if (!*p) { /* "0-3," */
                snprintf(err, err_size, "cpulist \"%s\": ends with a comma", copy);
                free(copy);
                return -1;
            }
        }
    }
    free(copy);
    return count;
}

/* The first line of a file, without its newline; -1 with why when unreadable. */
static int read_line(const char *path, char *buf, size_t size, char *why, size_t why_size)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, why_size, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    if (!fgets(buf, (int)size, f)) buf[0] = '\0';
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

int gh_numa_pci_node(const char *root, const char *pci, char *why, size_t why_size)
{
    char path[1024], text[64];
    if (!pci || !*pci) {
        snprintf(why, why_size, "the device has no PCI address");
        return -1;
    }
    if (strchr(pci, '/') || strstr(pci, "..")) {
        snprintf(why, why_size, "PCI address \"%s\" is not one sysfs could name", pci);
        return -1;
    }
    snprintf(path, sizeof path, "%s/bus/pci/devices/%s/numa_node", root, pci);
    if (read_line(path, text, sizeof text, why, why_size) != 0) return -1;
    char *end;
    errno = 0;
    long node = strtol(text, &end, 10);
    if (end == text || *end || errno || node < -1 || node >= GH_MAX_NODES) {
        snprintf(why, why_size, "%s holds \"%s\", not a node number", path, text);
        return -1;
    }
    if (node < 0) snprintf(why, why_size, "%s is -1: the machine gives the device no NUMA node", path);
    return (int)node;
}

int gh_numa_node_cpus(const char *root, int node, gh_cpu_mask *set, char *why, size_t why_size)
{
    char path[1024], text[4096], err[512];
    snprintf(path, sizeof path, "%s/devices/system/node/node%d/cpulist", root, node);
    if (read_line(path, text, sizeof text, why, why_size) != 0) return -1;
    int n = gh_numa_parse_cpulist(text, set, err, sizeof err);
    if (n < 0) snprintf(why, why_size, "%s: %s", path, err);
    else if (n == 0) snprintf(why, why_size, "%s lists no CPU", path);
    return n > 0 ? n : -1;
}

void gh_numa_place_device(const char *root, const gh_device_info *info, gh_numa_place *out)
{
    memset(out, 0, sizeof *out);
    out->node = gh_numa_pci_node(root, gh_device_pci_address(info), out->why, sizeof out->why);
    if (out->node < 0) return;
    out->n_cpus = gh_numa_node_cpus(root, out->node, &out->cpus, out->why, sizeof out->why);
    if (out->n_cpus < 0) {
        out->node = -1;
        out->n_cpus = 0;
    }
}

int gh_numa_pin_thread(const gh_cpu_mask *cpus, char *why, size_t why_size)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    for (long c = 0; c < GH_MAX_CPUS && c < CPU_SETSIZE; c++)
        if (mask_has(cpus, c)) CPU_SET((int)c, &set);
    int rc = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    if (rc != 0) {
        snprintf(why, why_size, "pthread_setaffinity_np: %s", strerror(rc));
        return -1;
    }
    return 0;
}

int gh_numa_move(void *addr, size_t bytes, int node, char *why, size_t why_size)
{
    if (node < 0 || node >= GH_MAX_NODES) {
        snprintf(why, why_size, "mbind: node %d out of range", node);
        return -1;
    }
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t start = (uintptr_t)addr & ~(page - 1), end = ((uintptr_t)addr + bytes + page - 1) & ~(page - 1);
    unsigned long mask[GH_MAX_NODES / (8 * sizeof(unsigned long))] = {0};
    mask[(size_t)node / (8 * sizeof(unsigned long))] |= 1UL << ((size_t)node % (8 * sizeof(unsigned long)));
    if (syscall(SYS_mbind, start, end - start, GH_MPOL_BIND, mask, (unsigned long)GH_MAX_NODES + 1, GH_MPOL_MF_MOVE) !=
        0) {
        snprintf(why, why_size, "mbind to node %d: %s", node, strerror(errno));
        return -1;
    }
    return 0;
}

int gh_numa_node_of(const void *addr, char *why, size_t why_size)
{
    int node = -1;
    if (syscall(SYS_get_mempolicy, &node, NULL, 0UL, addr, GH_MPOL_F_NODE | GH_MPOL_F_ADDR) != 0) {
        snprintf(why, why_size, "get_mempolicy: %s", strerror(errno));
        return -1;
    }
    return node;
}
