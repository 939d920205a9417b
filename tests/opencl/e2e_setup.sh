# Shared by the OpenCL plugin's end-to-end scripts (test_clblast.sh,
# test_clblast_tuned.sh, test_half.sh, test_mma.sh, test_wgmma.sh). Source it after `set -u` as
#   . "$(dirname "$0")/e2e_setup.sh" CONFIG.ini "$@"
# with the script's own arguments GEMMHOST SOURCE_DIR PYTHON. It sets
# $gemmhost, $src, $python, $check (tests/e2e/check_results.py), $config
# (tests/opencl/CONFIG.ini) and $list (gemmhost --list --summary), sources
# tests/expect.sh, and exits 77 (skip, saying why) without an OpenCL device.
# A hardware device may refuse what PoCL runs (no fp64, a work-group over its
# maximum): then $want_status is 3 and $or_unsupported the checker's
# --or-unsupported, else 0 and empty.
gemmhost=$2 src=$3 python=$4
command -v "$python" >/dev/null || python=python3 # the configured one may not exist on another machine
check="$python $src/tests/e2e/check_results.py"
config="$src/tests/opencl/$1"
. "$src/tests/expect.sh"

list=$("$gemmhost" --list --summary 2>&1)
plugin=$(grep '^plugin opencl ' <<<"$list")
if [ -z "$plugin" ] || grep -q 'no usable device' <<<"$plugin"; then
  echo "skip: no OpenCL device: ${plugin:-the opencl plugin was not found}"
  exit 77
fi
want_status=0 or_unsupported=""
if grep -q '^  device opencl/.*, hardware,' <<<"$list"; then
  want_status=3 or_unsupported=--or-unsupported
fi

# all_refused CSV WORD...: every row of the results file unsupported, each
# reason holding every one of the words (fixed strings).
all_refused() {
  $python - "$@" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = [r for r in rows if r["status"] != "unsupported" or not all(w in r["detail"] for w in sys.argv[2:])]
for r in bad[:5]:
    print("not refused naming %s: %s %s %s %s" % (sys.argv[2:], r["dtype"], r["trans"], r["status"], r["detail"]))
sys.exit(1 if bad or not rows else 0)
PY
}

# run_ok NAME ARGS...: a gemmhost run on $config that must succeed (exit 0,
# or $want_status where a hardware device may refuse some rows).
run_ok() {
  local name=$1
  shift
  "$gemmhost" --quiet --config "$config" "$@"
  local rc=$?
  [ $rc = 0 ] || [ $rc = $want_status ] && ok "$name (exit $rc)" || bad "$name: exit $rc, expected 0"
}

# skip_without_clblast WORK WHAT: where Debian's CLBlast does not load, the
# checks made so far (WHAT) are reported and the script skips; the rest needs
# the library.
skip_without_clblast() {
  "$gemmhost" --quiet --config "$config" --size 5 --dtype f32 --trans nn --output "$1/probe" >/dev/null 2>&1
  if grep -q 'CLBlast does not load' "$1/probe.csv"; then
    grep -o 'CLBlast does not load[^,]*' "$1/probe.csv" | head -1
    [ "$failed" = 0 ] || finish
    echo "skip: no CLBlast here (Debian: libclblast1); $2 passed"
    exit 77
  fi
}
