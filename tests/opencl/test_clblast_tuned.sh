#!/usr/bin/env bash
# opencl_clblast_tuned: the OpenCL plugin's clblast-tuned kernel end to end
# through gemmhost on tests/opencl/clblast_tuned.ini: a library without
# CLBlastOverrideParameters refused naming it; CLBlast's defaults (override=0)
# and given Xgemm parameters (override=1) verified in full in f32 and f64,
# the note saying which ran; combinations CLBlast's constraints rule out
# refused with the rule before CLBlast sees them; CLBlast's defaults refused
# once an override ran in the process; `gemmhost --tune` writing a tune-cache
# entry that a following run with `auto` parameters takes.
# Usage: test_clblast_tuned.sh GEMMHOST SOURCE_DIR PYTHON STUB_LIBRARY
# (a library with CLBlast's GEMM calls and no CLBlastOverrideParameters).
# Exit 77: no OpenCL device, or no CLBlast here (the stub's refusal is
# checked first).
set -u
stub=$4
. "$(dirname "$0")/e2e_setup.sh" clblast_tuned.ini "$@"

# rows CSV PYTHON-EXPRESSION: every row (r, a dict of the CSV's columns)
# makes the expression true; prints the first rows that do not. hw is 1 on
# a hardware device, which may refuse what PoCL runs (no fp64).
rows() {
  hw=$([ -n "$or_unsupported" ] && echo 1 || echo 0) $python - "$1" "$2" <<'PY'
import csv, os, sys
hw = os.environ["hw"] == "1"
rows = list(csv.DictReader(open(sys.argv[1])))
bad = [r for r in rows if not eval(sys.argv[2])]
for r in bad[:5]:
    print("unexpected row:", r["params_used"], r["dtype"], r["trans"], r["m"], r["status"], r["params_note"],
          r["detail"])
sys.exit(1 if bad or not rows else 0)
PY
}

# A library with the GEMM calls but no override call: clblast-tuned with
# override=1 refused naming the missing call.
"$gemmhost" --quiet --config "$config" --set tuned.clblast="$stub" --set tuned.override=1 --size 37x53x29 \
  --output "$work/stub" 2>/dev/null
expect_status "a CLBlast without CLBlastOverrideParameters: every case unsupported" $? 3
expect_ok "... each naming the missing call" all_refused "$work/stub.csv" "has no CLBlastOverrideParameters"

# Where CLBlast is absent nothing else can be tested here.
skip_without_clblast "$work" "the refusal above"

# No parameters given: CLBlast's own for the device, and the note says so.
run_ok "clblast-tuned with its defaults (override=0)" --output "$work/defaults"
expect_ok "12 rows pass, verified in full, each noting CLBlast's defaults" rows "$work/defaults.csv" \
  "(hw and r['status'] == 'unsupported') or r['status'] == 'pass' and r['verify_method'] == 'full' and \
   r['params_note'].startswith(\"CLBlast's defaults for this device\")"

# Given Xgemm parameters, unlike CLBlast's generic ones in every searched
# parameter: applied (the indirect Xgemm at every size, one element too),
# the products right, the note naming all 16 of Xgemm's parameters.
given="--set tuned.override=1 --set tuned.KWG=16 --set tuned.MDIMA=16 --set tuned.MDIMC=16 --set tuned.MWG=64
  --set tuned.NDIMB=8 --set tuned.NDIMC=8 --set tuned.NWG=64 --set tuned.SA=0 --set tuned.SB=1 --set tuned.VWM=2
  --set tuned.VWN=4"
# PoCL's kernel cache names each kernel's built work-group size: Xgemm's is
# MDIMC x NDIMC, 16 x 8 here, and the defaults run no Xgemm at these sizes
# (CLBlast's direct GEMM): where it appears, CLBlast took the override.
# shellcheck disable=SC2086
POCL_CACHE_DIR="$work/pocl" run_ok "clblast-tuned with given Xgemm parameters" $given --output "$work/given"
if grep -q PoCL "$work/given.csv"; then
  expect_ok "PoCL built Xgemm for work-groups of MDIMC 16 x NDIMC 8" \
    test -n "$(find "$work/pocl" -path '*/Xgemm/16-8-1-*' -print -quit)"
