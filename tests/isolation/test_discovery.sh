#!/usr/bin/env bash
# A driver that crashes while gemmhost asks it about its devices (its
# device_count dies of SIGSEGV): --list, --dry-run and a run survive it,
# name it, and the C plugin beside it runs.
# Usage: test_discovery.sh GEMMHOST SOURCE_DIR PYTHON FAKES_DIR (the folder of fake_crash_count)
set -u
gemmhost=$1 src=$2 python=$3 fakes=$4
command -v "$python" >/dev/null || python=python3
. "$src/tests/expect.sh"

out=$(GEMMHOST_PLUGIN_PATH=$fakes timeout 120 "$gemmhost" --list --summary 2>&1)
expect_status "--list with a plugin that crashes at discovery" $? 0
expect_in "--list names the crash" "$out" "plugin fake_crash_count"
expect_in "--list says how its worker died" "$out" "during device_count"
expect_in "--list still lists the C plugin" "$out" "plugin cpu"

cat >"$work/run.ini" <<INI
[run]
sizes = 8, 9
dtype = f32
trans = nn
plugin_dir = $fakes
output = $work/out
[backend bad]
plugin = fake_crash_count
[backend cpu]
plugin = cpu
kernels = naive, tiled
INI
out=$(timeout 120 "$gemmhost" --config "$work/run.ini" --dry-run 2>&1)
expect_status "--dry-run with a backend that crashes at discovery" $? 3
expect_in "--dry-run names it" "$out" "crashed during discovery"
out=$(timeout 120 "$gemmhost" --config "$work/run.ini" 2>&1)
expect_status "a run with a backend that crashes at discovery" $? 3
# (A sanitizer build's worker reports the SIGSEGV itself and exits 1.)
grep -qa __asan_init "$gemmhost" && how="worker exited with status 1 during device_count" ||
  how="worker killed by SIGSEGV (Segmentation fault) during device_count"
expect_in "the note says the backend crashed during discovery, and how" "$out" \
  "backend bad could not run: plugin fake_crash_count crashed during discovery: $how"
expect_ok "the C plugin ran both cases and passed" $python "$src/tests/e2e/check_results.py" "$work/out" --rows 4 \
  --status pass
finish
