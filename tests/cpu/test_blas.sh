#!/usr/bin/env bash
# The C plugin's `blas` kernel (CBLAS, loaded at run time): right on odd
# shapes in f32 and f64, every transpose, alpha and beta away from 1 and 0,
# padded rows; and where the library is missing, unsupported with the reason.
# Usage: test_blas.sh GEMMHOST SOURCE_DIR PYTHON
set -u
gemmhost=$1 src=$2 python=$3
command -v "$python" >/dev/null || python=python3
check="$python $src/tests/e2e/check_results.py"
. "$src/tests/expect.sh"

cat >"$work/blas.ini" <<INI
[run]
sizes   = 1, 1x40x1, 33x1x17, 37x53x29, 63x65x64, 8x8x4096
dtype   = f32, f64
trans   = nn, nt, tn, tt
alpha   = 2
beta    = -3
warmup  = 0
repeat  = 2
verify  = full
ld_pad  = 3
guard   = 16

[backend cpu]
plugin  = cpu
kernels = blas
INI
"$gemmhost" --quiet --config "$work/blas.ini" --output "$work/blas"
expect_status "blas on odd shapes" $? 0
# 6 sizes x 2 dtypes x 4 transposes
expect_ok "blas: 48 rows, all pass, both dtypes, every transpose" $check "$work/blas" --rows 48 --status pass \
  --require kernel=blas --distinct dtype=2 --distinct trans=4
"$gemmhost" --quiet --config "$work/blas.ini" --set run.beta=0 --set run.sizes=37x53x29 --output "$work/beta0"
expect_status "blas with beta 0 (C poisoned with NaN, must not be read)" $? 0

out=$("$gemmhost" --config "$work/blas.ini" --set run.sizes=8 --set run.dtype=i32 --output "$work/i32" 2>&1)
expect_status "blas has no i32: the kernel never ran" $? 3
expect_in "... and says so" "$out" "kernel blas of plugin cpu has no i32"

out=$("$gemmhost" --config "$work/blas.ini" --set cpu.blas=libno-such-blas.so.9 --set run.sizes=8 \
  --output "$work/missing" 2>&1)
expect_status "a CBLAS that does not load: the kernel never ran" $? 3
expect_in "... the reason names the library" "$out" "no CBLAS library loads (option blas): libno-such-blas.so.9"
expect_ok "missing library: every row unsupported" $check "$work/missing" --rows 8 --status unsupported
finish
