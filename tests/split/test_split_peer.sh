#!/usr/bin/env bash
# The split's NUMA placement and peer copies of B, over the fake plugins
# with two devices on fake PCI addresses, on a fake two-node sysfs
# (GEMMHOST_SYSFS_ROOT): each member's node and why a member has none; B by
# copy_peer, by the host when copy_peer is refused, and when a plugin has
# no copy_peer; every result verified.
# Usage: test_split_peer.sh GEMMHOST SOURCE_DIR PYTHON FAKES_DIR
set -u
gemmhost=$1 src=$2 python=$3 fakes=$4
command -v "$python" >/dev/null || python=python3
check="$python $src/tests/e2e/check_results.py"
. "$src/tests/expect.sh"

# Device 0 (0000:1b:00.0) on node 0, device 1 (0000:3d:00.0) on node 1;
# both nodes list CPU 0, which every machine has.
sys=$work/sys
mkdir -p "$sys/bus/pci/devices/0000:1b:00.0" "$sys/bus/pci/devices/0000:3d:00.0" \
  "$sys/devices/system/node/node0" "$sys/devices/system/node/node1"
echo 0 >"$sys/bus/pci/devices/0000:1b:00.0/numa_node"
echo 1 >"$sys/bus/pci/devices/0000:3d:00.0/numa_node"
echo 0 >"$sys/devices/system/node/node0/cpulist"
echo 0 >"$sys/devices/system/node/node1/cpulist"
export GEMMHOST_SYSFS_ROOT=$sys

# 4 cases (2 sizes x f64, i32 x nn), one split of the two fake devices.
config() { # PLUGIN B_COPY NUMA NAME
  printf '[run]\nsizes = 96x40x24,33x17x9\ndtype = f64,i32\ntrans = nn\nwarmup = 0\nrepeat = 2\nverify = full\nisolation = none\nplugin_dir = %s\noutput = %s/%s\n[backend pair]\nplugin = %s\n[split two]\nbackends = pair\npanel = 8\nmem_limit = 1M\nb_copy = %s\nnuma = %s\n' \
    "$fakes" "$work" "$4" "$1" "$2" "$3" >"$work/$4.ini"
}

# run_split NAME WHAT: gemmhost runs $work/NAME.ini, exit 0 (its output in
# $work/NAME.out).
run_split() {
  timeout 60 "$gemmhost" --quiet --config "$work/$1.ini" >"$work/$1.out" 2>&1
  expect_status "$2" $? 0
}

# Reads PREFIX.json and checks each split member with a Python expression
# over m (the member) and i (its index); prints the members' fields.
members_ok() { # NAME PREFIX EXPRESSION
  expect_ok "$1" "$python" -c "
import json, sys
doc = json.load(open('$2.json'))
bad = []
for s in doc['splits']:
    for i, m in enumerate(s['members']):
        if not ($3):
            bad.append((s['case_index'], i, m['numa_node'], m['numa'], m['b_path'], m['upload_gbps']))
print(len(doc['splits']), 'split entries; first:', [(m['numa_node'], m['numa'], m['b_path']) for m in doc['splits'][0]['members']])
for b in bad[:6]:
    print('problem:', b)
sys.exit(1 if bad or not doc['splits'] else 0)"
}

out=$(GEMMHOST_PLUGIN_PATH=$fakes "$gemmhost" --list 2>&1)
expect_in "--list shows a device's PCI address" "$out" "PCI address 0000:3d:00.0"
out=$(GEMMHOST_PLUGIN_PATH=$fakes "$gemmhost" --list --summary 2>&1)
expect_in "--list --summary too" "$out" "device fake_peer/1: Fake Device, none, software, 0.0 GiB, fp64, PCI 0000:3d:00.0"

config fake_peer peer auto peer
run_split peer "b_copy = peer over fake_peer"
expect_ok "peer: 12 rows, all pass" $check "$work/peer" --rows 12 --status pass
members_ok "peer: member 0 uploads B, member 1 copies it from member 0" "$work/peer" \
  "m['b_path'] == ('host, then on to the others by copy_peer' if i == 0 else m['b_path']) and (i == 0 or m['b_path'].startswith('peer from pair/0'))"
members_ok "numa: each member on its device's node, with a bandwidth" "$work/peer" \
  "m['numa_node'] == i and m['numa'].startswith('thread on node %d (1 CPU)' % i)"
