#!/usr/bin/env bash
# lsan_tracer_retry.sh against fake tests: a tracer crash is retried once, and
# nothing else is (a failing test, a leak report, a crash on every run).
set -u
. "$(dirname "$0")/../expect.sh"
retry="$(dirname "$0")/lsan_tracer_retry.sh"

# fake_test RUNS...: a script that on its Nth run behaves as RUNS' Nth word:
# pass, fail, leak (a leak report), crash (the tracer's crash message).
fake_test() {
  printf '%s\n' "$@" > "$work/plan"
  rm -f "$work/count"
  cat > "$work/fake.sh" <<'FAKE'
n=$(( $(cat "$1/count" 2>/dev/null || echo 0) + 1 )); echo "$n" > "$1/count"
case $(sed -n "${n}p" "$1/plan") in
  pass) echo "fake: 3 passed, 0 failed"; exit 0 ;;
  fail) echo "fake: 2 passed, 1 failed"; exit 1 ;;
  leak) echo "==1==ERROR: LeakSanitizer: detected memory leaks" >&2; exit 23 ;;
  crash) echo "fake: 3 passed, 0 failed"
         echo "Tracer caught signal 11: addr=0x48 pc=0x7f3e2ece80f0 sp=0x7f3e2542dd10" >&2
         echo "==1==LeakSanitizer has encountered a fatal error." >&2; exit 1 ;;
esac
FAKE
}
# expect_runs NAME N: the fake test ran N times
expect_runs() { local n; n=$(cat "$work/count"); if [ "$n" = "$2" ]; then ok "$1 ($n)"; else bad "$1: ran $n times, expected $2"; fi; }

fake_test pass
expect_run "a passing test passes" 0 "3 passed" bash "$retry" bash "$work/fake.sh" "$work"
expect_runs "  runs once" 1

fake_test crash pass
expect_run "a tracer crash, then a pass: passes" 0 "running the test once more" bash "$retry" bash "$work/fake.sh" "$work"
expect_runs "  runs twice" 2

fake_test crash crash pass
expect_run "two tracer crashes: fails" 1 "LeakSanitizer has encountered a fatal error" bash "$retry" bash "$work/fake.sh" "$work"
expect_runs "  runs only twice" 2

fake_test fail pass
expect_run "a failing test fails" 1 "1 failed" bash "$retry" bash "$work/fake.sh" "$work"
expect_runs "  is not retried: runs once" 1

fake_test leak pass
expect_run "a leak report fails with its status" 23 "detected memory leaks" bash "$retry" bash "$work/fake.sh" "$work"
expect_runs "  is not retried: runs once" 1
finish
