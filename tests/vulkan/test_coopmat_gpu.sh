#!/usr/bin/env bash
# vulkan_coopmat_gpu: the coopmat kernel end to end through gemmhost on
# tests/vulkan/coopmat-gpu.ini (f16 and bf16, every transpose, odd shapes,
# K = 4096, alpha 2 and beta -3, padded rows, each result verified in full),
# then again with beta = 0 over NaN, and with rows padded to multiples of 8
# elements (16-byte copies). For the GPU machine: where no Vulkan
# device offers cooperative matrices (lavapipe in Mesa 22.3), exit 77 saying
# so. Every row must pass, except the ones the device cannot do, which must
# be unsupported saying why: a shape it does not offer ("offers no"), or bf16
# through VK_NV_cooperative_matrix.
# Usage: test_coopmat_gpu.sh GEMMHOST SOURCE_DIR PYTHON
set -u
gemmhost=$1 src=$2 python=$3
command -v "$python" >/dev/null || python=python3
check="$python $src/tests/e2e/check_results.py"
config=$src/tests/vulkan/coopmat-gpu.ini
. "$src/tests/expect.sh"

list=$("$gemmhost" --list 2>&1)
if ! grep -q "cooperative matrices (" <<<"$list"; then
  echo "skip: no Vulkan device here offers cooperative matrices (VK_KHR_cooperative_matrix or" \
    "VK_NV_cooperative_matrix), so coopmat cannot run; the Vulkan devices:"
  "$gemmhost" --list --summary 2>&1 | grep '^  device vulkan/\|^plugin vulkan' | sed 's/^/    | /'
  exit 77
fi
grep "cooperative matrices (" <<<"$list" | sed 's/^ */device: /'
bf16=0
grep "cooperative matrices (" <<<"$list" | grep -q " bf16 " && bf16=1

# Every row passes, or is unsupported for a reason the device really has.
# Prints the exit status gemmhost must have had: 3 where some backend's
# parameter set could run no case (a shape the device lacks), else 0.
judge() { # PREFIX
  "$python" - "$1" <<'PYEOF'
import collections, csv, sys
bad, ran = [], collections.defaultdict(int)
allowed = ("offers no", "bf16 cooperative matrices need VK_KHR_cooperative_matrix")
for r in csv.DictReader(open(sys.argv[1] + ".csv", newline="")):
    group = (r["backend"], r["device_name"], r["params"])
    ran[group] += r["status"] == "pass"
    if r["status"] == "pass":
        continue
    if not (r["status"] == "unsupported" and any(a in r["detail"] for a in allowed)):
        bad.append(f"{r['backend']} {r['params']} {r['dtype']} {r['trans']} {r['m']}x{r['n']}x{r['k']}: "
                   f"{r['status']}: {r['detail'] or r['verify_message']}")
for b in bad[:20]:
    print("problem:", b, file=sys.stderr)
print(3 if any(n == 0 for n in ran.values()) else 0)
sys.exit(1 if bad else 0)
PYEOF
}

# judged_run NAME WHAT [ARG]...: gemmhost on the config with these arguments,
# into $work/NAME: every row judged, and the exit status the one judge says
# gemmhost must have.
judged_run() {
  local name=$1 what=$2 status want
  shift 2
  "$gemmhost" --quiet --config "$config" "$@" --output "$work/$name"
  status=$?
  want=$(judge "$work/$name" 2>/dev/null)
  expect_ok "$what: every row passes, or is unsupported for a shape or dtype the device lacks" judge "$work/$name"
  expect_status "$what: gemmhost" "$status" "${want:-0}"
}

judged_run coop "alpha 2, beta -3"
# 10 sizes x 2 dtypes x 4 transposes x 12 parameter sets
expect_ok "alpha 2, beta -3: 960 rows per device, both dtypes, every transpose, K = 4096" $check "$work/coop" \
  --min-rows 960 --distinct dtype=2 --distinct trans=4 --require k=4096 --require m=1 --require verify_method=full
# Every row of a backend in a dtype passes.
all_pass() { # PREFIX BACKEND DTYPE
  "$python" - "$@" <<'PYEOF'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1] + ".csv", newline=""))
        if r["backend"] == sys.argv[2] and r["dtype"] == sys.argv[3]]
passed = sum(r["status"] == "pass" for r in rows)
print(f"{passed} of {len(rows)} rows pass")
sys.exit(0 if rows and passed == len(rows) else 1)
PYEOF
}
for b in coopmat coopmat-blocks coopmat-subgroups coopmat-stages coopmat-wide coopmat-nv coopmat-emulated; do
  expect_ok "$b: every f16 row passes" all_pass "$work/coop" "$b" f16
done
if [ "$bf16" = 1 ]; then
  for b in coopmat coopmat-blocks coopmat-subgroups coopmat-stages coopmat-wide coopmat-emulated; do
    expect_ok "$b: every bf16 row passes" all_pass "$work/coop" "$b" bf16
  done
else
  echo "note: no device lists bf16 cooperative matrices (VK_KHR_shader_bfloat16): its bf16 rows are unsupported"
fi

# beta = 0: C holds NaN and must not be read.
judged_run coop0 "beta 0 over NaN" --set run.beta=0 --size 33x1x17,37x53x29,200x130x100,8x8x4096
expect_ok "beta 0 over NaN: 384 rows per device" $check "$work/coop0" --min-rows 384 --require beta=0

# Rows padded to multiples of 8 elements and sizes multiples of 8 (but not of
# the blocks): whole tiles read 16 bytes at a time, the edges element by
# element; K = 4096 runs 128 steps through both buffers.
judged_run coopv "16-byte copies" --set run.ld_pad=8 --size 256x256x256,264x136x200,392x520x72,128x256x4096
expect_ok "16-byte copies: 384 rows per device" $check "$work/coopv" --min-rows 384 --require k=4096

finish
