/* Where a device sits on the host: its NUMA node (from its PCI address in
 * sysfs), that node's CPUs, and placing a host thread and host memory there.
 * Linux only, through sysfs and the plain system calls (no libnuma).
 *
 * The sysfs root is $GEMMHOST_SYSFS_ROOT when set (tests fake a two-node
 * machine with it), else /sys. */
#ifndef GEMMHOST_NUMA_H
#define GEMMHOST_NUMA_H

#include <stddef.h>
#include <stdint.h>

#include "gemmhost/plugin.h"

/* A set of CPUs, 0 to GH_MAX_CPUS - 1 (cpu_set_t without _GNU_SOURCE). */
#define GH_MAX_CPUS 1024
typedef struct gh_cpu_mask {
    uint64_t bits[GH_MAX_CPUS / 64];
} gh_cpu_mask;

/* The device's PCI address (ABI minor 3), "" when its info has none. */
const char *gh_device_pci_address(const gh_device_info *d);

/* $GEMMHOST_SYSFS_ROOT, or "/sys". */
const char *gh_numa_sysfs_root(void);

/* Parses a Linux cpulist ("0-3,8,10-11", a trailing newline allowed, ""
 * for none) into set. Returns the number of CPUs, or -1 with err naming
 * the bad part ("cpulist \"0-x\": \"x\" is not a CPU number"). */
int gh_numa_parse_cpulist(const char *text, gh_cpu_mask *set, char *err, size_t err_size);

/* The NUMA node of a PCI device: >= 0; -1 when sysfs says the machine has
 * no node for it (numa_node -1) or cannot be read: why then says which. */
int gh_numa_pci_node(const char *root, const char *pci, char *why, size_t why_size);

/* The CPUs of a node from ROOT/devices/system/node/nodeN/cpulist. Returns
 * their number (> 0), or -1 with why (unreadable, bad text, no CPU). */
int gh_numa_node_cpus(const char *root, int node, gh_cpu_mask *set, char *why, size_t why_size);

/* Where a device's host thread goes: node >= 0 and its CPUs, or node -1
 * and why not (no PCI address, no node, no CPUs). */
typedef struct gh_numa_place {
    int node;
    int n_cpus;
    gh_cpu_mask cpus;
    char why[256];
} gh_numa_place;
void gh_numa_place_device(const char *root, const gh_device_info *info, gh_numa_place *out);

/* Pins the calling thread to the CPUs. 0, or -1 with why. */
int gh_numa_pin_thread(const gh_cpu_mask *cpus, char *why, size_t why_size);

/* Binds the pages of [addr, addr + bytes) to node and moves those already
 * there (mbind, MPOL_BIND with MPOL_MF_MOVE). Pages the kernel cannot move
 * (page-locked ones) stay: gh_numa_node_of reports where a page really is.
 * 0, or -1 with why. */
int gh_numa_move(void *addr, size_t bytes, int node, char *why, size_t why_size);
/* The node of the page holding addr (touching nothing), or -1 with why. */
int gh_numa_node_of(const void *addr, char *why, size_t why_size);

#endif