fi
expect_ok "12 rows pass, verified in full, the note naming what was applied" rows "$work/given.csv" \
  "(hw and r['status'] == 'unsupported') or r['status'] == 'pass' and r['verify_method'] == 'full' and \
   r['params_note'] == 'CLBlast Xgemm GEMMK=0 KREG=1 \
KWG=16 KWI=2 MDIMA=16 MDIMC=16 MWG=64 NDIMB=8 NDIMC=8 NWG=64 SA=0 SB=1 STRM=0 STRN=0 VWM=2 VWN=4 applied (tuned or \
given), the indirect GEMM at every size'"

# Combinations refused before CLBlast sees them, each with its rule.
"$gemmhost" --quiet --config "$config" --set tuned.override=1 --set tuned.MDIMC=16 --size 37x53x29 \
  --output "$work/invalid" 2>/dev/null
expect_status "MWG 32 with MDIMC 16 and VWM 4: every case unsupported" $? 3
expect_ok "... naming CLBlast's constraint" all_refused "$work/invalid.csv" \
  "CLBlast's Xgemm constraint: MWG must be a multiple of MDIMC * VWM (32 is not a multiple of 64)"
"$gemmhost" --quiet --config "$config" --set tuned.MWG=64 --size 37x53x29 --output "$work/unused" 2>/dev/null
expect_status "MWG=64 with override=0: every case unsupported" $? 3
expect_ok "... saying it would not be applied" all_refused "$work/unused.csv" \
  "MWG=64 is not applied with override=0"

# CLBlast keeps an override for the process: after one, its defaults are
# refused in that worker (override=0 then 1 per size: the second size's 0).
"$gemmhost" --quiet --config "$config" --set tuned.override=0,1 --dtype f32 --trans nn --size 37x53x29,40x36x24 \
  --output "$work/after" 2>/dev/null
expect_status "override=0 after override=1 in one process: the run goes on" $? 0
expect_ok "... the first size's two pass, the second's override=0 refused saying why" rows "$work/after.csv" \
  "r['status'] == 'pass' if (r['m'] == '37' or r['params_used'].startswith('override=1')) else \
   (r['status'] == 'unsupported' and 'keeps an override for the process' in r['detail'])"

# Tuning: the tuner always measures its first candidate, whatever the budget; MWG 64
# (not the default 32) narrows the search, so the best is told apart from
# the defaults. The following run's auto parameters take it from the cache.
cat >"$work/tune.ini" <<'INI'
[run]
sizes   = 40x36x24
dtype   = f32
trans   = nn
warmup  = 0
repeat  = 1
seed    = 17
verify  = full

[backend tuned]
plugin  = opencl
kernels = clblast-tuned
override = 1
KWG = auto
MDIMA = auto
MDIMC = auto
MWG = auto
NDIMB = auto
NDIMC = auto
NWG = auto
SA = auto
SB = auto
VWM = auto
VWN = auto
INI
export GEMMHOST_TUNE_CACHE="$work/tune.json"
"$gemmhost" --quiet --tune --config "$work/tune.ini" --tune-budget 1s --set tuned.MWG=64 --output "$work/tune" \
  >"$work/tune.out" 2>&1
expect_status "gemmhost --tune on clblast-tuned" $? 0
tune_entry() {
  $python - "$work/tune.json" <<'PY'
import json, sys
entries = [e for e in json.load(open(sys.argv[1]))["entries"] if e["kernel"] == "clblast-tuned"]
best = entries[0]["best"]["small"]["params"] if len(entries) == 1 else {}
print(best)
sys.exit(0 if best.get("override") == 1 and best.get("MWG") == 64 else 1)
PY
}
expect_ok "the tune cache has clblast-tuned's best for the small class, override=1 MWG=64" tune_entry
"$gemmhost" --quiet --config "$work/tune.ini" --output "$work/tuned" >/dev/null 2>&1
expect_status "a run with auto parameters" $? 0
expect_ok "... takes the tuned entry (MWG=64, from the tune cache) and passes" rows "$work/tuned.csv" \
  "r['status'] == 'pass' and ' MWG=64 ' in r['params_used'] and 'from the tune cache' in r['params_note']"

finish
