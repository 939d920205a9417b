# Shared by the tests that assemble OpenCL kernels offline (through
# tools/ocl_ptxas.sh): sets $clang and $ptxas, or exits 77 (skip) naming
# what is missing. Source it after `set -u`.
clang=
for c in clang-15 clang-14 clang; do command -v "$c" >/dev/null && { clang=$c; break; }; done
ptxas=${PTXAS:-}
[ -n "$ptxas" ] || { [ -x /usr/local/cuda/bin/ptxas ] && ptxas=/usr/local/cuda/bin/ptxas; } || ptxas=$(command -v ptxas)
if [ -z "$clang" ] || [ -z "$ptxas" ]; then
  echo "skip: needs clang (15, 14 or unversioned) and ptxas (CUDA's, or \$PTXAS): clang '${clang}', ptxas '${ptxas}'"
  exit 77
fi
