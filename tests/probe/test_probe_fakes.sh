#!/bin/bash
# gemmhost probe on fake plugins with planted arithmetic: each plant is
# named exactly, and flagged as differing from what the fake declares.
# usage: test_probe_fakes.sh GEMMHOST SOURCE_DIR PYTHON FAKES_DIR
set -u
gemmhost=$1 src=$2 python=$3 fakes=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check="$python $src/tests/probe/check_probe.py"

# probe MODE EXPECTED_EXIT [gemmhost probe options...]: the probe of one fake, its JSON at $work/MODE.json.
probe() {
    local mode=$1 want=$2
    shift 2
    # The watchdog bounds only the hang fake's hanging case; every other fake
    # gets a minute, so a loaded machine cannot turn a slow call into a finding.
    local timeout=60
    [ "$mode" = hang ] && timeout=5
    printf '[run]\ndtype = auto\nplugin_dir = %s\n[backend fake]\nplugin = fake_arith_%s\ntimeout = %s\n' "$fakes" "$mode" \
        "$timeout" >"$work/$mode.ini"
    "$gemmhost" probe --config "$work/$mode.ini" --output "$work/$mode" "$@" >"$work/$mode.out" 2>"$work/$mode.err"
    local rc=$?
    if [ "$rc" != "$want" ]; then
        echo "FAIL: probe of fake_arith_$mode exited $rc, expected $want"
        cat "$work/$mode.out" "$work/$mode.err"
        failures=$((failures + 1))
        return 1
    fi
}
# judge STATUS OK_TEXT FAIL_TEXT [FILE...]: "ok: OK_TEXT" when STATUS is 0, else "FAIL: FAIL_TEXT"
# and the files, counted as a failure.
judge() {
    local status=$1 ok_text=$2 fail_text=$3
    shift 3
    if [ "$status" = 0 ]; then
        echo "ok: $ok_text"
    else
        echo "FAIL: $fail_text"
        cat "$@"
        failures=$((failures + 1))
    fi
}
expect() {
    local mode=$1
    shift
    $check "$work/$mode.json" "$@"
    judge $? "fake_arith_$mode" "fake_arith_$mode (the table follows)" "$work/$mode.out"
}

# What it declares: round to nearest, full sums, IEEE specials, one order.
probe ieee 0 && expect ieee --mismatches none \
    f32:input_rounding:verdict=exact,bits=23 f32:accumulator:verdict=nearest,bits=23 f32:input_range:verdict=full \
    f64:input_rounding:verdict=exact,bits=52 f64:accumulator:verdict=nearest,bits=52 f64:input_range:verdict=full \
    f16:input_rounding:verdict=exact,bits=10 f16:accumulator:verdict=nearest,bits=23 \
    bf16:input_rounding:verdict=exact,bits=7 bf16:accumulator:verdict=nearest,bits=23 bf16:input_range:verdict=full \
    f32:products:verdict=rounded f16:products:verdict=not-observable \
    f32:subnormal_inputs:verdict=kept f32:subnormal_results:verdict=kept f16:subnormal_results:verdict=kept \
    f32:nan_in_a:verdict=propagates f32:nan_in_b:verdict=propagates f32:inf_in_a:verdict=propagates \
    f32:inf_times_zero:verdict=nan f32:inf_minus_inf:verdict=nan f32:overflow:verdict=inf f16:overflow:verdict=inf \
    f32:order:verdict=sequential f32:repeats:verdict=identical \
    i32:int_overflow:verdict=wraps i32:int_exact:verdict=exact
# A combination the kernel lists but refuses gets one line (under isolation: the codec carries combos).
"$gemmhost" probe --config "$work/ieee.ini" >"$work/combo.out" 2>&1
grep -q "e5m2\*e4m3->f32 unsupported (case acc_bits_8bit)" "$work/combo.out"
judge $? "a type combination the kernel refuses is named" \
    "the refused e5m2 x e4m3 combination of fake_arith_ieee is not named" "$work/combo.out"
