#!/usr/bin/env bash
# GEMM benchmark: runs a benchmark config and prints one table of GFLOP/s per
# kernel and size, with the ratios to cuBLAS and to CLBlast measured in the same run, and the
# upload and download times. Usage:
#   tools/bench.sh [BUILD_DIR] [CONFIG] [extra gemmhost arguments...]
# Defaults: build, config/bench-gpu.ini. Builds first when BUILD_DIR has no
# gemmhost. Results stay in BUILD_DIR/bench-gpu.csv and .json.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
config=${2:-$here/config/bench-gpu.ini}
shift $(( $# > 2 ? 2 : $# ))
if [ ! -x "$build/gemmhost" ]; then
  cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release && cmake --build "$build" -j "$(nproc)" || exit 2
fi
prefix="$build/$(basename "$config" .ini)"
"$build/gemmhost" --config "$config" --output "$prefix" --overwrite "$@"   # a rerun replaces the last results
status=$?
python3 "$here/tools/bench_table.py" "$prefix.csv"
exit $status
