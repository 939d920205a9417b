#!/usr/bin/env bash
# How each split member reaches the host matrices (ABI minor 4's
# host_register), under isolation: lavapipe imports the worker's mapping of
# the shared segments (VK_EXT_external_memory_host) and copies in place; with
# the extension hidden it says why it is pageable; PoCL's plugin has no
# host_register (pageable, saying so); the C plugin has nothing to register.
# Every result still passes. Without isolation, the C member's matrices come
# from its own host_alloc.
# Usage: test_host_memory.sh GEMMHOST SOURCE_DIR PYTHON FAKES_DIR
set -u
gemmhost=$1 src=$2 python=$3
command -v "$python" >/dev/null || python=python3
check="$python $src/tests/e2e/check_results.py"
. "$src/tests/expect.sh"

cat >"$work/host.ini" <<INI
[run]
sizes = 70x90x40, 33x17x9
dtype = f32
trans = nn, tt
alpha = -2
beta = 3
warmup = 0
repeat = 2
output = $work/host
[backend cpu]
plugin = cpu
kernels = tiled
[backend opencl]
plugin = opencl
devices = software
kernels = tiled
[backend vulkan]
plugin = vulkan
devices = software
kernels = tiled
[backend vkhidden]
plugin = vulkan
devices = software
kernels = tiled
hide_features = VK_EXT_external_memory_host
[split four]
backends = cpu, opencl, vulkan, vkhidden
panel = 16
INI

missing=$("$gemmhost" --config "$work/host.ini" --dry-run 2>&1 | grep -E "matches none|has no usable device|not found")
if [ -n "$missing" ] && [ -z "${CI:-}" ]; then
  echo "skip: this machine lacks a software device (PoCL, lavapipe) or a plugin the test needs:"
  echo "$missing" | sed 's/^/    | /'
  exit 77
fi

timeout 120 "$gemmhost" --verbose --config "$work/host.ini" --backend four >"$work/host.out" 2>&1
expect_status "a split over C, PoCL, lavapipe and lavapipe without the import, isolated" $? 0
expect_ok "isolated: 4 rows, all pass" $check "$work/host" --rows 4 --status pass --require backend=four
expect_in "the member rows give the host memory path and both bandwidths" "$(cat "$work/host.out")" \
  "host memory: imported (VK_EXT_external_memory_host)"
expect_in "the member rows give the download bandwidth" "$(cat "$work/host.out")" " GB/s, download "
expect_ok "isolated: each member's host_memory says how, in every split entry" $python - "$work/host.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
want = {
    "cpu": "nothing to register: the C device computes in host memory",
    "opencl": "pageable: plugin opencl has no host_register (ABI minor 4)",
    "vulkan": "imported (VK_EXT_external_memory_host)",
}
bad = []
for s in doc["splits"]:
    for m in s["members"]:
        got = m["host_memory"]
        if m["backend"] == "vkhidden":
            ok = got.startswith("pageable: ") and "does not offer VK_EXT_external_memory_host (hidden by hide_features)" in got
        else:
            ok = got == want[m["backend"]]
        if not ok or "download_gbps" not in m:
            bad.append((m["backend"], got))
print("bad:", bad)
sys.exit(0 if len(doc["splits"]) == 4 and not bad else 1)
PY

timeout 120 "$gemmhost" --config "$work/host.ini" --backend four --no-isolation --output "$work/inproc" >/dev/null 2>&1
expect_status "the same split in process" $? 0
expect_ok "in process: 4 rows, all pass" $check "$work/inproc" --rows 4 --status pass --require backend=four
expect_ok "in process: the C member's matrices are its own host_alloc's; lavapipe imports them" $python - "$work/inproc.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
got = {m["backend"]: m["host_memory"] for s in doc["splits"] for m in s["members"]}
print(got)
ok = got["cpu"].startswith("from its plugin's host_alloc") and got["vulkan"] == "imported (VK_EXT_external_memory_host)"
sys.exit(0 if ok else 1)
PY
finish