members_ok "upload GB/s: bytes up over upload time" "$work/peer" \
  "m['upload_gbps'] == 0 if m['upload_ms'] == 0 else abs(m['upload_gbps'] - m['bytes_up'] / m['upload_ms'] / 1e6) <= 1e-6 * m['upload_gbps']"
members_ok "numa: member 0's home rows of A and C moved to node 0" "$work/peer" \
  "i == 1 or 'A and C of its' in m['numa'] and m['numa'].endswith('on node 0')"
members_ok "peer: member 1 uploaded no B (A alone: 96x24 or 33x9 f64/i32 at most)" "$work/peer" \
  "i == 0 or m['bytes_up'] <= 96 * 24 * 8"

config fake_peer_refused peer auto refused
run_split refused "b_copy = peer, copy refused"
expect_ok "refused: 12 rows, all pass" $check "$work/refused" --rows 12 --status pass
members_ok "refused: member 1 falls back to the host and says why" "$work/refused" \
  "i == 0 or m['b_path'] == 'host: copy_peer from pair/0 refused: copy_peer: fake device 1 cannot access fake device 0 (no peer link)'"

printf '[run]\nsizes = 96x40x24\ndtype = f64\ntrans = nn\nwarmup = 0\nrepeat = 1\nverify = full\nisolation = none\nplugin_dir = %s\noutput = %s/lacking\n[backend one]\nplugin = fake_good\n[backend other]\nplugin = fake_good\n[split two]\nbackends = one, other\npanel = 8\nmem_limit = 1M\nb_copy = peer\nnuma = off\n' \
  "$fakes" "$work" >"$work/lacking.ini"
run_split lacking "b_copy = peer with a plugin without copy_peer"
members_ok "lacking: each member uploads B, saying the plugin has no copy_peer; numa = off says so" "$work/lacking" \
  "m['b_path'] == 'host: plugin fake_good has no copy_peer (ABI minor 3)' and m['numa'] == 'not placed: numa = off' and m['numa_node'] is None"

config fake_peer host auto host
run_split host "b_copy = host"
members_ok "host: both upload B" "$work/host" "m['b_path'] == 'host (b_copy = host)'"

# Isolation: each member in a worker of its own, so no peer copy; says why.
config fake_peer peer auto isolated
sed -i 's/^isolation = none/isolation = process/' "$work/isolated.ini"
run_split isolated "b_copy = peer under isolation"
expect_ok "isolated: all pass" $check "$work/isolated" --rows 12 --status pass
members_ok "isolated: member 1 says peer copies need isolation = none" "$work/isolated" \
  "i == 0 or 'peer copies need isolation = none' in m['b_path']"

# A device with no node: numa_node -1 in sysfs.
echo -1 >"$sys/bus/pci/devices/0000:3d:00.0/numa_node"
config fake_peer auto auto nonode
run_split nonode "a device without a node"
members_ok "nonode: member 1 not placed, and why" "$work/nonode" \
  "i == 0 or (m['numa_node'] is None and m['numa'] == 'not placed: $sys/bus/pci/devices/0000:3d:00.0/numa_node is -1: the machine gives the device no NUMA node')"

# tools/split_summary.py: speed-up over a one-member split, node, bandwidth and B path per member.
echo 1 >"$sys/bus/pci/devices/0000:3d:00.0/numa_node"  # back from the no-node case
cp "$work/peer.ini" "$work/speed.ini"
sed -i 's|^output = .*|output = '"$work"'/speed|' "$work/speed.ini"
printf '[backend single]\nplugin = fake_peer\ndevices = 0\n[split one]\nbackends = single\npanel = 8\nmem_limit = 1M\n' >>"$work/speed.ini"
run_split speed "a one-member split beside the two-member one"
out=$("$python" "$src/tools/split_summary.py" "$work/speed" 2>&1)
expect_status "split_summary.py" $? 0
expect_in "summary: speed-up over one GPU" "$out" "x over one GPU (one)"
expect_in "summary: member 1's node, bandwidth and B path" "$out" "host memory: pageable: plugin fake_peer has no host_register (ABI minor 4); node 1 (thread on node 1 (1 CPU)"
expect_in "summary: B by peer copy" "$out" "B: peer from pair/0"

# Bad keys are named.
config fake_peer sideways auto badkey
out=$("$gemmhost" --config "$work/badkey.ini" 2>&1)
expect_status "b_copy = sideways" $? 2
expect_in "b_copy: names the value and the choices" "$out" "\"sideways\" is not a way to copy B (allowed: auto, host, peer)"

finish
