# Shared by the shell tests: a scratch folder ($work, removed at exit),
# counted verdicts, and `finish` to print the tally and set the exit status.
# Source it after `set -u`.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok: $1"; }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; }
# expect_status NAME GOT WANTED
expect_status() { if [ "$2" = "$3" ]; then ok "$1 (exit $2)"; else bad "$1: exit $2, expected $3"; fi; }
# expect_ok NAME COMMAND...: the command succeeds (its output shown when not)
expect_ok() { local name=$1; shift; if "$@" >"$work/out" 2>&1; then ok "$name"; else bad "$name"; sed 's/^/    | /' "$work/out"; fi; }
# expect_in NAME TEXT PATTERN: TEXT contains PATTERN (a fixed string)
expect_in() { if grep -qF -- "$3" <<<"$2"; then ok "$1"; else bad "$1: expected: $3"; echo "$2" | sed 's/^/    | /'; fi; }
finish() { echo "$passed passed, $failed failed"; [ "$failed" = 0 ]; }
# small_run SIZES [LINE]...: a config's [run] section for a small f32 nn run
# (no warm-up, 2 repeats) of these sizes, then each LINE ("key = value", a
# [backend ...] header, ...) as given.
small_run() { printf '[run]\nsizes = %s\ndtype = f32\ntrans = nn\nwarmup = 0\nrepeat = 2\n' "$1"; shift; printf '%s\n' "$@"; }
# expect_run NAME STATUS TEXT COMMAND...: the command exits STATUS, its
# output (stdout and stderr, left in $out for further checks) holding TEXT
# (a fixed string).
expect_run() {
  local name=$1 want=$2 text=$3 got
  shift 3
  out=$("$@" 2>&1)
  got=$?
  expect_status "$name" "$got" "$want"
  expect_in "$name: says so" "$out" "$text"
}
