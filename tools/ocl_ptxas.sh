#!/usr/bin/env bash
# ocl_ptxas.sh: an offline check of an OpenCL kernel's inline PTX without an
# NVIDIA GPU or driver: clang compiles the kernel (after common.cl, as the
# plugin does) to PTX for NVIDIA's OpenCL target, then ptxas assembles it for
# sm_90 and reports registers, spills and shared memory per variant.
# A proxy: NVIDIA's own OpenCL compiler differs (its register counts too),
# but PTX syntax errors and gross register pressure show here, and clang's
# warnings are errors: NVIDIA's compiler is clang-based and prints its
# warnings too (e.g. a constant beside && or ||).
#
# Usage: tools/ocl_ptxas.sh [-k KERNEL] [-a ARCH] [DTYPE:NAME=V,NAME=V... ...]
#   KERNEL  a file of kernels/opencl without .cl (default mma)
#   ARCH    ptxas's -arch (default sm_90; wgmma's sm_90a, for which the PTX
#           is rewritten as the plugin does: its "//SM90A " marks dropped,
#           the target sm_90a, and clang's .version raised to 8.0)
#   each variant: f16, bf16, f32, f64, i8 (i8 x i8 -> i32, as the plugin
#   builds it: C int, -DGH_A_I8 -DGH_B_I8) or an FP8 pair A*B->C (e4m3,
#   e4m3*e5m2->bf16; C f32 when left out), then the kernel's defines, e.g.
#     f16:BM=128,BN=128,BK=32,WM=64,WN=64,STAGES=2
#   none: mma's variants of config/bench-mma-opencl.ini, its f32 and i8 defaults,
#   or warptile's default in f32, f16 and bf16, and f32's cp.async programs
#   (with GH_NV_REGISTER_CAP, for the late barrier, as the plugin builds them),
#   or wgmma's default and tests/opencl/wgmma.ini's in f16 and bf16, its 8-bit
#   default in e4m3 and i8 and wgmma8.ini's 64 deep in two FP8 pairs.
# Needs clang (15 or 14) and ptxas ($PTXAS, else /usr/local/cuda/bin/ptxas or
# PATH). Exit 0 when every variant assembles, 1 when one does not, 2 on bad
# usage or a missing tool.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
kernel=mma arch=sm_90
while getopts k:a: opt; do
  case $opt in
    k) kernel=$OPTARG ;;
    a) arch=$OPTARG ;;
    *) echo "usage: $0 [-k KERNEL] [-a ARCH] [DTYPE:NAME=V,...]..." >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ "$kernel" = wgmma ] && [ "$arch" = sm_90 ] && arch=sm_90a
