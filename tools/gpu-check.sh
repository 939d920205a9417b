#!/usr/bin/env bash
# Everything that needs the GPU machine: each GPU plugin's own test on the
# NVIDIA device, ctest, the cross-vendor config (every backend on the same
# cases) and the benchmark table. Usage: tools/gpu-check.sh BUILD_DIR LOG_DIR
#                            [TARBALL: refreshed with the logs after every step]
# Each step has its own time limit so one hang cannot eat the rest. Together
# they take more than one 10-minute call on the GPU machine: GPU_STEPS (e.g.
# "cuda cuda-half opencl") runs only the steps named, so two calls cover all.
# Build for it with the host's libraries linked in (the GPU machine may lack them):
#   cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGEMMHOST_STATIC_INIH=ON -DGEMMHOST_STATIC_JANSSON=ON
#   cmake --build build -j
set -u
build=$(cd "${1:-build}" && pwd)
logs=${2:-gpu-logs}
mkdir -p "$logs"
logs=$(cd "$logs" && pwd)
tarball=${3:-}
src=$(cd "$(dirname "$0")/.." && pwd)
step() { # step NAME SECONDS COMMAND...
  local name=$1 limit=$2; shift 2
  if [ -n "${GPU_STEPS:-}" ]; then case " $GPU_STEPS " in *" $name "*) ;; *) return 0 ;; esac; fi
  echo "== $name"
  local t0=$SECONDS
  timeout "$limit" "$@" >"$logs/$name.log" 2>&1
  local rc=$?
  echo "   exit $rc after $((SECONDS - t0)) s; last lines:"
  tail -n 4 "$logs/$name.log" | sed 's/^/   | /'
  [ -z "$tarball" ] || tar czf "$tarball" -C "$logs" .
}
nvidia-smi -L
step list 30 "$build/gemmhost" --list
# The CUDA plugin's tests on the device, a step per part of them
# (GEMMHOST_CUDA_TEST_PARTS), so that each fits one of the GPU machine's
# 10-minute calls: on a fresh H200 (2026-12-06) `half` and `8bit` together
# printed nothing in 200 s, and on the same machine minutes later `8bit`
# alone did not finish in 320 s while `half` took 78 s beside it; the whole
# set once took 3 minutes on an H100 that had run it minutes before.
# Then gemmhost end to end on its f16, bf16 and TF32 config (tests/cuda/half.ini).
# NVRTC's compiles of every kernel variant in every dtype (--full; ctest's
# plain run skips them) need no GPU and run near the end: past 6 minutes
# on the GPU machine, and in one step with the device tests, killed at its
# limit, they left no result at all.
# Verbose, so that a part cut off at its limit shows how far it got.
cuda_device_test=(env GEMMHOST_CUDA_TEST_REQUIRE_DEVICE=1 GEMMHOST_TEST_VERBOSE=1 "$build/tests/cuda/gemmhost-cuda-test"
  --device-only "$build/plugins/gemmhost-cuda.so" "$src/kernels/cuda")
step cuda 400 env GEMMHOST_CUDA_TEST_PARTS=limits,gemm,streams "${cuda_device_test[@]}"
step cuda-part-half 400 env GEMMHOST_CUDA_TEST_PARTS=half "${cuda_device_test[@]}"
step cuda-part-8bit 580 env GEMMHOST_CUDA_TEST_PARTS=8bit "${cuda_device_test[@]}"
# The speed table (gemmhost-cuda-perf: each kernel against cuBLAS in f32);
# printed, not judged: ctest's cuda_perf, label perf.
step cuda-perf 300 "$build/tests/cuda/gemmhost-cuda-perf" "$build/plugins/gemmhost-cuda.so"
step cuda-half 180 bash "$src/tests/cuda/test_half.sh" "$build/gemmhost" "$src/tests/cuda/half.ini" python3
step opencl 170 env GEMMHOST_TEST_OPENCL_PLATFORM=NVIDIA "$build/tests/opencl/test_opencl_plugin" \
  --plugin "$build/plugins/gemmhost-opencl.so"
step opencl-mma 200 bash "$src/tests/opencl/test_mma.sh" "$build/gemmhost" "$src" python3
step opencl-wgmma 200 bash "$src/tests/opencl/test_wgmma.sh" "$build/gemmhost" "$src" python3
# The OpenCL plugin's 8-bit suite on NVIDIA's device (ctest's runs on device
# 0, PoCL there): the classic kernels, mma and wgmma in i8 exactly.
step opencl-8bit 240 env GEMMHOST_TEST_OPENCL_PLATFORM=NVIDIA "$build/tests/opencl/test_opencl_8bit" \
  "$build/plugins/gemmhost-opencl.so"
