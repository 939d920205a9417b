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
