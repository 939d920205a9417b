#!/usr/bin/env bash
# test_vulkan --shard: the shards together run exactly the checks of one
# unsharded run (here at --quick, 3 shards through test_vulkan_sharded.sh,
# which the GPU machine's check uses). Skips (77) without a Vulkan device.
# Usage: tests/vulkan/test_shards.sh TEST_VULKAN PLUGIN.so
set -u
here=$(cd "$(dirname "$0")" && pwd)
whole=$("$1" "$2" --quick 2>&1)
rc=$?
if [ $rc -eq 77 ]; then
  echo "skipped: $(echo "$whole" | tail -n 1)"
  exit 77
fi
passed=$(echo "$whole" | tail -n 1 | sed -n 's/^test_vulkan: \([0-9]*\) passed, 0 failed.*/\1/p')
if [ $rc -ne 0 ] || [ -z "$passed" ] || [ "$passed" -eq 0 ]; then
  echo "FAIL: the unsharded --quick run did not pass (exit $rc): $(echo "$whole" | tail -n 1)"
  exit 1
fi
sharded=$(bash "$here/test_vulkan_sharded.sh" "$1" "$2" 3 --quick)
rc=$?
echo "$sharded"
sum=$(echo "$sharded" | sed -n 's/^shard [0-9]*\/3: exit 0: test_vulkan: \([0-9]*\) passed, 0 failed.*/\1/p' |
  awk '{s += $1} END {print s + 0}')
if [ $rc -ne 0 ] || [ "$sum" -ne "$passed" ]; then
  echo "FAIL: 3 shards (exit $rc) passed $sum checks, one process $passed"
  exit 1
fi
echo "pass: 3 shards passed $sum checks, as one process"
