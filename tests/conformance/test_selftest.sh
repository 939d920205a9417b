#!/usr/bin/env bash
# The conformance suite's own test: on plugins that each break one rule of
# plugin.h (broken_plugin.c), it must fail and name that rule; on the one
# that breaks none it must pass; with no device it must exit 77 and say why.
# Also: the host refuses a plugin offering some but not all stream members.
# Usage: test_selftest.sh SUITE BROKEN_DIR GEMMHOST
set -u
suite=$1 dir=$2 gemmhost=$3
source "$(dirname "$0")/../expect.sh"

run() { out=$("$suite" "$dir/gemmhost-broken_$1.so" --quiet 2>&1); status=$?; }

run none
expect_status "a plugin that breaks no rule passes" "$status" 0
# caught MODE RULE: the suite fails the plugin and names the rule
caught() {
  run "$1"
  expect_status "$1: the suite fails it" "$status" 1
  expect_in "$1: the failure names $2" "$out" "FAIL: $2"
}
caught reads_c "gemm.beta0_nan: device 0 kernel loop f32"
caught writes_past_c "gemm.c_guard: device 0 kernel loop f32"
caught writes_a "gemm.a_b_untouched: device 0 kernel loop f32"
caught wrong_status "gemm.refuse.ld: ldc below C's row length: got GH_ERROR, wanted GH_INVALID_ARGUMENT"
caught shared_error "errors.per_thread: a thread that has not failed reads"
caught short_params "params.short: kernel loop (1 params) given 0: got GH_OK"
caught partial_streams "table.streams_all_or_none"
caught old_minor_ignored "entry.older_minor"
caught tf32_undeclared "gemm.result: device 0 kernel loop f32"
caught bad_precision "kernels.info: kernel 0 (loop)"
expect_in "bad_precision: the entry and the fault are named" "$out" "precisions[0]: its dtype is not in the kernel's dtype mask"
run tf32_declared
expect_status "a kernel that multiplies in TF32 and declares it passes against the TF32 bound" "$status" 0
# ABI 1.5: combinations well-formed and computed; a plugin of minor 4 still passes
caught combo_duplicate "kernels.combos: kernel loop: combos[3] well-formed: the same (A, B, C) as entry 0"
caught combo_no_scale "gemm.combo: kernel loop, A e4m3 x B e5m2 -> C f32: C[0,0]"
out=$("$suite" "$dir/gemmhost-broken_none.so" 2>&1) # every check's line, not only the failures
expect_in "none: its combinations run" "$out" "ok: gemm.combo: kernel loop, A i8 x B i8 -> C i32: exact"
expect_in "none: an unlisted combination is refused" "$out" "ok: gemm.refuse.combo_unlisted: A e4m3 x B e4m3 -> C f32"
out=$("$suite" "$dir/gemmhost-broken_minor4.so" 2>&1)
expect_status "a plugin of ABI 1.4 passes" $? 0
expect_in "minor4: the combination checks are skipped, saying why" "$out" "skip: kernels.combos: the plugin answered minor 4"
expect_in "minor4: gemm_batch_async is not read below minor 6" "$out" \
  "skip: batch: device 0: the plugin has no gemm_batch_async (it answered a minor below 6)"
# ABI 1.6: gemm_batch_async, where offered
out=$("$suite" "$dir/gemmhost-broken_none.so" 2>&1)
expect_in "none: its batch runs" "$out" "ok: batch.result: kernel loop f32: gemm_batch_async of 3 launches"
expect_in "none: its batch refuses n = 0" "$out" "ok: batch.refuse_zero"
caught batch_zero "batch.refuse_zero: gemm_batch_async with n = 0: got GH_OK"
caught batch_no_timing "batch.timing: stream_synchronize wrote the one timing"

caught crash "crash: group options and errors died of signal"
expect_in "crash: the check before it is named" "$out" "note: the crash came after this check: options."
passed_after=$(sed -n 's/^conformance: \([0-9]*\) passed.*/\1/p' <<<"$out")
[ "${passed_after:-0}" -gt 100 ] && ok "crash: the other groups still ran ($passed_after checks passed)" ||
  bad "crash: only ${passed_after:-0} checks passed: the groups after the crash did not run"

run no_device
expect_status "no device: exit 77 (ctest: skipped)" "$status" 77
expect_in "no device: the plugin's reason is printed" "$out" "no device: the broken plugin was built without a device"

out=$("$suite" "$dir/gemmhost-no-such-plugin.so" 2>&1)
expect_status "a file that does not load fails" $? 1
expect_in "... saying why" "$out" "FAIL: load: dlopen"
"$suite" >/dev/null 2>&1
expect_status "no plugin named: usage" $? 2

list=$(GEMMHOST_PLUGIN_PATH=$dir "$gemmhost" --list 2>&1)
expect_in "the host refuses a plugin with some of the stream members" "$list" \
  "gemmhost-broken_partial_streams.so: function table offers 2 of the 6 stream members (missing: upload_2d_async, download_2d_async, gemm_async, stream_synchronize); they are all or none"
finish
