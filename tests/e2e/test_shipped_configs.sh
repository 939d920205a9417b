#!/usr/bin/env bash
# Every config in config/ reads without a config error (exit 2) in a dry run
# here: the GPU ones are run only on the GPU machine, whose time is scarce,
# so a misspelt key or value there must fail on the CPU first. Exit 0 (the
# plan runs) and 3 (a backend has no device here) both pass; sizes too big
# for this machine's memory are only warned of (run.memory_check=warn).
# Usage: test_shipped_configs.sh GEMMHOST SOURCE_DIR PYTHON
set -u
gemmhost=$1 src=$2
. "$src/tests/expect.sh"
export XDG_CACHE_HOME=$work/cache
n=0
for config in "$src"/config/*.ini; do
  n=$((n + 1))
  name=$(basename "$config")
  out=$("$gemmhost" --config "$config" --dry-run --set run.memory_check=warn --output "$work/dry" 2>&1)
  status=$?
  case $status in
    0 | 3) ok "$name reads (exit $status)" ;;
    *) bad "$name: exit $status"; echo "$out" | sed 's/^/    | /' ;;
  esac
done
[ "$n" -ge 20 ] && ok "$n configs read" || bad "only $n configs found in $src/config"
finish
