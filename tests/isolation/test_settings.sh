#!/usr/bin/env bash
# The isolation settings: [run] isolation and timeout, their refusals, the
# hidden worker mode. Usage: test_settings.sh GEMMHOST SOURCE_DIR PYTHON FAKES_DIR
set -u
gemmhost=$1 src=$2 python=$3 fakes=$4
command -v "$python" >/dev/null || python=python3
. "$src/tests/expect.sh"

expect_run "a negative timeout" 2 '[run] timeout: "-1" is not a timeout: give seconds (0 = none) or auto' "$gemmhost" --set run.timeout=-1 --dry-run
expect_run "an unknown isolation" 2 '"threads" is not an isolation (allowed: process, none)' "$gemmhost" --set run.isolation=threads --dry-run
out=$("$gemmhost" --help)
expect_in "--help has --no-isolation" "$out" "--no-isolation"
grep -q -- "--worker" <<<"$out" && bad "--help shows the hidden --worker" || ok "--help keeps --worker to itself"
expect_run "--worker typed by hand" 2 "is for gemmhost's own use" "$gemmhost" --worker

# [run] timeout applies to every backend that has none of its own.
small_run "8, 9" "timeout = 1" "plugin_dir = $fakes" "output = $work/hang" "[backend bad]" \
  "plugin = fake_hang_third" >"$work/hang.ini"
timeout 120 "$gemmhost" --quiet --config "$work/hang.ini" >/dev/null 2>&1
expect_status "[run] timeout = 1 and a plugin that hangs" $? 1
expect_ok "[run] timeout: pass, then timeout" $python -c "
import csv, sys
s = [r['status'] for r in csv.DictReader(open('$work/hang.csv'))]
print(s)
sys.exit(0 if s == ['pass', 'timeout'] else 1)"

# isolation = none in the file: the plugin runs in gemmhost, and its crash is
# gemmhost's (a sanitizer build reports it itself).
small_run "8, 9" "isolation = none" "plugin_dir = $fakes" "output = $work/none" "[backend bad]" \
  "plugin = fake_crash_third" >"$work/none.ini"
out=$(timeout 120 "$gemmhost" --config "$work/none.ini" 2>&1)
status=$?
if grep -qa __asan_init "$gemmhost"; then
  [ $status != 0 ] && ok "isolation = none: the crash is gemmhost's (sanitizer, exit $status)" || bad "isolation = none: exit 0"
else
  expect_status "isolation = none: the crash is gemmhost's" $status 139
  expect_in "isolation = none: the host's crash handler names the backend" "$out" "fatal signal SIGSEGV while running backend bad"
fi
finish
