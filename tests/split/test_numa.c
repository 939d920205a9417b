/* Tests of core/numa against a fake sysfs built here: cpulists (ranges,
 * commas, bad text), a PCI device's node, a device with no node or no
 * address, a node without CPUs, and where a device's thread goes.
 * Usage: test_numa SCRATCH_DIR */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "numa.h"

#define CHECK_MAIN
#include "../check.h"

static int count_bits(const gh_cpu_mask *m)
{
    int n = 0;
    for (int c = 0; c < GH_MAX_CPUS; c++) n += (int)((m->bits[c / 64] >> (c % 64)) & 1);
    return n;
}

static int has(const gh_cpu_mask *m, int c)
{
    return (int)((m->bits[c / 64] >> (c % 64)) & 1);
}

static void test_cpulists(void)
{
    gh_cpu_mask m;
    char err[512] = "";
    int n = gh_numa_parse_cpulist("0-3,8,10-11\n", &m, err, sizeof err);
    CHECK(n == 7 && count_bits(&m) == 7 && has(&m, 0) && has(&m, 3) && has(&m, 8) && has(&m, 11) && !has(&m, 9),
          "cpulist 0-3,8,10-11: 7 CPUs (got %d: %s)", n, err);
    n = gh_numa_parse_cpulist("5", &m, err, sizeof err);
    CHECK(n == 1 && has(&m, 5), "cpulist 5: one CPU (got %d)", n);
    n = gh_numa_parse_cpulist("\n", &m, err, sizeof err);
    CHECK(n == 0 && count_bits(&m) == 0, "an empty cpulist: no CPU (got %d)", n);
    n = gh_numa_parse_cpulist("0-3,2-5", &m, err, sizeof err);
    CHECK(n == 6, "overlapping ranges count each CPU once (got %d)", n);
    static const struct {
        const char *text, *named;
    } bad[] = {
        {"0-x", "\"0-x\" is not a CPU"}, {"3-1", "\"3-1\" is not a CPU"},   {"0,,2", "\"\" is not a CPU"},
        {"0-3,", "ends with a comma"},   {"1024", "\"1024\" is not a CPU"}, {"node0", "\"node0\" is not a CPU"},
        {"-1", "\"-1\" is not a CPU"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        n = gh_numa_parse_cpulist(bad[i].text, &m, err, sizeof err);
        CHECK(n == -1 && strstr(err, bad[i].named) != NULL, "bad cpulist \"%s\" refused, naming \"%s\": %s",
              bad[i].text, bad[i].named, err);
    }
}

static void write_file(const char *root, const char *rel, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    /* mkdir -p of the parent */
    for (char *p = path + strlen(root) + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
    FILE *f = fopen(path, "w");
    if (!f) {
        CHECK(0, "cannot write %s", path);
        return;
    }
    fputs(text, f);
    fclose(f);
}

static void test_nodes(const char *root)
{
    write_file(root, "bus/pci/devices/0000:1b:00.0/numa_node", "0\n");
    write_file(root, "bus/pci/devices/0000:3d:00.0/numa_node", "1\n");
    write_file(root, "bus/pci/devices/0000:5e:00.0/numa_node", "-1\n");
    write_file(root, "bus/pci/devices/0000:7f:00.0/numa_node", "one\n");
    write_file(root, "bus/pci/devices/0000:9a:00.0/numa_node", "2\n");
    write_file(root, "devices/system/node/node0/cpulist", "0-15,32-47\n");
    write_file(root, "devices/system/node/node1/cpulist", "16-31,48-63\n");
    write_file(root, "devices/system/node/node2/cpulist", "\n");
    char why[512] = "";
    CHECK(gh_numa_pci_node(root, "0000:1b:00.0", why, sizeof why) == 0, "device 0000:1b:00.0 on node 0: %s", why);
    CHECK(gh_numa_pci_node(root, "0000:3d:00.0", why, sizeof why) == 1, "device 0000:3d:00.0 on node 1: %s", why);
    CHECK(gh_numa_pci_node(root, "0000:5e:00.0", why, sizeof why) == -1 && strstr(why, "is -1: the machine gives"),
          "numa_node -1: no node, and why: %s", why);
    CHECK(gh_numa_pci_node(root, "0000:7f:00.0", why, sizeof why) == -1 && strstr(why, "holds \"one\", not a node"),
          "numa_node \"one\": bad text named: %s", why);
    CHECK(gh_numa_pci_node(root, "0000:00:00.9", why, sizeof why) == -1 && strstr(why, "cannot read"),
          "an address sysfs lacks: %s", why);
    CHECK(gh_numa_pci_node(root, "", why, sizeof why) == -1 && strstr(why, "has no PCI address"), "no address: %s",
          why);
    CHECK(gh_numa_pci_node(root, "../../etc", why, sizeof why) == -1 && strstr(why, "not one sysfs could name"),
          "an address with a path in it: %s", why);

    gh_cpu_mask m;
    CHECK(gh_numa_node_cpus(root, 1, &m, why, sizeof why) == 32 && has(&m, 16) && has(&m, 63) && !has(&m, 0),
          "node 1: CPUs 16-31,48-63: %s", why);
    CHECK(gh_numa_node_cpus(root, 2, &m, why, sizeof why) == -1 && strstr(why, "lists no CPU"),
          "node 2 without CPUs: %s", why);

    /* Member -> node: the devices of a fake plugin with PCI addresses. */
    gh_device_info info = {.size = sizeof info, .name = "Fake", .pci_address = "0000:3d:00.0"};
    gh_numa_place place;
    gh_numa_place_device(root, &info, &place);
    CHECK(place.node == 1 && place.n_cpus == 32, "a device on 0000:3d:00.0 goes to node 1 with 32 CPUs (%d, %d): %s",
          place.node, place.n_cpus, place.why);
    info.pci_address = "0000:1b:00.0";
    gh_numa_place_device(root, &info, &place);
    CHECK(place.node == 0 && has(&place.cpus, 40), "a device on 0000:1b:00.0 goes to node 0 (CPU 40 in it)");
    info.pci_address = "0000:9a:00.0";
    gh_numa_place_device(root, &info, &place);
    CHECK(place.node == -1 && strstr(place.why, "node2/cpulist lists no CPU"), "a node without CPUs: nowhere: %s",
          place.why);
    info.pci_address = "0000:5e:00.0";
    gh_numa_place_device(root, &info, &place);
    CHECK(place.node == -1 && strstr(place.why, "is -1"), "a device with no node: nowhere: %s", place.why);
    /* An info from before minor 3: shorter than pci_address. */
    info.size = offsetof(gh_device_info, pci_address);
    gh_numa_place_device(root, &info, &place);
    CHECK(place.node == -1 && strstr(place.why, "has no PCI address"), "an older plugin's info: no address: %s",
          place.why);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_numa SCRATCH_DIR\n");
        return 2;
    }
    char root[1024];
    snprintf(root, sizeof root, "%s/fake-sys", argv[1]);
    mkdir(argv[1], 0755);
    mkdir(root, 0755);
    test_cpulists();
    test_nodes(root);
    return check_summary("numa");
}
