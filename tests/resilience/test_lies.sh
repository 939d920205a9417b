#!/usr/bin/env bash
# Plugins that lie, each beside a good C backend, in-process: kernel times of
# 0, -1 and NaN; 2^20 devices with NULL names; an upload that writes into its
# host source. The liar's results fail (or it is refused) with the reason,
# the C backend after it finishes every case and passes, gemmhost exits
# non-zero, and the CSV and JSON on disk are complete and valid.
# Usage: test_lies.sh GEMMHOST FAKES_DIR PYTHON SOURCE_DIR
set -u
gemmhost=$1 fakes=$2 python=$3 here=$4/tests/resilience
. "$4/tests/expect.sh"

# config NAME MODE [RUN KEYS...]: the liar first, then the good C backend.
config() {
    local name=$1 mode=$2
    shift 2
    {
        printf '[run]\nsizes = 8, 5x7x3\ndtype = f32, f64\ntrans = nn, tt\n'
        printf '%s\n' "$@"
        printf '[backend liar]\nplugin = %s/gemmhost-fake_%s.so\n' "$fakes" "$mode"
        printf '[backend cpu]\nkernels = naive\n'
    } >"$work/$name.ini"
    echo "$work/$name.ini"
}

results() { "$python" "$here/results.py" "$@"; }

# --- kernel times of 0, -1 and NaN: each liar's row fails with the time it gave.
for mode in time_zero:0 time_negative:-1 time_nan:nan; do
    name=${mode%%:*} time=${mode#*:}
    "$gemmhost" --quiet --config "$(config "$name" "$name")" --output "$work/$name" >"$work/$name.out" 2>&1
    expect_status "$name: exit status" $? 1
    rows=$(results rows "$work/$name")
    liar=$(grep -c '^liar FAIL plugin reported a kernel time of '"$time"' ms' <<<"$rows")
    [ "$liar" = 8 ] && ok "$name: the liar's 8 rows fail, naming the time $time ms" ||
        bad "$name: $liar of the liar's rows name the time: $(grep '^liar' <<<"$rows" | head -2)"
    [ "$(grep -c '^cpu pass' <<<"$rows")" = 8 ] && ok "$name: the C backend passes all 8 cases" ||
        bad "$name: C backend rows: $(grep '^cpu' <<<"$rows" | head -3)"
    expect_ok "$name: CSV and JSON complete and valid, no time of 0, -1 or nan" results check "$work/$name"
    expect_in "$name: the summary names it" "$(cat "$work/$name.out")" "plugin reported a kernel time of $time ms"
done

# --- 2^20 devices, NULL names: refused before any info is asked for.
ini=$(config many many_devices)
"$gemmhost" --quiet --config "$ini" --output "$work/many" >"$work/many.out" 2>&1
expect_status "many_devices: exit status (a backend could not run)" $? 3
rows=$(results rows "$work/many")
expect_in "many_devices: the note names the lie" "$rows" \
    "note backend liar could not run: plugin fake_many_devices claims 1048576 devices (more than 1024)"
[ "$(grep -c '^liar ' <<<"$rows")" = 0 ] && ok "many_devices: nothing runs on the liar" || bad "many_devices: liar rows"
[ "$(grep -c '^cpu pass' <<<"$rows")" = 8 ] && ok "many_devices: the C backend passes all 8 cases" ||
    bad "many_devices: C backend rows"
devices=$("$python" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["devices"]))' "$work/many.json")
expect_status "many_devices: the JSON lists only the C backend's device" "$devices" 1
expect_ok "many_devices: CSV and JSON complete and valid" results check "$work/many"
"$gemmhost" --config "$ini" --dry-run >"$work/dry.out" 2>&1
expect_status "many_devices: --dry-run exit status" $? 3
expect_in "many_devices: --dry-run names the lie" "$(cat "$work/dry.out")" "claims 1048576 devices (more than 1024)"
list=$(GEMMHOST_PLUGIN_PATH=$fakes "$gemmhost" --list --summary 2>&1)
expect_in "many_devices: --list names the lie" "$(grep fake_many_devices <<<"$list")" \
    "no usable device: plugin fake_many_devices claims 1048576 devices (more than 1024)"

# --- An upload that writes into its host source, in process (under isolation
# the write faults on a read-only view: tests/isolation). An odd number of
# runs (warmup 0, repeat 3) leaves C's source flipped: without the inputs
# drawn again, the C backend after it would upload a changed C and fail.
ini=$(config writer input_writer 'beta = 0.5' 'warmup = 0' 'repeat = 3' 'isolation = none')
"$gemmhost" --quiet --config "$ini" --output "$work/writer" >"$work/writer.out" 2>&1
expect_status "input_writer: exit status" $? 1
rows=$(results rows "$work/writer")
n=$(grep -c '^liar FAIL backend liar changed its input A, B and C during case [0-7] (host memory' <<<"$rows")
[ "$n" = 8 ] && ok "input_writer: the writer's 8 rows fail, naming A, B and C" ||
    bad "input_writer: $n rows name the change: $(grep '^liar' <<<"$rows" | head -2)"
[ "$(grep -c '^cpu pass' <<<"$rows")" = 8 ] && ok "input_writer: the C backend after it passes all 8 cases" ||
    bad "input_writer: C backend rows: $(grep '^cpu' <<<"$rows" | head -3)"
expect_ok "input_writer: CSV and JSON complete and valid" results check "$work/writer"

finish
