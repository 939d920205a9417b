#!/usr/bin/env bash
# cuda_gate_ptx: the timing gate's PTX (plugins/cuda/gate.c), which the
# driver JIT-compiles at run time, assembled by ptxas here for the oldest and
# newest architectures the plugin meets, so a typo in it fails in CI and not
# on the first GPU it reaches.
# Usage: test_gate_ptx.sh PTXAS
set -u
ptxas=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/expect.sh"

# The C string literal's lines, unquoted: the PTX as the plugin hands it over.
sed -n '/gate_ptx\[\] =/,/;$/p' "$src/plugins/cuda/gate.c" | grep -o '"[^"]*"' |
  sed 's/^"//; s/"$//; s/\\n$//' >"$work/gate.ptx"
expect_in "the PTX declares its entry" "$(cat "$work/gate.ptx")" ".visible .entry gh_gate_hold("
for arch in sm_75 sm_90; do
  out=$("$ptxas" -arch=$arch -Werror "$work/gate.ptx" -o "$work/gate_$arch.cubin" 2>&1)
  expect_status "ptxas -arch=$arch assembles it" $? 0
  [ -z "$out" ] || echo "$out"
done
finish
