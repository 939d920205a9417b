#!/usr/bin/env bash
# A plugin author's path: install gemmhost into a scratch prefix, build a
# plugin (a copy of the C plugin, the template) against the installed headers
# only, and run the installed conformance suite on it.
# Usage: test_out_of_tree.sh CMAKE BUILD_DIR SOURCE_DIR CC
set -u
cmake=$1 build=$2 src=$3 cc=$4
command -v "$cmake" >/dev/null || cmake=cmake  # the configured one may not exist on another machine
source "$(dirname "$0")/../expect.sh"
prefix=$work/prefix

expect_ok "cmake --install into a scratch prefix" "$cmake" --install "$build" --prefix "$prefix"
for f in include/gemmhost/plugin.h include/gemmhost/plugin_helpers.h bin/gemmhost-conformance; do
  [ -e "$prefix/$f" ] && ok "installed: $f" || bad "not installed: $f"
done

# The helper header compiles on its own, warning-free, pedantic C11.
printf '#include <gemmhost/plugin_helpers.h>\nstatic const gh_plugin_api api = {.size = sizeof api};\nGH_PLUGIN_ENTRY(api)\n' \
  >"$work/alone.c"
expect_ok "plugin_helpers.h alone: -std=c11 -Wall -Wextra -Wpedantic -Werror" \
  "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -fPIC -c -I "$prefix/include" "$work/alone.c" -o "$work/alone.o"

# The template, copied out of the tree: only the installed headers.
mkdir -p "$work/myplugin"
cp "$src"/plugins/cpu/*.c "$src"/plugins/cpu/*.h "$work/myplugin/"
expect_ok "a copy of plugins/cpu builds against the installed headers alone" \
  "$cc" -std=c11 -O1 -Wall -Wextra -fPIC -shared -fvisibility=hidden -pthread -Wl,--no-undefined \
  -I "$prefix/include" "$work"/myplugin/*.c -o "$work/gemmhost-mycpu.so"
exported=$(nm -D --defined-only "$work/gemmhost-mycpu.so" 2>/dev/null | awk '{print $3}' | grep -v '^_' | tr '\n' ' ')
[ "$exported" = "gemmhost_plugin_entry " ] && ok "it exports only gemmhost_plugin_entry" ||
  bad "it exports: $exported"

out=$("$prefix/bin/gemmhost-conformance" "$work/gemmhost-mycpu.so" --quiet 2>&1)
expect_status "the installed suite passes it" $? 0
grep -q "^FAIL" <<<"$out" && echo "$out" | sed 's/^/    | /'
finish
