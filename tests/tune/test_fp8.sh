#!/usr/bin/env bash
# The tuner on 8-bit cases (fake_plugin.c's FAKE_TUNABLE_FP8: FAKE_TUNABLE's
# `variant` with FAKE_FP8's type combinations): a kernel listing the case's
# combination is tuned, its cache entry keyed by the combination
# ("e4m3xe5m2->f32"), and a run with `variant = auto` takes the winner for
# that combination only; a combination the kernel does not list is not tuned.
# Usage: test_fp8.sh GEMMHOST SOURCE_DIR PYTHON FAKES_DIR
set -u
gemmhost=$1 src=$2 python=$3 fakes=$4
command -v "$python" >/dev/null || python=python3
. "$src/tests/expect.sh"
export GEMMHOST_TUNE_CACHE="$work/not-this.json"

printf '[run]\nsizes = 8, 9x7x5\ndtype = e4m3\nb_dtype = e5m2\ntrans = nn\nwarmup = 0\nrepeat = 2\n' >"$work/run.ini"
printf 'output = %s/results/\ntune_cache = %s/tune.json\nplugin_dir = %s\n' "$work" "$work" "$fakes" >>"$work/run.ini"
printf '[backend fake]\nplugin = fake_tunable_fp8\n' >>"$work/run.ini"

expect_run "--tune on e4m3 x e5m2 -> f32 (a candidate fails, one crashes: exit 1)" 1 \
  "tune fake/0 loop e4m3xe5m2->f32 nn: 5 candidates" "$gemmhost" --tune --config "$work/run.ini"
expect_in "the winner is named" "$out" "best small (9x7x5, 8x8x8): variant=1"
expect_ok "the cache entry is keyed by the combination" $python - "$work/tune.json" <<'PY'
import json, sys
e, = json.load(open(sys.argv[1]))["entries"]
assert (e["plugin"], e["kernel"], e["dtype"]) == ("fake_tunable_fp8", "loop", "e4m3xe5m2->f32"), e
assert e["best"]["small"]["params"] == {"variant": 1}, e["best"]
PY

printf 'variant = auto\n' >>"$work/run.ini"
expect_run "a run with variant = auto" 0 "2 passed" "$gemmhost" --config "$work/run.ini" --output "$work/auto"
expect_ok "its rows ran variant 1, from the tune cache" $python - "$work/auto.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 2 and all(r["params_used"] == "variant=1" and
                              r["params_note"] == "auto: from the tune cache (size class small)" for r in rows), rows
PY
expect_run "another B type is another entry: the default" 0 "2 passed" \
  "$gemmhost" --config "$work/run.ini" --output "$work/other" --set run.b_dtype=same
expect_in "its rows say no entry" "$(cat "$work/other.csv")" "auto: no tune cache entry (size class small): the default used"

# e4m3 x e5m2 -> f16 is not in the fake's list: nothing to tune (exit 3)
expect_run "an unlisted combination is not tuned" 3 "searches 0" \
  "$gemmhost" --tune --config "$work/run.ini" --set run.c_dtype=f16 --output "$work/unlisted/"
finish
