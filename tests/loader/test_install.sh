#!/usr/bin/env bash
# The install target: `cmake --install --prefix P` puts the binary, the
# plugins and the ABI header under P, and the installed binary, run from
# elsewhere, finds its plugins there (not in the build tree).
# Then the same for a prefix configured at build time (the installed binary's
# own folder and the configured one are then the same folder, spelled two
# ways) and for the default prefix installed into a scratch root (DESTDIR).
# Usage: test_install.sh CMAKE BUILD_DIR SOURCE_DIR
set -u
cmake=$1 build=$2 src=$3
command -v "$cmake" >/dev/null || cmake=cmake  # the configured one may not exist on another machine
. "$src/tests/expect.sh"

# installed_runs NAME BIN SIZES [FROM]: the installed binary lists its
# plugins (none shadowing itself), the C plugin among them (loaded from
# under the folder FROM when given), and runs the C plugin at SIZES, from a
# folder of its own. Exit 3 is allowed: a plugin there may have no device
# (CUDA in CI).
installed_runs() {
  local name=$1 bin=$2 sizes=$3 from=${4:-} out status
  out=$(cd "$work" && env -u GEMMHOST_PLUGIN_PATH "$bin" --list 2>&1)
  status=$?
  local selves
  selves=$(sed -n 's/^  NOT LOADED: \(.*\): not loaded, shadowed by \(.*\) found earlier.*/\1 \2/p' <<<"$out" | awk '$1 == $2')
  if [ "$status" = 0 ] && grep -q "^plugin cpu: " <<<"$out" && grep -qF "plugin cpu: $from" <<<"$out" &&
    [ -z "$selves" ]; then
    ok "$name: --list loads the C plugin${from:+ from $from}, none shadowed by itself"
  else
    bad "$name: --list exit $status"; echo "$out" | sed 's/^/    | /'
  fi
  (cd "$work" && env -u GEMMHOST_PLUGIN_PATH "$bin" --quiet --set run.sizes="$sizes" --output "$work/$name" >/dev/null 2>&1)
  status=$?
  if { [ "$status" = 0 ] || [ "$status" = 3 ]; } && grep -q "^[0-9]*,cpu,cpu," "$work/$name.csv" 2>/dev/null; then
    ok "$name: the default run has cpu rows (exit $status)"
  else
    bad "$name: the default run: exit $status, no cpu rows in $work/$name.csv"
  fi
}

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
installed_runs installed "$bin" 17x9x5 "$work/prefix/"

# A prefix configured at build time: a small build of the host and the C plugin.
# It needs the build's dependencies (inih): where they are missing (the GPU
# machine runs binaries built elsewhere) this part is skipped, saying why,
# except in CI, which installs them.
if "$cmake" -S "$src" -B "$work/b" -DCMAKE_INSTALL_PREFIX="$work/P" -DGEMMHOST_PLUGINS=cpu -DBUILD_TESTING=OFF \
     -DGEMMHOST_SANITIZE=OFF >"$work/configure.log" 2>&1; then
  if "$cmake" --build "$work/b" >"$work/build.log" 2>&1 && "$cmake" --install "$work/b" >"$work/install2.log" 2>&1; then
    ok "configured prefix: build and install"
    installed_runs configured "$work/P/bin/gemmhost" 9
    # The build-tree binary of that build finds its plugins too.
    installed_runs configured-build "$work/b/gemmhost" 9
  else
    bad "configured prefix: build and install"; tail -n 20 "$work"/build.log "$work"/install2.log | sed 's/^/    | /'
  fi
elif [ -z "${CI:-}" ] && grep -q "Could not find" "$work/configure.log"; then
  echo "skip: configured prefix: a fresh build cannot be configured here: $(grep -m1 'Could not find' "$work/configure.log" | sed 's/^ *//')"
else
  bad "configured prefix: configure"; tail -n 20 "$work/configure.log" | sed 's/^/    | /'
fi

# The default prefix, staged into a scratch root as a packager does (this
# build's binary looks in its configured prefix and beside itself).
if DESTDIR="$work/root" "$cmake" --install "$build" --prefix /usr/local >"$work/destdir.log" 2>&1 &&
   [ -x "$work/root/usr/local/bin/gemmhost" ]; then
  ok "DESTDIR install of the default prefix"
  installed_runs destdir "$work/root/usr/local/bin/gemmhost" 9
else
  bad "DESTDIR install of the default prefix"; sed 's/^/    | /' "$work/destdir.log"
fi

finish
