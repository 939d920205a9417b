#!/usr/bin/env bash
# tools/gen_wgmma_ops.py writes kernels/cuda/wgmma_ops.cuh byte for byte: the committed header
# is the script's output, so a hand edit of either shows here. Also: a file it cannot write.
# Usage: test_gen_wgmma_ops.sh SOURCE_DIR PYTHON
set -u
src=$1 python=$2
tool=$src/tools/gen_wgmma_ops.py
committed=$src/kernels/cuda/wgmma_ops.cuh
. "$src/tests/expect.sh"

[ -x "$tool" ] && ok "gen_wgmma_ops.py is executable" || bad "gen_wgmma_ops.py is not executable"

"$python" "$tool" "$work/wgmma_ops.cuh"
expect_status "gen_wgmma_ops.py writes a file" $? 0
if cmp -s "$committed" "$work/wgmma_ops.cuh"; then
  ok "the generated header is the committed one"
else
  bad "kernels/cuda/wgmma_ops.cuh differs from tools/gen_wgmma_ops.py's output (run the script and commit both):"
  diff "$committed" "$work/wgmma_ops.cuh" | head -20 | sed 's/^/    | /'
fi

"$python" "$tool" >"$work/stdout.cuh"
expect_status "gen_wgmma_ops.py to standard output" $? 0
cmp -s "$committed" "$work/stdout.cuh" && ok "standard output is the same header" || bad "standard output differs"

out=$("$python" "$tool" "$work/no/such/folder/x.cuh" 2>&1)
expect_status "an output in a missing folder" $? 1
expect_in "the error names the file" "$out" "cannot write $work/no/such/folder/x.cuh"

"$python" "$tool" a b >/dev/null 2>&1
expect_status "two outputs" $? 2

finish
