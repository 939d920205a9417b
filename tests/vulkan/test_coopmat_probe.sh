#!/usr/bin/env bash
# vulkan_coopmat_probe: coopmat's diagnostic probes (kernels/vulkan/coopmat.comp,
# PROBE) with the cooperative matrices emulated: 1 and 2 verify on
# tests/vulkan/coopmat-probe-emu.ini; 3 (shared loads and multiply-adds on
# the first tiles only) verifies where k fits one step and fails past it,
# as designed. Usage: test_coopmat_probe.sh GEMMHOST SOURCE_DIR.
# Exit 77 without a Vulkan device.
set -u
gemmhost=$1 src=$2
config=$src/tests/vulkan/coopmat-probe-emu.ini
. "$src/tests/expect.sh"

if ! "$gemmhost" --list --summary 2>&1 | grep -q '^  device vulkan/'; then
  echo "skip: no Vulkan device here"
  exit 77
fi

out=$("$gemmhost" --config "$config" --output "$work/probes" 2>&1)
expect_status "probes 0-2 verify" $? 0
# 3 probes x 4 transposes x 5 sizes, per Vulkan device
expect_in "every row ran" "$out" "gemmhost: $((3 * 4 * 5 * $("$gemmhost" --list --summary 2>&1 |
  grep -c '^  device vulkan/'))) passed, 0 failed"

out=$("$gemmhost" --config "$config" --output "$work/one" --set coopmat-emulated.probe=3 --size 100x70x20,128x128x32 2>&1)
expect_status "probe 3 verifies within one k step" $? 0
out=$("$gemmhost" --config "$config" --output "$work/many" --set coopmat-emulated.probe=3 --size 128x128x96 --trans nn 2>&1)
expect_in "probe 3 is wrong past one k step" "$out" "0 passed, 1 failed"
finish
