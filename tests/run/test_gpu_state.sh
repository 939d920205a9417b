#!/usr/bin/env bash
# The GPU's state in every result (core/device_state), with no GPU: the C
# plugin reports a fake PCI address (GEMMHOST_CPU_FAKE_PCI_ADDRESS) that a
# fake libnvidia-ml (fake_nvml.c, through GEMMHOST_NVML_LIBRARY) answers for.
# A throttle reason and a clock drop flag the result in the table, JSON and
# CSV; a steady GPU does not; the clock fraction is the config's; without
# NVML, and with an NVML that answers errors, the fields say why and the
# run goes on; a bad fraction is a config error naming file and line.
# Usage: test_gpu_state.sh GEMMHOST FAKE_NVML SOURCE_DIR PYTHON
set -u
gemmhost=$(realpath "$1") fake_nvml=$(realpath "$2") src=$3 python=$4
command -v "$python" >/dev/null || python=python3
. "$src/tests/expect.sh"
unset GEMMHOST_PLUGIN_PATH
export GEMMHOST_CPU_FAKE_PCI_ADDRESS=0000:17:00.0

config() { # config NAME [RUN_KEYS]: two f32 sizes on the C plugin, 3 timed runs
  printf '[run]\nsizes = 16, 24\ndtype = f32\ntrans = nn\nwarmup = 1\nrepeat = 3\noutput = %s\n%s\n[backend cpu]\nplugin = cpu\nkernels = naive\n' \
    "$work/$1" "${2:-}" >"$work/$1.ini"
  echo "$work/$1.ini"
}
# field NAME KEY: KEY of the first result of run NAME's JSON, as Python prints it
field() { "$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0][sys.argv[2]])' "$work/$1.json" "$2"; }
csv_field() { "$python" -c 'import csv,sys; print(next(csv.DictReader(open(sys.argv[1])))[sys.argv[2]])' "$work/$1.csv" "$2"; }

# --- A GPU held by its power cap, its SM clock dropping: flagged everywhere.
out=$(FAKE_NVML_MODE=throttle GEMMHOST_NVML_LIBRARY=$fake_nvml "$gemmhost" --verbose --config "$(config throttle)" 2>&1)
expect_status "throttled run" $? 0
expect_in "table: the gpu column says throttled" "$out" " throttled"
expect_in "table: why, under the row" "$out" \
  "throttled while timed: sw_power_cap; SM clock fell to 1200 MHz, under 0.9 x its max 1980 MHz"
expect_in "JSON: throttled" "$(field throttle throttled)" "True"
expect_in "JSON: the reason" "$(field throttle throttle_reason)" "sw_power_cap; SM clock fell to 1200 MHz"
expect_in "JSON: the reasons seen" "$(field throttle clock_events)" "gpu_idle sw_power_cap"
expect_in "JSON: SM clock min" "$(field throttle sm_clock_mhz_min)" "1200"
expect_in "JSON: SM clock max" "$(field throttle sm_clock_mhz_max)" "1980"
expect_in "JSON: memory clock median" "$(field throttle mem_clock_mhz_median)" "3201"
expect_in "JSON: 3 samples" "$(field throttle gpu_samples)" "3"
expect_in "JSON: energy of 3 runs" "$(field throttle energy_j)" "4.5"
expect_in "JSON: temperature" "$(field throttle temperature_c_max)" "71"
expect_in "JSON: power" "$(field throttle power_w_median)" "350"
expect_in "JSON: GFLOP/J" "$(field throttle gflop_per_j)" "5.46133333e-06" # 2*16^3*3 / 1e9 / 4.5
expect_in "JSON: f32 peak, SIMT: 132 x 1980 MHz x 256" "$(field throttle peak_gflops)" "66908.16"
expect_in "JSON: peak unit" "$(field throttle peak_unit)" "simt"
expect_in "CSV: throttled" "$(csv_field throttle throttled)" "1"
expect_in "CSV: state" "$(csv_field throttle gpu_state)" "sampled"
notes=$(grep -c "^note: peak of .*compute capability 9.0, SMs from NVML: 16896 cores / 128 per SM" <<<"$out")
[ "$notes" = 1 ] && ok "the peak's derivation printed once for the device" || bad "peak derivation printed $notes times"
expect_in "the derivation names units, clock and ops" "$out" "tensor f16 132 SMs x 1980 MHz x 4096 = 1070.5 TFLOP/s"
expect_in "the derivation gives FP8 and i8 too" "$out" "tensor fp8 132 SMs x 1980 MHz x 8192 = 2141.1 TFLOP/s; tensor i8"

# --- 8-bit results are held to the tensor cores' FP8 and i8 peaks.
FAKE_NVML_MODE=steady GEMMHOST_NVML_LIBRARY=$fake_nvml "$gemmhost" --config "$(config eight)" --dtype e4m3 >/dev/null 2>&1
expect_in "JSON: e4m3 peak, tensor: 132 x 1980 MHz x 8192" "$(field eight peak_gflops)" "2141061.12"
expect_in "JSON: e4m3 peak unit" "$(field eight peak_unit)" "tensor"

# --- JUnit carries the state as properties.
FAKE_NVML_MODE=throttle GEMMHOST_NVML_LIBRARY=$fake_nvml "$gemmhost" --config "$(config junit)" \
  --junit "$work/junit.xml" >/dev/null 2>&1
expect_in "JUnit: throttled property" "$(cat "$work/junit.xml" 2>/dev/null)" '<property name="throttled" value="true"/>'
if command -v xmllint >/dev/null; then
  expect_ok "JUnit with GPU properties valid against tests/report/junit.xsd" \
    xmllint --noout --schema "$src/tests/report/junit.xsd" "$work/junit.xml"
else
  echo "skip: xmllint not installed (Debian: libxml2-utils), the JUnit schema check cannot run"
fi

# --- A steady GPU: sampled, not flagged.
out=$(FAKE_NVML_MODE=steady GEMMHOST_NVML_LIBRARY=$fake_nvml "$gemmhost" --verbose --config "$(config steady)" 2>&1)
expect_status "steady run" $? 0
expect_in "steady: not throttled" "$(field steady throttled)" "False"
expect_in "steady: state" "$(field steady gpu_state)" "sampled"
expect_in "steady: table says ok" "$out" " ok"
expect_in "steady: energy of 3 runs" "$(field steady energy_j)" "4.5"
expect_in "steady: no energy note" "[$(field steady energy_note)]" "[]"

# --- An energy counter that moves less often than a run: no energy, and why (not a sum of steps).
FAKE_NVML_MODE=coarse GEMMHOST_NVML_LIBRARY=$fake_nvml "$gemmhost" --config "$(config coarse)" >/dev/null 2>&1
expect_in "coarse counter: no energy" "$(field coarse energy_j)" "None"
expect_in "coarse counter: no GFLOP/J" "$(field coarse gflop_per_j)" "None"
expect_in "coarse counter: why" "$(field coarse energy_note)" "energy counter did not move across"

# --- A clock drop alone: flagged under the default fraction 0.9, not under 0.5.
FAKE_NVML_MODE=clockdrop GEMMHOST_NVML_LIBRARY=$fake_nvml "$gemmhost" --config "$(config drop9)" >/dev/null 2>&1
expect_in "clock drop under 0.9: flagged" "$(field drop9 throttled)" "True"
expect_in "clock drop under 0.9: why" "$(field drop9 throttle_reason)" "SM clock fell to 1200 MHz, under 0.9 x"
FAKE_NVML_MODE=clockdrop GEMMHOST_NVML_LIBRARY=$fake_nvml "$gemmhost" \
  --config "$(config drop5 'throttle_clock_fraction = 0.5')" >/dev/null 2>&1
expect_in "clock drop over 0.5: not flagged" "$(field drop5 throttled)" "False"

# --- No NVML: the fields say why, the run passes.
out=$(GEMMHOST_NVML_LIBRARY=$work/no-such-libnvidia-ml.so.1 "$gemmhost" --config "$(config none)" 2>&1)
expect_status "run without NVML" $? 0
expect_in "no NVML: why" "$(field none gpu_state)" "NVML not available: $work/no-such-libnvidia-ml.so.1"
expect_in "no NVML: no samples" "$(field none throttled)" "None"
FAKE_NVML_MODE=noinit GEMMHOST_NVML_LIBRARY=$fake_nvml "$gemmhost" --config "$(config noinit)" >/dev/null 2>&1
expect_in "NVML that does not start: why" "$(field noinit gpu_state)" "nvmlInit_v2 in $fake_nvml: Driver Not Loaded (status 9)"

# --- No PCI address: says so.
GEMMHOST_CPU_FAKE_PCI_ADDRESS= FAKE_NVML_MODE=steady GEMMHOST_NVML_LIBRARY=$fake_nvml \
  "$gemmhost" --config "$(config nopci)" >/dev/null 2>&1
expect_in "no PCI address: why" "$(field nopci gpu_state)" "no PCI address"
# --- A PCI address NVML does not know (another vendor's GPU).
GEMMHOST_CPU_FAKE_PCI_ADDRESS=0000:65:00.0 FAKE_NVML_MODE=steady GEMMHOST_NVML_LIBRARY=$fake_nvml \
  "$gemmhost" --config "$(config other)" >/dev/null 2>&1
expect_in "unknown PCI address: NVML's words" "$(field other gpu_state)" \
  'nvmlDeviceGetHandleByPciBusId_v2("0000:65:00.0"): Not Found (status 6)'

# --- An NVML whose calls fail: reported per device, the run goes on.
out=$(FAKE_NVML_MODE=errors GEMMHOST_NVML_LIBRARY=$fake_nvml "$gemmhost" --verbose --config "$(config errors)" 2>&1)
expect_status "run with a failing NVML" $? 0
expect_in "errors: the result passes" "$(field errors status)" "pass"
expect_in "errors: the state names the call" "$(field errors gpu_state)" \
  "not sampled: NVML nvmlDeviceGetTotalEnergyConsumption: GPU is lost (status 15)"
expect_in "errors: the device's peak says why" "$out" "unknown (NVML nvmlDeviceGetCudaComputeCapability: GPU is lost"

# --- The results file reads back (compare).
expect_ok "compare reads the new fields" "$gemmhost" compare "$work/throttle.json" "$work/throttle.json"

# --- A bad fraction: a config error naming file and line.
i=0
for bad_value in 0 1.5 -0.2 half; do
  i=$((i + 1))
  out=$("$gemmhost" --config "$(config badfrac$i "throttle_clock_fraction = $bad_value")" 2>&1)
  status=$?
  [ "$status" != 0 ] && ok "throttle_clock_fraction = $bad_value refused" || bad "throttle_clock_fraction = $bad_value accepted"
  expect_in "the message names file and line ($bad_value)" "$out" "badfrac$i.ini:8: [run] throttle_clock_fraction: \"$bad_value\" is not a fraction above 0 and at most 1"
done
finish
