#!/usr/bin/env bash
# What the results files cost: runs of 1000, 2000 and 4000 tiny results (the C
# plugin, sizes 1x1xK, one repetition) with files (CSV, JSON, record log and
# JUnit) and without (--output=), and prints the wall times and their ratio,
# with the bytes written to the JSON in all its rewrites (GEMMHOST_REPORT_STATS).
# Usage: tools/bench_report_files.sh [BUILD_DIR] [COUNTS...]   (default: build 1000 2000 4000)
set -eu
build=${1:-build}
shift || true
counts=${*:-1000 2000 4000}
gemmhost=$build/gemmhost
[ -x "$gemmhost" ] || { echo "bench_report_files: no $gemmhost (build it first)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seconds() { # seconds COMMAND...: its wall time
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || { echo "bench_report_files: failed: $*" >&2; exit 1; }
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", b - a }'
}

printf '%8s %12s %12s %7s %14s %12s\n' results "files (s)" "none (s)" ratio "JSON written" "JSON final"
for n in $counts; do
    python3 "$(dirname "$0")/tiny_config.py" "$n" "$work/tiny.ini"
    with=$(GEMMHOST_REPORT_STATS=$work/stats seconds "$gemmhost" --quiet --config "$work/tiny.ini" \
        --output "$work/r" --junit "$work/r.xml" --overwrite)
    without=$(seconds "$gemmhost" --quiet --config "$work/tiny.ini" --output=)
    written=$(sed -n 's/^json_bytes_written //p' "$work/stats")
    printf '%8d %12.2f %12.2f %7.2f %14d %12d\n' "$n" "$with" "$without" "$(echo "$with / $without" | bc -l)" \
        "$written" "$(stat -c %s "$work/r.json")"
done
