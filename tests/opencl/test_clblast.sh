#!/usr/bin/env bash
# opencl_clblast: the OpenCL plugin's clblast kernel end to end through
# gemmhost on tests/opencl/clblast.ini: f32 and f64, every transpose, odd
# shapes and one on CLBlast's indirect (several-kernel) path, alpha = 2 with
# beta = -3 and again with beta = 0 (C starts as NaN and must not be read),
# padded rows and offsets, each result verified in full; f16 refused where
# the device lacks cl_khr_fp16 (PoCL); a library that does not load, or is
# not CLBlast, refused naming it.
# Usage: test_clblast.sh GEMMHOST SOURCE_DIR PYTHON. Exit 77: no OpenCL
# device, or no CLBlast here (the refusals are checked first).
set -u
. "$(dirname "$0")/e2e_setup.sh" clblast.ini "$@"
# A hardware device may lack fp64 (its f64 rows unsupported, exit 3); PoCL has it.

# A library that is not there, and one that loads but is not CLBlast: every
# case unsupported (exit 3), naming the library and why.
missing="$work/no-such-dir/libclblast.so.1"
"$gemmhost" --quiet --config "$config" --set clblast.clblast="$missing" --size 5,37x53x29 --output "$work/missing" \
  2>/dev/null
expect_status "a CLBlast path that does not exist: every case unsupported" $? 3
expect_ok "... each naming the path and that it does not load" all_refused "$work/missing.csv" \
  "CLBlast does not load (the library the option clblast names): $missing"
"$gemmhost" --quiet --config "$config" --set clblast.clblast=libm.so.6 --size 5 --output "$work/not-clblast" \
  2>/dev/null
expect_status "a library that is not CLBlast (libm.so.6): every case unsupported" $? 3
expect_ok "... each saying it has no CLBlastSgemm" all_refused "$work/not-clblast.csv" \
  "libm.so.6 loads but has no CLBlastSgemm"

# The default library: where it is absent, every row says so and the rest
# cannot be tested here.
skip_without_clblast "$work" "the refusals above"

# 7 shapes x 2 dtypes x 4 transposes, alpha = 2, beta = -3.
run_ok "clblast f32 and f64, alpha = 2, beta = -3" --output "$work/ab"
expect_ok "56 rows, all pass, verified in full, timed by the device clock" $check "$work/ab" --rows 56 --software-only \
  --status pass $or_unsupported --distinct dtype=2 --distinct trans=4 --require verify_method=full --require clock=device

# The indirect path, every transpose in f32 and one in f64 (each full
# reference is 0.9 G multiply-adds). Under the sanitizers (the build sets
# GEMMHOST_TEST_SANITIZED=1) those references at -O0 were most of the
# test's 113 s: there the indirect path runs once (f32 nt, beta = 0,
# below), the same host code; the normal build runs all of them.
if [ "${GEMMHOST_TEST_SANITIZED:-0}" = 1 ]; then
  echo "skip: clblast 1001x999x900 in f32 (4 transposes) and f64 tn under the sanitizers; the normal build runs them"
else
  run_ok "clblast 1001x999x900 f32" --size 1001x999x900 --dtype f32 --output "$work/big32"
  expect_ok "1001x999x900 f32: 4 rows, all pass" $check "$work/big32" --rows 4 --software-only --status pass \
    $or_unsupported --distinct trans=4 --require verify_method=full
  run_ok "clblast 1001x999x900 f64 tn" --size 1001x999x900 --dtype f64 --trans tn --output "$work/big64"
  expect_ok "1001x999x900 f64 tn: passes" $check "$work/big64" --rows 1 --software-only --status pass $or_unsupported
fi

# beta = 0 over a NaN-filled C, the direct path and (f32 nt) the indirect one.
run_ok "clblast, beta = 0" --set run.beta=0 --size 37x53x29,129x127x20 --output "$work/beta0"
expect_ok "beta = 0: 16 rows, all pass" $check "$work/beta0" --rows 16 --software-only --status pass $or_unsupported \
  --distinct dtype=2 --distinct trans=4
run_ok "clblast, beta = 0, 1001x999x900 f32 nt" --set run.beta=0 --size 1001x999x900 --dtype f32 --trans nt \
  --output "$work/beta0-big"
expect_ok "beta = 0, 1001x999x900 f32 nt: passes" $check "$work/beta0-big" --rows 1 --software-only --status pass \
  $or_unsupported

# f16: CLBlast's HGEMM computes in half precision. PoCL has no cl_khr_fp16:
# refused, naming it; a device with it runs HGEMM, held to f16 sums.
"$gemmhost" --quiet --config "$config" --dtype f16 --size 37x53x29 --trans nn,tt --output "$work/f16" 2>/dev/null
rc=$?
f16_rows() {
  $python - "$1.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def ok(r):
    refused = r["status"] == "unsupported" and "needs cl_khr_fp16, which" in r["detail"]
    if "PoCL" in r["device_api"]:
        return refused
    return refused or (r["status"] == "pass" and r["arithmetic"] == "f16 accumulate")
bad = [r for r in rows if not ok(r)]
for r in bad[:5]:
    print("unexpected row:", r["device_api"], r["dtype"], r["status"], r["arithmetic"], r["detail"])
sys.exit(1 if bad or not rows else 0)
PY
}
[ $rc = 0 ] || [ $rc = 3 ] && ok "clblast f16 (exit $rc)" || bad "clblast f16: exit $rc, expected 3 (or 0)"
expect_ok "f16 on PoCL refused for want of cl_khr_fp16; elsewhere refused so, or passing with f16 sums" f16_rows \
  "$work/f16"

finish