# Every Vulkan kernel's parameter sets (ctest's vulkan_plugin_full, label
# full-sweep; CI's vulkan_plugin runs a sample), on the NVIDIA device:
# 8 processes side by side: warptile's pipeline per layout of the operands
# makes the driver's compiles take about 10 minutes in one (106 s in 8, H100).
step vulkan 300 bash "$src/tests/vulkan/test_vulkan_sharded.sh" "$build/tests/vulkan/test_vulkan" \
  "$build/plugins/gemmhost-vulkan.so" 8
step vulkan-coopmat 300 bash "$src/tests/vulkan/test_coopmat_gpu.sh" "$build/gemmhost" "$src" python3
(cd "$logs" && step cross-vendor 150 "$build/gemmhost" --config "$src/config/cross-vendor.ini" --output "$logs/cross-vendor" --overwrite)
# f32, f16 and bf16: three times the f32-only run it was sized for.
# The 8-bit agreement on the NVIDIA device (every API's 8-bit kernels on the
# same cases: i8 identical, FP8 within each bound), OpenCL mma and Vulkan
# coopmat in i8 beside CUDA's mma and cuBLASLt.
step eight-bit 300 bash -c 'for c in eight-bit-gpu eight-bit-opencl-mma eight-bit-vulkan-coopmat; do
  "$0/gemmhost" --config "$1/config/$c.ini" --output "$2/$c" --overwrite || exit 1; done' "$build" "$src" "$logs"
step bench 420 "$src/tools/bench.sh" "$build" "$src/config/bench-gpu.ini"
cp "$build/bench-gpu.csv" "$logs/" 2>/dev/null
# The tensor cores: mma, wgmma, OpenCL's mma and wgmma and Vulkan's coopmat beside cuBLAS.
step bench-tensor 200 "$src/tools/bench.sh" "$build" "$src/config/bench-tensor.ini"
cp "$build/bench-tensor.csv" "$logs/" 2>/dev/null
# The 8-bit table (wgmma, OpenCL's wgmma, mma beside cuBLASLt's FP8 and int8
# at 4096 and 8192), then cuBLASLt's rows against PyTorch's in the same call.
step bench-8bit 400 bash -c '"$0/tools/bench.sh" "$1" "$0/config/bench-8bit.ini" &&
  python3 "$0/tools/eight_bit_vs_torch.py" "$1/bench-8bit.json"' "$src" "$build"
cp "$build/bench-8bit.csv" "$build/bench-8bit.json" "$logs/" 2>/dev/null
# Nsight Compute on cuBLASLt's int8 and FP8 GEMMs and wgmma's at 8192
# (config/ncu-8bit.ini): every launch, cuBLASLt's 8 timed candidates (4
# launches each) too, hence 120; cuBLAS's kernels are named *gemm*, *xmma*,
# *cutlass* or nvjet*. Their names (cuBLASLt's give its tile), launch stats
# (cluster size), speed of light, occupancy, the pipes and memory.
# Clocks as the machine has them (--clock-control none), as the benchmarks ran.
step ncu-8bit 400 bash -c 'cd "$2" && ncu --clock-control none -k "regex:gemm|xmma|cutlass|nvjet" --launch-count 120 \
  --section SpeedOfLight --section LaunchStats --section Occupancy --section ComputeWorkloadAnalysis \
  --section MemoryWorkloadAnalysis --section WarpStateStats \
  "$0/gemmhost" --config "$1/config/ncu-8bit.ini" --output "$2/ncu-8bit" --overwrite' "$build" "$src" "$logs"
# The plugin contract on every device of each GPU plugin (NVIDIA's and any
# other the machine has), each in its own step: every check group runs in a
# fresh process and compiles its kernels again (OpenCL's wgmma: a program per
# 8-bit combination, each built twice for sm_90a).
for p in cuda opencl vulkan; do
  step "conformance-$p" 240 "$build/tests/conformance/gemmhost-conformance" "$build/plugins/gemmhost-$p.so" --quiet
done
# NVRTC's compiles of every CUDA kernel variant (see the cuda step; ctest's
# cuda_nvrtc_full, label full-sweep).
step cuda-nvrtc-full 1800 "$build/tests/cuda/gemmhost-cuda-test" --compile-only --full \
  "$build/plugins/gemmhost-cuda.so" "$src/kernels/cuda"
# The plugin tests ran above; ctest adds the host's own (loader, e2e, config...).
step ctest 180 ctest --test-dir "$build" --output-on-failure -j 8 -LE 'full-sweep|perf' -E '^((cuda|opencl|vulkan)_plugin|vulkan_shards|conformance_(cuda|opencl|vulkan)|cuda_(nvrtc|half)|opencl_(mma|wgmma)|vulkan_coopmat_gpu)$'

