#!/usr/bin/env bash
# One faulty plugin beside the C plugin, each backend in its own worker
# process (the default): the faulty backend's results say exactly what
# happened, the C plugin runs every case and passes, the exit status is 1,
# and the CSV and JSON are complete.
# Usage: test_fault.sh GEMMHOST SOURCE_DIR PYTHON FAKES_DIR MODE
#   MODE: crash_third, abort_third, hang_third, exit_third or input_writer
set -u
gemmhost=$1 src=$2 python=$3 fakes=$4 mode=$5
command -v "$python" >/dev/null || python=python3
. "$src/tests/expect.sh"

# Five cases, two gemm calls each (no warm-up, two timed runs), so a plugin
# that fails on its third call fails every second case of a fresh worker.
# The faulty backend runs first: what it does to the inputs, the C plugin
# would see next.
cat >"$work/run.ini" <<INI
[run]
sizes = 8, 9, 10, 11, 12
dtype = f32
trans = nn
warmup = 0
repeat = 2
plugin_dir = $fakes
output = $work/out
[backend bad]
plugin = fake_$mode
$([ "$mode" = hang_third ] && echo "timeout = 1")
[backend cpu]
plugin = cpu
kernels = naive, tiled
INI
timeout 120 "$gemmhost" --config "$work/run.ini" >"$work/stdout" 2>"$work/stderr"
status=$?
out=$(cat "$work/stdout" "$work/stderr")
expect_status "$mode beside the C plugin: the run ends with a failure" $status 1
# A sanitizer build reports faults itself (a SIGSEGV becomes exit 1 and its
# report) and has no crash handler of its own (no stack after an abort).
asan=0
grep -qa __asan_init "$gemmhost" && asan=1

# Each faulty row: status and words (a sanitizer build reports a SIGSEGV
# itself and exits 1, so its rows say that instead of the signal).
case $mode in
crash_third)
  want="pass crashed pass crashed pass"
  [ $asan = 1 ] && words="worker exited with status 1 during gemm (device 0, kernel 0" ||
    words="worker killed by SIGSEGV (Segmentation fault) during gemm (device 0, kernel 0"
  [ $asan = 1 ] && stack="AddressSanitizer" || stack="gemmhost-fake_crash_third.so(" ;;
abort_third)
  want="pass crashed pass crashed pass"
  words="worker killed by SIGABRT (Aborted) during gemm (device 0, kernel 0"
  [ $asan = 1 ] && stack="" || stack="gemmhost-fake_abort_third.so(" ;;
hang_third)
  want="pass timeout pass timeout pass"
  words="did not return within 1 s: worker stopped (SIGTERM)"
  stack="" ;;
exit_third)
  want="pass crashed pass crashed pass"
  words="worker exited with status 0 during gemm (device 0, kernel 0"
  stack="" ;;
input_writer)
  want="crashed crashed crashed ERROR ERROR"
  [ $asan = 1 ] && words="during upload of" || words="worker killed by SIGSEGV (Segmentation fault) during upload of"
  stack="a write into a read-only input" ;;
esac

expect_ok "$mode: the CSV and JSON are complete and agree (15 rows)" \
  $python "$src/tests/e2e/check_results.py" "$work/out" --rows 15 --require backend=cpu
expect_ok "$mode: the faulty backend's rows, case by case: $want" $python - "$work/out" "$want" "$words" "$stack" "$mode" <<'PY'
import csv, json, sys
prefix, want, words, stack, mode = sys.argv[1], sys.argv[2].split(), sys.argv[3], sys.argv[4], sys.argv[5]
rows = [r for r in csv.DictReader(open(prefix + ".csv")) if r["backend"] == "bad"]
doc = json.load(open(prefix + ".json"))
jrows = [r for r in doc["results"] if r["backend"] == "bad"]
got = [r["status"] for r in rows]
print("statuses:", got)
problems = []
if got != want or [r["status"] for r in jrows] != want:
    problems.append("statuses differ")
for r in rows:
    if r["status"] in ("crashed", "timeout"):
        if words not in r["detail"]:
            problems.append("detail lacks %r: %r" % (words, r["detail"][:300]))
        if mode != "input_writer" and "%sx%sx%s f32)" % (r["m"], r["n"], r["k"]) not in r["detail"]:
            problems.append("detail does not name the call's shape: %r" % r["detail"][:300])
        if stack and stack not in r["detail"]:
            problems.append("detail lacks the worker's stderr %r: %r" % (stack, r["detail"][:600]))
        if r["kernel_ms_median"] != "" or r["output_hash"] != "":
            problems.append("a dead worker's row has a time or an output")
    if r["status"] == "ERROR" and "given up after 3 failed results in a row" not in r["detail"]:
        problems.append("an error that does not say the backend was given up: %r" % r["detail"])
if mode == "input_writer" and not any("given up after 3" in n for n in doc["notes"]):
    problems.append("no note says the backend was given up: %r" % doc["notes"])
for p in problems:
    print("problem:", p)
sys.exit(1 if problems else 0)
PY
expect_ok "$mode: the C plugin ran all 10 of its runs and passed each" $python - "$work/out" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1] + ".csv")) if r["backend"] == "cpu"]
print(len(rows), "rows:", sorted(set(r["status"] for r in rows)))
sys.exit(0 if len(rows) == 10 and all(r["status"] == "pass" for r in rows) else 1)
PY
expect_in "$mode: the summary counts the new statuses" "$out" \
  "$([ $mode = hang_third ] && echo "0 crashed, 2 timeout" || { [ $mode = input_writer ] && echo "2 errors, 0 unchecked, 3 crashed" || echo "2 crashed, 0 timeout"; })"
[ -n "$stack" ] && [ "$mode" != input_writer ] && expect_in "$mode: the worker's stderr passes through, prefixed" "$out" "[bad] "
finish
