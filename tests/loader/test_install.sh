#!/usr/bin/env bash
# The install target: `cmake --install --prefix P` puts the binary, the
# plugins and the ABI header under P, and the installed binary, run from
# elsewhere, finds its plugins there (not in the build tree).
# Usage: test_install.sh CMAKE BUILD_DIR
set -u
cmake=$1 build=$2
command -v "$cmake" >/dev/null || cmake=cmake  # the configured one may not exist on another machine
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok: $1"; }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; }

if "$cmake" --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1; then
  ok "cmake --install --prefix"
else
  bad "cmake --install --prefix"; sed 's/^/    | /' "$work/install.log"
fi
bin=$work/prefix/bin/gemmhost
plugin=$(find "$work/prefix" -name gemmhost-cpu.so | head -n 1)
[ -x "$bin" ] && ok "the binary is in bin/" || bad "no $bin"
case $plugin in
  "$work/prefix/"*/gemmhost/gemmhost-cpu.so) ok "the cpu plugin is under the prefix ($plugin)" ;;
  *) bad "the cpu plugin is not under the prefix: '$plugin'"; sed 's/^/    | /' "$work/install.log" ;;
esac
[ -f "$work/prefix/include/gemmhost/plugin.h" ] && ok "the ABI header is in include/gemmhost" ||
  bad "no include/gemmhost/plugin.h"

out=$(cd "$work" && env -u GEMMHOST_PLUGIN_PATH "$bin" --list 2>&1)
if grep -qF "plugin cpu: $work/prefix/bin/../" <<<"$out"; then
  ok "the installed binary loads the installed cpu plugin"
else
  bad "the installed binary did not load its own cpu plugin"; echo "$out" | sed 's/^/    | /'
fi
(cd "$work" && env -u GEMMHOST_PLUGIN_PATH "$bin" --quiet --set run.sizes=17x9x5 --output "$work/run" >/dev/null 2>&1)
status=$?
# Exit 3 is allowed: a plugin here may have no device (CUDA in CI).
if { [ "$status" = 0 ] || [ "$status" = 3 ]; } && grep -q "^[0-9]*,cpu,cpu," "$work/run.csv" 2>/dev/null; then
  ok "the installed binary runs the default config with the C plugin (exit $status)"
else
  bad "the installed binary's default run: exit $status, no cpu rows in $work/run.csv"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
