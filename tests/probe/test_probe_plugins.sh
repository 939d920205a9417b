#!/bin/bash
# gemmhost probe on the plugins CI has, reporting what they really do: f32
# and f64 round to nearest and sum in their own precision, f16 and bf16
# inputs reach an f32 sum exactly (what the kernels declare), IEEE specials,
# sequential sums that repeat bit for bit.
# usage: test_probe_plugins.sh GEMMHOST SOURCE_DIR PYTHON API (cpu, opencl or vulkan)
set -u
gemmhost=$1 src=$2 python=$3 api=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

case "$api" in
cpu) kernels="naive, tiled" dtypes="auto" ;;
opencl) kernels="naive, tiled" dtypes="auto" ;;
vulkan) kernels="naive" dtypes="f32, f16" ;; # lavapipe builds a pipeline per case: keep it small
esac
printf '[run]\ndtype = %s\n[backend %s]\nplugin = %s\nkernels = %s\n' "$dtypes" "$api" "$api" "$kernels" >"$work/probe.ini"
"$gemmhost" probe --config "$work/probe.ini" --output "$work/probe" >"$work/out" 2>"$work/err"
rc=$?
cat "$work/out"
if [ "$rc" = 3 ] && grep -q "no usable device\|could not" "$work/err"; then
    echo "SKIP: no $api device: $(head -3 "$work/err")"
    exit 0
fi
if [ "$rc" != 0 ]; then
    echo "FAIL: probe of $api exited $rc"
    cat "$work/err"
    exit 1
fi
common=(--mismatches none
    f32:input_rounding:verdict=exact,bits=23 f32:accumulator:verdict=nearest,bits=23 f32:input_range:verdict=full
    f16:input_rounding:verdict=exact,bits=10 f16:accumulator:verdict=nearest,bits=23
    f32:products:verdict=rounded\|fused f16:products:verdict=not-observable
    f32:subnormal_inputs:verdict=kept f32:subnormal_results:verdict=kept
    f32:nan_in_a:verdict=propagates f32:nan_in_b:verdict=propagates f32:inf_times_zero:verdict=nan
    f32:overflow:verdict=inf f16:overflow:verdict=inf
    f32:order:verdict=sequential f32:repeats:verdict=identical)
wide=(f64:input_rounding:verdict=exact,bits=52 f64:accumulator:verdict=nearest,bits=52
    bf16:input_rounding:verdict=exact,bits=7 bf16:accumulator:verdict=nearest,bits=23
    i32:int_exact:verdict=exact i32:int_overflow:verdict=wraps)
[ "$api" = vulkan ] && wide=()
if ! "$python" "$src/tests/probe/check_probe.py" "$work/probe.json" "${common[@]}" "${wide[@]}"; then
    echo "FAIL: the probe of $api"
    exit 1
fi
echo "probe $api: all passed"
