#!/usr/bin/env bash
# The whole test suite: a normal build, then an address + undefined-behaviour
# sanitizer build, each running every ctest test. CPU only: OpenCL on PoCL,
# Vulkan on lavapipe, the C plugin, and the CUDA plugin built and checked to
# report plainly that there is no CUDA device.
# Less the tests labelled full-sweep (NVRTC over every CUDA kernel variant:
# half an hour; lavapipe over every Vulkan kernel's parameter sets; ptxas
# over OpenCL mma's and wgmma's other variants; each kernel's default in
# every dtype, and its other code paths, run here) and perf (a speed table,
# not a verdict): `ctest --test-dir build -L 'full-sweep|perf'` runs them,
# and tools/gpu-check.sh on the GPU machine. docs/tests.md: what runs in
# which pass, and the representative form CI keeps of each full sweep.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

echo "== clang-format (the project's .clang-format over every C file)"
git ls-files '*.c' '*.h' | xargs clang-format --dry-run -Werror

echo "== build and test (RelWithDebInfo)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$jobs"
ctest --test-dir build --output-on-failure -j "$jobs" -LE 'full-sweep|perf'

echo "== build and test with -fsanitize=address,undefined"
# Less the tests labelled kernel-source (tests/CMakeLists.txt): outside
# tools over the kernel sources, which no sanitizer reaches; they ran above.
# The SPIR-V modules are the normal build's: glslc's output does not depend
# on the sanitizers, and building them twice doubled the suite's time.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DGEMMHOST_SANITIZE=ON \
  -DGEMMHOST_SPIRV_FROM="$PWD/build/plugins/vulkan/spirv" >/dev/null
cmake --build build-asan -j "$jobs"
# The build's own default options (cmake/asan_default_options.c) come
# first; these are added to them.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp:print_suppressions=0} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
  ctest --test-dir build-asan --output-on-failure -j "$jobs" -LE 'kernel-source|full-sweep|perf'