if [ $# -eq 0 ] && [ "$kernel" = wgmma ]; then
  for t in f16 bf16; do
    set -- "$@" $t:BM=128,BN=128,BK=32,STAGES=3 $t:BM=128,BN=256,BK=16,STAGES=4 $t:BM=64,BN=64,BK=32,STAGES=4
  done
  set -- "$@" e4m3:BM=128,BN=128,BK=32,STAGES=3 i8:BM=128,BN=128,BK=32,STAGES=3 \
    'e4m3*e5m2->bf16:BM=128,BN=128,BK=64,STAGES=3' 'e5m2*e4m3->f16:BM=64,BN=256,BK=64,STAGES=2'
elif [ $# -eq 0 ] && [ "$kernel" = warptile ]; then
  # warptile's default in each dtype (f64 needs bk 8 within NVIDIA's 48 KB),
  # and f32's cp.async programs (NVIDIA), one per transpose pair.
  d=BM=128,BN=128,BK=16,WM=64,WN=32,TM=8,TN=8
  c=GH_NV_REGISTER_CAP=128 # as the plugin builds them (the cap itself is its PTX edit, not applied here)
  set -- f32:$d f16:$d bf16:$d f32:$d,GH_NV_ASYNC=1,$c f32:$d,GH_NV_ASYNC=2,$c f32:$d,GH_NV_ASYNC=3,$c f32:$d,GH_NV_ASYNC=4,$c
elif [ $# -eq 0 ] && [ "$kernel" != mma ]; then
  echo "ocl_ptxas: name the variants of $kernel (DTYPE:NAME=V,...)" >&2; exit 2
elif [ $# -eq 0 ]; then
  for t in f16 bf16; do
    set -- "$@" \
      $t:BM=128,BN=128,BK=32,WM=64,WN=64,STAGES=2 \
      $t:BM=128,BN=128,BK=16,WM=64,WN=64,STAGES=2 \
      $t:BM=128,BN=128,BK=16,WM=64,WN=64,STAGES=3 \
      $t:BM=128,BN=128,BK=16,WM=64,WN=64,STAGES=4 \
      $t:BM=128,BN=128,BK=32,WM=64,WN=32,STAGES=2 \
      $t:BM=128,BN=256,BK=16,WM=64,WN=64,STAGES=2 \
      $t:BM=64,BN=64,BK=32,WM=32,WN=32,STAGES=2 \
      $t:BM=64,BN=64,BK=32,WM=32,WN=32,STAGES=3 \
      $t:BM=64,BN=64,BK=32,WM=32,WN=32,STAGES=4
  done
  # f32 (TF32): the default as built (16 deep) and tests/opencl/mma.ini's 4 stages;
  # i8 (32 deep only): the default and 4 stages of 64 x 64.
  set -- "$@" f32:BM=128,BN=128,BK=16,WM=64,WN=64,STAGES=2 f32:BM=64,BN=64,BK=16,WM=32,WN=32,STAGES=4 \
    i8:BM=128,BN=128,BK=32,WM=64,WN=64,STAGES=2 i8:BM=64,BN=64,BK=32,WM=32,WN=32,STAGES=4
fi

clang=
for c in clang-15 clang-14 clang; do command -v "$c" >/dev/null && { clang=$c; break; }; done
ptxas=${PTXAS:-}
[ -n "$ptxas" ] || { [ -x /usr/local/cuda/bin/ptxas ] && ptxas=/usr/local/cuda/bin/ptxas; } || ptxas=$(command -v ptxas)
[ -n "$clang" ] || { echo "ocl_ptxas: no clang found (clang-15, clang-14 or clang)" >&2; exit 2; }
[ -n "$ptxas" ] || { echo "ocl_ptxas: no ptxas found (set PTXAS)" >&2; exit 2; }
file="$src/kernels/opencl/$kernel.cl"
[ -f "$file" ] || { echo "ocl_ptxas: no kernel file $file" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# What NVIDIA's OpenCL provides and clang's nvptx target leaves undefined:
# work-item functions, barrier, the `asm` keyword, and the built-ins the
# kernels call (definitions, so they inline as NVIDIA's would).
cat >"$work/shim.h" <<'SHIM'
#define asm __asm__
#define get_local_id(d) ((size_t)__nvvm_read_ptx_sreg_tid_x())
#define get_group_id(d) ((size_t)__nvvm_read_ptx_sreg_ctaid_x())
#define barrier(f) __syncthreads()
float __attribute__((overloadable, always_inline)) vload_half(size_t i, const __global half *p)
{
    float f;
    __asm__("{ .reg .b16 t; mov.b16 t, %1; cvt.f32.f16 %0, t; }" : "=f"(f) : "h"(((const __global ushort *)p)[i]));
    return f;
}
void __attribute__((overloadable, always_inline)) vstore_half_rte(float f, size_t i, __global half *p)
{
    ushort h;
    __asm__("{ .reg .b16 t; cvt.rn.f16.f32 t, %1; mov.b16 %0, t; }" : "=h"(h) : "f"(f));
    ((__global ushort *)p)[i] = h;
}
int __attribute__((overloadable, always_inline)) min(int a, int b) { return a < b ? a : b; }
int __attribute__((overloadable, always_inline)) max(int a, int b) { return a > b ? a : b; }
int __attribute__((overloadable, always_inline)) clamp(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }
uint8 __attribute__((overloadable, always_inline)) convert_uint8(ushort8 v)
{
    return (uint8)(v.s0, v.s1, v.s2, v.s3, v.s4, v.s5, v.s6, v.s7);
}
float8 __attribute__((overloadable, always_inline)) vload_half8(size_t i, const __global half *p)
{
    float8 f;
    f.s0 = vload_half(8 * i, p); f.s1 = vload_half(8 * i + 1, p); f.s2 = vload_half(8 * i + 2, p);
    f.s3 = vload_half(8 * i + 3, p); f.s4 = vload_half(8 * i + 4, p); f.s5 = vload_half(8 * i + 5, p);
    f.s6 = vload_half(8 * i + 6, p); f.s7 = vload_half(8 * i + 7, p);
    return f;
}
SHIM
cat "$src/kernels/opencl/common.cl" "$file" >"$work/all.cl"

# One build: sets `line` (ptxas's summary of the kernel) or prints why not.
build() { # build VARIANT TYPES DEFINE_FLAGS
  # shellcheck disable=SC2086 # the flags are words on purpose
  if ! "$clang" -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -Xclang -target-cpu -Xclang sm_80 \
      -Xclang -finclude-default-header -O3 -Werror -S -include "$work/shim.h" $2 $3 \
      -o "$work/k.ptx" "$work/all.cl" 2>"$work/clang.log"; then
    echo "$1: clang failed"; sed 's/^/  /' "$work/clang.log" | head -30; return 1
  fi
  if [ "$arch" = sm_90a ]; then
    sed -i -e 's#//SM90A ##g' -e 's/^\.target sm_[0-9]*/.target sm_90a/' -e 's/^\.version .*/.version 8.0/' "$work/k.ptx"
  fi
  if grep -q '^\.extern' "$work/k.ptx"; then
    echo "$1: calls a function the shim lacks:"; grep '^\.extern' "$work/k.ptx" | sed 's/^/  /'; return 1
  fi
  if ! "$ptxas" -arch="$arch" -v "$work/k.ptx" -o "$work/k.cubin" >"$work/ptxas.log" 2>&1; then
    echo "$1: ptxas failed"; sed 's/^/  /' "$work/ptxas.log" | head -30; return 1
  fi
  # The kernel's own lines (after its "Compiling entry function").
  line=$(awk '/Compiling entry function/ {on = 1} on && /Used|spill/ {sub(/^ptxas info *: */, ""); printf "%s; ", $0}' \
    "$work/ptxas.log")
  line=${line%; }
  # What was rewritten must be there to assemble (a mark left in is a comment).
  [ "$arch" = sm_90a ] && line+="; $(grep -v '//' "$work/k.ptx" | grep -c 'wgmma\.mma_async') wgmma.mma_async"
  return 0
}

failed=0
for variant in "$@"; do
  dtype=${variant%%:*} defines=${variant#*:}
  case $dtype in
    f16) types="-DSTORE_T=half -DACC_T=float -DGH_STORE_F16=1" ;;
    bf16) types="-DSTORE_T=ushort -DACC_T=float -DGH_STORE_BF16=1" ;;
    f32) types="-DSTORE_T=float -DACC_T=float" ;;
    f64) types="-DSTORE_T=double -DACC_T=double -DGH_FP64=1" ;;
    i8) types="-DSTORE_T=int -DACC_T=int -DGH_A_I8=1 -DGH_B_I8=1" ;;
    e4m3* | e5m2*) # A*B->C, C f32 when left out: e4m3, e4m3*e5m2->bf16
      fp8=${dtype%%->*} c=f32
      [ "$fp8" != "$dtype" ] && c=${dtype#*->}
      a=${fp8%%\**} b=${fp8#*\*}
      case $c in
        f32) types="-DSTORE_T=float -DACC_T=float" ;;
        f16) types="-DSTORE_T=half -DACC_T=float -DGH_STORE_F16=1" ;;
        bf16) types="-DSTORE_T=ushort -DACC_T=float -DGH_STORE_BF16=1" ;;
        *) types= ;;
      esac
      if [ -z "$types" ] || ! [[ $a =~ ^e(4m3|5m2)$ && $b =~ ^e(4m3|5m2)$ ]]; then
        echo "ocl_ptxas: '$variant': FP8 is A*B->C, A and B e4m3 or e5m2, C f32, f16 or bf16" >&2; exit 2
      fi
      types+=" -DGH_A_${a^^}=1 -DGH_B_${b^^}=1" ;;
    *) echo "ocl_ptxas: '$variant': the dtype must be f16, bf16, f32, f64, i8 or an FP8 pair (e4m3*e5m2->bf16)" >&2
      exit 2 ;;
  esac
  [ "$defines" != "$variant" ] || defines=
  dflags=
  IFS=, read -ra pairs <<<"$defines"
  for p in "${pairs[@]}"; do dflags+=" -D$p"; done
  if { [ "$kernel" != mma ] && [ "$kernel" != wgmma ]; } || [[ $defines == *MMA_PATH=* ]]; then
    if build "$variant" "$types" "$dflags"; then echo "$variant: $line"; else failed=1; fi
    continue
  fi
  # mma or wgmma without MMA_PATH: all eight programs the plugin may build, in one
  # line: registers per path and anything about spills (or the stack). Path - 1
  # is trans_a + 2 trans_b (+ 4 for 16-byte copies): nn, tn, nt, tt in that order.
  regs= extra= mmas= ok=1
  for path in 1 2 3 4 5 6 7 8; do
    if ! build "$variant,MMA_PATH=$path" "$types" "$dflags -DMMA_PATH=$path"; then ok=0; failed=1; continue; fi
    regs+=" $(grep -o 'Used [0-9]* registers' <<<"$line" | grep -o '[0-9]*')"
    grep -q 'bytes spill stores\|bytes stack frame' <<<"$line" && ! grep -q ' 0 bytes spill stores' <<<"$line" &&
      extra+=" path $path: $(grep -o '[0-9]* bytes spill stores' <<<"$line");"
    smem=$(grep -o '[0-9]* bytes smem' <<<"$line")
    mmas+=" $(grep -o '[0-9]* wgmma.mma_async' <<<"$line" | grep -o '^[0-9]*')"
  done
  [ "$arch" = sm_90a ] && smem+="; wgmma.mma_async by path:$mmas"
  [ $ok = 1 ] && echo "$variant: registers by path (nn tn nt tt, then 16-byte nn tn nt tt):$regs; $smem${extra:+; SPILLS:$extra}"
done
exit $failed
