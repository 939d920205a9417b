#!/usr/bin/env bash
# vulkan_half: the Vulkan plugin's f16 and bf16 through the real gemmhost,
# on tests/vulkan/half.ini (every kernel, odd shapes, K = 4096, every
# transpose, alpha 2 and beta -3, then beta 0), each result verified in full.
# A device that truly lacks storageBuffer16BitAccess may refuse them: its
# rows must then be unsupported with that reason, and the test says so.
# Usage: test_half.sh GEMMHOST SOURCE_DIR PYTHON. Exit 77 without a Vulkan device.
set -u
gemmhost=$1 src=$2 python=$3
command -v "$python" >/dev/null || python=python3  # the configured one may not exist on another machine
check="$python $src/tests/e2e/check_results.py"
config=$src/tests/vulkan/half.ini
. "$src/tests/expect.sh"

if ! "$gemmhost" --list --summary 2>&1 | grep -q '^  device vulkan/'; then
  echo "skip: no Vulkan device here:"
  "$gemmhost" --list --summary 2>&1 | grep '^plugin vulkan' | sed 's/^/    | /'
  exit 77
fi

# Rows per run and device: (naive at 4 wg + tiled at 4 tiles + blocked at 3
# settings) x 2 dtypes x 4 transposes x the sizes (7 in the config, 3 at beta 0).
rows_beta=$((11 * 2 * 4 * 7)) rows_beta0=$((11 * 2 * 4 * 3))

# Every row passes, or is unsupported because its device has no
# storageBuffer16BitAccess, saying so and naming the device. Prints a line
# per such device; exits 0 when it holds.
lacking() { # PREFIX
  "$python" - "$1" <<'EOF'
import csv, sys
bad, lacking = [], set()
for r in csv.DictReader(open(sys.argv[1] + ".csv", newline="")):
    if r["status"] == "pass":
        continue
    why = r["detail"]
    if r["status"] == "unsupported" and "has no storageBuffer16BitAccess" in why and r["device_name"] in why:
        lacking.add(r["device_name"])
    else:
        bad.append(f"{r['backend']} {r['kernel']} {r['params']} {r['dtype']} {r['trans']} "
                   f"{r['m']}x{r['n']}x{r['k']}: {r['status']}: {why or r['verify_message']}")
for d in sorted(lacking):
    print(f"note: device {d} has no storageBuffer16BitAccess: its f16 and bf16 rows are unsupported, as they must be")
for b in bad[:20]:
    print("problem:", b)
sys.exit(1 if bad else 0)
EOF
}

# A run's exit status: 0, or 3 when some device lacks 16-bit storage (its
# kernels then never ran).
expect_run() { # NAME STATUS PREFIX
  local want=0
  grep -q 'has no storageBuffer16BitAccess' "$3.csv" 2>/dev/null && want=3
  expect_status "$1" "$2" "$want"
}

"$gemmhost" --quiet --config "$config" --output "$work/half"
expect_run "f16 and bf16 on every kernel, alpha 2, beta -3" $? "$work/half"
expect_ok "beta -3: $rows_beta rows per software device" $check "$work/half" --rows "$rows_beta" --software-only \
  --distinct dtype=2 --distinct trans=4 --require k=4096 --require m=1 \
  --require kernel=naive --require kernel=tiled --require kernel=blocked --require verify_method=full
expect_ok "beta -3: every row passes (or its device truly lacks 16-bit storage)" lacking "$work/half"

# beta = 0: C holds NaN and must not be read.
"$gemmhost" --quiet --config "$config" --set run.beta=0 --size 33x1x17,37x53x29,8x8x4096 --output "$work/half0"
expect_run "f16 and bf16 on every kernel, beta 0 over NaN" $? "$work/half0"
expect_ok "beta 0: $rows_beta0 rows per software device" $check "$work/half0" --rows "$rows_beta0" --software-only \
  --require beta=0 --distinct dtype=2 --distinct trans=4
expect_ok "beta 0: every row passes (or its device truly lacks 16-bit storage)" lacking "$work/half0"

# What a device without 16-bit storage gets, on every device: the plugin's
# hide_features option makes it so. Unsupported, the reason naming the
# feature, and exit 3 (the kernel could run no case).
out=$("$gemmhost" --config "$config" --backend vulkan --kernel naive --set vulkan.wg=16 --size 37x53x29 --trans nn \
  --set vulkan.hide_features=storageBuffer16BitAccess --output "$work/hidden" 2>&1)
expect_status "without 16-bit storage: the kernel could run no case" $? 3
expect_ok "without 16-bit storage: every row unsupported, with the reason" $check "$work/hidden" --status unsupported \
  --distinct dtype=2
expect_in "without 16-bit storage: the reason names the feature" "$(cat "$work/hidden.csv")" \
  "storageBuffer16BitAccess (16-bit storage buffers, needed for f16 and bf16) is hidden by the option hide_features"
expect_in "without 16-bit storage: the run says so" "$out" "storageBuffer16BitAccess"

# Under the Khronos validation layer, where installed (Debian:
# vulkan-validationlayers): lavapipe runs 16-bit storage whether or not the
# feature was enabled and whatever storage class the SPIR-V puts the buffers
# in; the layer checks both against the spec.
layer=""
for d in ${XDG_DATA_DIRS:-/usr/local/share:/usr/share} /etc; do
  for dir in ${d//:/ }; do
    [ -e "$dir/vulkan/explicit_layer.d/VkLayer_khronos_validation.json" ] && layer=$dir
  done
done
if [ -n "$layer" ]; then
  out=$(VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "$gemmhost" --quiet --config "$config" --set vulkan.wg=16 \
    --set vulkan.tile=16 --size 37x53x29 --trans nn,tt --output "" 2>&1)
  expect_status "under the validation layer" $? "$(grep -q 'has no storageBuffer16BitAccess' <<<"$out" && echo 3 || echo 0)"
  if grep -q 'Validation' <<<"$out"; then bad "under the validation layer: no validation message"; echo "$out" | grep Validation | head -5 | sed 's/^/    | /'
  else ok "under the validation layer: no validation message"; fi
else
  echo "skip: the Khronos validation layer is not installed (Debian: vulkan-validationlayers), so the run under it cannot be done"
fi

finish
