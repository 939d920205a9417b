#!/usr/bin/env bash
# Installs what gemmhost builds and tests with, from Debian 12's packages.
# The CUDA toolkit is not a Debian package here: it is used from
# /usr/local/cuda when present, and the CUDA plugin is skipped otherwise.
set -euo pipefail
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
# python3-matplotlib: tools/plot.py; python3-zstandard: tools/vk_sass.py; libxml2-utils: xmllint checks the JUnit XML in the tests;
# libopenblas0: the C plugin's `blas` kernel (loaded at run time); vulkan-validationlayers:
# the Vulkan half-precision test also runs under the Khronos validation layer;
# libjansson-dev: --resume reads an earlier run's results JSON; libclblast1: the OpenCL plugin's
# `clblast` kernel (loaded at run time; libclblast-dev's header checks the plugin's declarations);
# clang-format: tools/test.sh checks the C sources against .clang-format; clang (with its
# libFuzzer, -fsanitize=fuzzer): the fuzz test builds tests/fuzz's targets with it;
# openmpi-bin, libopenmpi-dev: gemmhost runs under mpirun (docs/fleet.md), and the fleet tests run
# three ranks on this machine; without them gemmhost builds as one rank.
# spirv-tools: spirv-val on the Vulkan coopmat kernel's SPIR-V. Debian 12's spirv-val (2023.1)
# predates SPV_KHR_cooperative_matrix: the test of the KHR modules skips, saying so, unless a
# newer spirv-val is on PATH.
$sudo apt-get install -y -q --no-install-recommends \
  build-essential cmake pkg-config python3 python3-matplotlib python3-zstandard libxml2-utils \
  libinih-dev libopenblas0 libjansson-dev \
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd libclblast1 libclblast-dev \
  libvulkan-dev glslc mesa-vulkan-drivers vulkan-validationlayers spirv-tools clang-format clang \
  openmpi-bin libopenmpi-dev