# 8-bit combinations under isolation, as declared: e4m3 x e4m3 summed in 13 bits promoted every 4,
# e4m3 x e5m2 in f32, i8 into i32 exact and wrapping; inputs decoded exactly, subnormals kept, NaN
# (and e5m2's -inf) carried, scales exact and applied to the rounded sum.
fp8_common=('e4m3*e4m3->f32:input_decoding:verdict=exact,mismatch=0' 'e4m3*e5m2->f32:input_decoding:verdict=exact'
    'e4m3*e4m3->f32:nan_in_a:verdict=propagates' 'e4m3*e5m2->f32:nan_in_b:verdict=propagates'
    'e4m3*e5m2->f32:minus_inf_in_b:verdict=propagates' 'e4m3*e4m3->f32:scale_pow2:verdict=exact,mismatch=0'
    'e4m3*e5m2->f32:scale_pow2:verdict=exact' 'i8*i8->i32:int_exact:verdict=exact,mismatch=0')
probe fp8 0 && expect fp8 --mismatches none "${fp8_common[@]}" \
    'e4m3*e4m3->f32:accumulator:bits=13,mismatch=0' 'e4m3*e4m3->f32:acc_promotion:verdict=every,every=4,mismatch=0' \
    'e4m3*e5m2->f32:accumulator:bits=23,mismatch=0' 'e4m3*e4m3->f32:subnormal_inputs:verdict=kept,mismatch=0' \
    'e4m3*e5m2->f32:subnormal_inputs:verdict=kept' 'e4m3*e4m3->f32:scale_where:verdict=after-sum' \
    'e4m3*e5m2->f32:scale_where:verdict=after-sum' 'i8*i8->i32:int_overflow:verdict=wraps,mismatch=0'
# A kernel that takes only nt with rows of whole 16s (wgmma's FP8, cuBLASLt's 8-bit GEMMs): the probe
# says so once per dtype and runs every case that way, padded with zeros, with the same findings.
probe kmajor 0 && expect kmajor --mismatches none "${fp8_common[@]}" \
    'e4m3*e4m3->f32:layout:verdict=nt-padded' 'e4m3*e4m3->f32:accumulator:bits=13,mismatch=0' \
    'e4m3*e4m3->f32:acc_promotion:verdict=every,every=4,mismatch=0' 'e4m3*e5m2->f32:accumulator:bits=23,mismatch=0'
# FP8 subnormal inputs flushed (OCP keeps them): flagged, in both types.
probe fp8_flush 1 && expect fp8_flush --mismatches subnormal_inputs "${fp8_common[@]}" \
    'e4m3*e4m3->f32:subnormal_inputs:verdict=flushed,mismatch=1' 'e4m3*e5m2->f32:subnormal_inputs:verdict=flushed,mismatch=1'
# tools/probe_md.py: the flushed subnormals marked in the table and said in words; a file that is
# not a probe named.
md=$("$python" "$src/tools/probe_md.py" "$work/fp8_flush.json" 2>&1)
if grep -q "flushed (!)" <<<"$md" && grep -q "e4m3\*e4m3->f32: subnormal_inputs: " <<<"$md"; then
    echo "ok: probe_md.py marks and lists the differing finding"
else
    echo "FAIL: probe_md.py on fp8_flush.json:"; echo "$md"; failures=$((failures + 1))
fi
echo '{"results": []}' >"$work/not-probe.json"
if md=$("$python" "$src/tools/probe_md.py" "$work/not-probe.json" 2>&1); then
    echo "FAIL: probe_md.py took a file that is not a probe"; failures=$((failures + 1))
elif grep -q "not-probe.json: not a gemmhost probe file" <<<"$md"; then
    echo "ok: probe_md.py names a file that is not a probe"
else
    echo "FAIL: probe_md.py's refusal does not name the file: $md"; failures=$((failures + 1))
fi
# An i8 -> i32 sum past i32 saturates: named, not flagged (the ABI has no word for overflow).
probe i8_saturate 0 && expect i8_saturate --mismatches none "${fp8_common[@]}" \
    'i8*i8->i32:int_overflow:verdict=saturates,mismatch=0'
