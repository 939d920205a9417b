#!/usr/bin/env bash
# lsan_tracer_retry.sh COMMAND...: runs a sanitizer-build test, and when it
# failed only because LeakSanitizer's own stop-the-world tracer crashed at
# exit ("Tracer caught signal", "LeakSanitizer has encountered a fatal
# error": intermittent, google/sanitizers#1353; not a leak report), says so
# and runs it once more. Every other failure, and a second crash, stand.
set -u
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$@" > >(tee "$log") 2>&1
status=$?
wait
if [ "$status" -ne 0 ] && grep -q '^Tracer caught signal' "$log" &&
  grep -q 'LeakSanitizer has encountered a fatal error' "$log"; then
  echo "lsan_tracer_retry: LeakSanitizer's tracer crashed at exit (exit $status; no leak was reported): running the test once more"
  "$@"
  status=$?
fi
exit "$status"
