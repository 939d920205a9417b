#!/usr/bin/env bash
# opencl_half: the OpenCL plugin's naive, tiled and blocked kernels in f16 and
# bf16, end to end through gemmhost on tests/opencl/half.ini: every kernel and
# tile, every transpose, odd shapes and K = 4096, alpha = 2 with beta = -3,
# then again with beta = 0 (C starts as NaN and must not be read).
# Usage: test_half.sh GEMMHOST SOURCE_DIR PYTHON. Exit 77: no OpenCL device.
set -u
. "$(dirname "$0")/e2e_setup.sh" half.ini "$@"

# A hardware device (e.g. NVIDIA's, on the GPU machine) may refuse a variant
# its compiler cannot fit (a 32 x 32 work-group over the kernel's maximum
# work-group size): that is `unsupported` with the reason, and the run's exit
# status 3 for the variant that never ran on it (e2e_setup.sh's
# $want_status). PoCL runs everything.
status_ok() { [ "$1" = 0 ] || [ "$1" = "$want_status" ]; }

# Every row is f16 or bf16, verified in full against the arithmetic the
# plugin declares: f32 accumulation (the default: it declares none).
every_row() {
  $python - "$1.csv" "$2" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
beta = sys.argv[2]
bad = [r for r in rows if r["dtype"] not in ("f16", "bf16") or r["arithmetic"] != "f32 accumulate"
       or r["verify_method"] != "full" or float(r["beta"]) != float(beta)]
for r in bad[:5]:
    print("unexpected row:", r["kernel"], r["params"], r["dtype"], r["arithmetic"], r["verify_method"], r["beta"])
sys.exit(1 if bad or not rows else 0)
PY
}

# 7 sizes x 2 dtypes x 4 transposes x 8 variants (naive wg 8, 16, 32; tiled
# tile 4, 8, 16, 32; blocked 128/8). A device without what a dtype
# needs would show `unsupported`: every row must pass here, since f16 needs
# nothing beyond core OpenCL C (vload_half/vstore_half_rte) and bf16 is
# 16-bit integers converted in the kernel.
"$gemmhost" --quiet --config "$config" --output "$work/half"
rc=$?
status_ok $rc && ok "f16 and bf16, every OpenCL kernel, alpha = 2, beta = -3 (exit $rc)" ||
  bad "f16 and bf16, every OpenCL kernel, alpha = 2, beta = -3: exit $rc, expected 0"
expect_ok "448 rows, all pass: every kernel, variant, dtype and transpose, K = 4096" $check "$work/half" \
  --rows 448 --software-only --status pass $or_unsupported --distinct dtype=2 --distinct trans=4 --distinct params=8 \
  --require kernel=naive --require kernel=tiled --require kernel=blocked --require k=4096 --require m=1
expect_ok "every row f16 or bf16, f32 accumulate, verified in full, beta = -3" every_row "$work/half" -3

# beta = 0 over a NaN-filled C: 3 sizes x 2 dtypes x 4 transposes x 8 variants.
"$gemmhost" --quiet --config "$config" --set run.beta=0 --size 33x1x17,37x53x29,8x8x4096 --output "$work/beta0"
rc=$?
status_ok $rc && ok "f16 and bf16, every OpenCL kernel, beta = 0 (exit $rc)" ||
  bad "f16 and bf16, every OpenCL kernel, beta = 0: exit $rc, expected 0"
expect_ok "beta = 0: 192 rows, all pass" $check "$work/beta0" --rows 192 --software-only --status pass $or_unsupported \
  --distinct dtype=2 --distinct trans=4 --distinct params=8
expect_ok "every row f16 or bf16, f32 accumulate, verified in full, beta = 0" every_row "$work/beta0" 0

finish