# The scales multiply each product before the sum: named (the ABI's formula does not say).
probe scale_before 0 && expect scale_before --mismatches none "${fp8_common[@]}" \
    'e4m3*e4m3->f32:scale_where:verdict=before-sum' 'e4m3*e5m2->f32:scale_where:verdict=before-sum'
# gemmhost compare over two probes whose fakes differ in one property (the i8 sum's overflow): that
# row alone is marked, exit 1; a probe against itself exit 0; --json; probes and results don't mix.
"$gemmhost" compare "$work/fp8.json" "$work/i8_saturate.json" >"$work/cmp.out" 2>&1
rc=$?
[ "$rc" = 1 ] && [ "$(grep -c DIFFERS "$work/cmp.out")" = 1 ] &&
    grep -q "int_overflow *A: wraps *B: saturates *DIFFERS" "$work/cmp.out" &&
    grep -q "plugin fake_arith_i8_saturate" "$work/cmp.out" && grep -q "in common, 1 differ" "$work/cmp.out"
judge $? "compare marks the one property two probes differ in" \
    "compare of the fp8 and i8_saturate probes exited $rc" "$work/cmp.out"
"$gemmhost" compare --json "$work/fp8.json" "$work/fp8.json" >"$work/cmp.json" 2>&1
rc=$?
[ "$rc" = 0 ] && $python -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["compare"] == "probes" and d["differ"] == 0 and d["in_common"] > 10 and not any(r["differs"] for r in d["rows"])' "$work/cmp.json"
judge $? "a probe compared with itself agrees (--json)" "compare --json of a probe with itself exited $rc" \
    "$work/cmp.json"
echo '{"gemmhost": {"version": "0"}, "results": []}' >"$work/results.json"
"$gemmhost" compare "$work/fp8.json" "$work/results.json" >"$work/mix.out" 2>&1
rc=$?
"$gemmhost" compare --markdown "$work/fp8.json" "$work/fp8.json" >"$work/md.out" 2>&1
rc_md=$?
[ "$rc" = 2 ] && grep -q "probes compare with probes only" "$work/mix.out" && [ "$rc_md" = 2 ] &&
    grep -q "do not go with probe files" "$work/md.out"
judge $? "a probe and a results file are not compared; --markdown is refused for probes" \
    "compare of a probe with a results file exited $rc, --markdown $rc_md" "$work/mix.out" "$work/md.out"
# f32 and bf16 inputs through an f16 path: declared for bf16 (no mismatch there), not for f32
# (whose subnormals it loses too).
probe f16_path 1 && expect f16_path --mismatches input_range,input_rounding,subnormal_inputs,subnormal_results \
    f32:input_range:verdict=f16-range,mismatch=1 f32:input_rounding:verdict=nearest-even,bits=10,mismatch=1 \
    f32:subnormal_inputs:verdict=flushed,mismatch=1 bf16:input_range:verdict=f16-range,mismatch=0 \
    bf16:input_rounding:verdict=exact,mismatch=0 bf16:subnormal_inputs:verdict=flushed,mismatch=0
# (a) f32 inputs cut to TF32 toward zero, declared as TF32 to nearest.
probe tf32_trunc 1 && expect tf32_trunc --mismatches input_rounding \
    f32:input_rounding:verdict=toward-zero,bits=10,mismatch=1 f32:accumulator:bits=23,mismatch=0 \
    f16:input_rounding:verdict=exact,mismatch=0
# (b) an f32 sum that keeps 16 bits, declared as f32.
probe narrow_sum 1 && expect narrow_sum --mismatches accumulator \
    f32:accumulator:verdict=nearest,bits=16,mismatch=1 f32:acc_promotion:verdict=none \
    f32:input_rounding:verdict=hidden,mismatch=0 f16:accumulator:bits=23,mismatch=0
