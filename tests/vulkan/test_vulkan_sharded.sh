#!/usr/bin/env bash
# test_vulkan in N processes side by side (--shard I/N), which together run
# every check once: on a GPU, creating the pipelines dominates (warptile has
# one per layout of the operands), and NVIDIA's driver compiles them on as
# many CPU cores as there are processes. H100, 16 cores: about 10 minutes in
# one process, 106 s in 8.
# Usage: tests/vulkan/test_vulkan_sharded.sh TEST_VULKAN PLUGIN.so [N (8) [OPTION...]]
# (OPTIONs go to every shard, e.g. --quick.)
# Exit 0 when every shard passed, 77 when every shard skipped (no Vulkan
# device), 1 otherwise; each shard's summary line and failures are printed.
set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 TEST_VULKAN PLUGIN.so [N [OPTION...]]" >&2
  exit 2
fi
test=$1 plugin=$2 n=${3:-8}
shift $(($# < 3 ? $# : 3))
logs=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$logs"' EXIT
for ((i = 0; i < n; i++)); do
  "$test" "$plugin" --shard "$i/$n" "$@" >"$logs/$i.log" 2>&1 &
  pids+=($!)
done
failed=0 skipped=0
for ((i = 0; i < n; i++)); do
  wait "${pids[$i]}"
  rc=$?
  echo "shard $i/$n: exit $rc: $(tail -n 1 "$logs/$i.log")"
  grep -E 'FAIL' "$logs/$i.log" | head -n 20
  case $rc in
    0) ;;
    77) skipped=$((skipped + 1)) ;;
    *) failed=$((failed + 1)) ;;
  esac
done
pids=()
if [ "$failed" -gt 0 ]; then exit 1; fi
if [ "$skipped" -eq "$n" ]; then exit 77; fi
exit 0