# (c) subnormals flushed, in and out.
probe flush 1 && expect flush --mismatches subnormal_inputs,subnormal_results \
    f32:subnormal_inputs:verdict=flushed,mismatch=1 f32:subnormal_results:verdict=flushed,mismatch=1 \
    f64:subnormal_inputs:verdict=flushed f16:subnormal_inputs:verdict=flushed bf16:subnormal_results:verdict=flushed \
    f32:accumulator:bits=23,mismatch=0
# (d) a step that would make the sum NaN is skipped.
probe drop_nan 1 && expect drop_nan --mismatches nan_in_a,nan_in_b,inf_times_zero,inf_minus_inf \
    f32:nan_in_a:verdict=dropped,mismatch=1 f32:nan_in_b:verdict=dropped,mismatch=1 \
    f16:nan_in_a:verdict=dropped f32:inf_in_a:verdict=propagates,mismatch=0 f32:overflow:verdict=inf
# (e) every other run sums over K backwards.
probe order_varies 1 && expect order_varies --mismatches repeats \
    f32:order:verdict=varies f32:repeats:verdict=differ,mismatch=1 f64:repeats:verdict=differ \
    f32:accumulator:bits=23,mismatch=0
# A kernel that crashes on a case: that case's finding, and the probe goes on in a fresh worker.
probe crash_acc 1 && expect crash_acc --mismatches accumulator,int_overflow \
    f32:accumulator:verdict=crashed,outcome=crashed,mismatch=1 f32:input_rounding:verdict=exact \
    f32:nan_in_a:verdict=propagates f64:accumulator:verdict=crashed
# A kernel that hangs on a case: a timeout finding (the watchdog's 5 s), and the probe goes on.
probe hang 1 && expect hang --mismatches overflow \
    f32:overflow:verdict=timeout,outcome=timeout,mismatch=1 f32:order:verdict=sequential f64:overflow:verdict=inf
if ! grep -q "crashed" "$work/crash_acc.out"; then
    echo "FAIL: the crash is not in the table"
    failures=$((failures + 1))
fi

# The table names the mismatch and shows the case.
grep -q "MISMATCH" "$work/narrow_sum.out" && grep -q "case acc_bits" "$work/narrow_sum.out" &&
    grep -q "declares f32 accumulation (23 bits)" "$work/narrow_sum.out"
judge $? "the table shows the mismatch, the declaration and the case" \
    "the table of narrow_sum lacks the mismatch, declaration or case:" "$work/narrow_sum.out"

# --json: the same document on stdout; a dtype the kernel lacks says so; run-only options are refused.
"$gemmhost" probe --config "$work/ieee.ini" --dtype f32 --json >"$work/stdout.json" 2>"$work/stdout.err"
$python -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [s["dtype"] for s in d["subjects"]] == ["f32"]' \
    "$work/stdout.json"
judge $? "--json prints the JSON, --dtype selects" "--json --dtype f32" "$work/stdout.json" "$work/stdout.err"
"$gemmhost" probe --config "$work/ieee.ini" --dtype f32,e4m3 >"$work/e4m3.out" 2>&1
grep -q "the kernel has no e4m3" "$work/e4m3.out"
judge $? "a dtype the kernel lacks is named" "--dtype f32,e4m3 does not say the kernel has no e4m3" "$work/e4m3.out"
"$gemmhost" probe --config "$work/ieee.ini" --size 64 >"$work/size.out" 2>&1
rc=$?
[ "$rc" = 2 ] && grep -q "does not go with gemmhost probe" "$work/size.out"
judge $? "--size is refused" "probe --size 64 exited $rc" "$work/size.out"

# A run's results file at the output is not replaced by a probe.
echo '{"gemmhost": "results"}' >"$work/run.json"
"$gemmhost" probe --config "$work/ieee.ini" --output "$work/run" >"$work/clobber.out" 2>&1
rc=$?
[ "$rc" = 2 ] && grep -q "not replaced" "$work/clobber.out" && grep -q results "$work/run.json"
judge $? "a file that is not a probe's JSON is not replaced" "probe --output over another file exited $rc" \
    "$work/clobber.out"

[ "$failures" = 0 ] && echo "probe fakes: all passed"
exit $((failures > 0))
