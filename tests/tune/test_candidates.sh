#!/usr/bin/env bash
# The tuner meets every kind of candidate (the fake plugin's `variant`: 0
# and 1 correct, 1 twice as fast, 2 wrong, 3 aborts, 4 refused), each backend
# in its worker process: the wrong one is rejected (FAIL, its time not used),
# the crashing one recorded as crashed while the search goes on in a fresh
# worker, the refused one unsupported; the fastest correct one wins and a run
# with `variant = auto` takes it. The exit status is 1 (a candidate failed).
# Usage: test_candidates.sh GEMMHOST SOURCE_DIR PYTHON FAKES_DIR
set -u
gemmhost=$1 src=$2 python=$3 fakes=$4
command -v "$python" >/dev/null || python=python3
. "$src/tests/expect.sh"
export GEMMHOST_TUNE_CACHE="$work/not-this.json"

small_run "8, 9x7x5" "output = $work/results/" "tune_cache = $work/tune.json" "plugin_dir = $fakes" \
  "[backend fake]" "plugin = fake_tunable" >"$work/run.ini"
"$gemmhost" --tune --config "$work/run.ini" >"$work/stdout" 2>"$work/stderr"
expect_status "--tune over good, wrong, crashing and refused candidates" $? 1
out=$(cat "$work/stdout" "$work/stderr")
expect_in "the summary counts them" "$out" \
  "8 measurements (0 more from the cache): 4 passed, 1 failed, 2 unsupported, 0 errors, 1 crashed, 0 timeout"
expect_in "the crash is named on the terminal" "$out" \
  "crashed on 9x7x5: worker killed by SIGABRT (Aborted) during gemm (device 0, kernel 0, 9x7x5 f32)"
expect_in "the winner is named" "$out" "best small (9x7x5, 8x8x8): variant=1"
expect_ok "the report: each candidate's rows, statuses and the winner" \
  $python - "$work/results/gemmhost-results-tune" <<'PY'
import csv, json, sys
prefix = sys.argv[1]
rows = list(csv.DictReader(open(prefix + ".csv")))
doc = json.load(open(prefix + ".json"))
assert doc["complete"] is True, doc["complete"]
got = {}
for r in rows:
    got.setdefault(r["params"], []).append((r["m"], r["status"], r["kernel_ms"], r["winner"]))
want = {
    "variant=0": [("9", "pass", "1", "0"), ("8", "pass", "1", "0")],
    "variant=1": [("9", "pass", "0.5", "1"), ("8", "pass", "0.5", "1")],
    "variant=2": [("9", "FAIL", "", "0")],      # rejected: its other size never ran
    "variant=3": [("9", "crashed", "", "0")],   # the search went on after it
    "variant=4": [("9", "unsupported", "", "0"), ("8", "unsupported", "", "0")],
}
assert got == want, got
assert rows[0]["params"] == "variant=0" and rows[0]["candidate"] == "0", "the default first"
details = {r["params"]: r["detail"] for r in rows}
assert "checked elements wrong" in details["variant=2"], details
assert "worker killed by SIGABRT" in details["variant=3"], details
assert details["variant=4"] == "variant 4 needs more local memory than the fake device has", details
assert [(w["params"], w["default_params"], w["speedup"]) for w in doc["winners"]] == [("variant=1", "variant=0", 2)], doc["winners"]
assert [c["status"] for c in doc["candidates"]] == [r["status"] for r in rows]
PY
expect_ok "the cache: the best is variant 1, every measurement kept with its status" \
  $python - "$work/tune.json" <<'PY'
import json, sys
e, = json.load(open(sys.argv[1]))["entries"]
assert (e["plugin"], e["device"], e["driver_version"], e["kernel"], e["params"]) == (
    "fake_tunable", "Fake Device", "0", "loop", ["variant"]), e
assert e["best"]["small"]["params"] == {"variant": 1}, e["best"]
st = sorted((m["params"]["variant"], m["m"], m["status"]) for m in e["measurements"])
assert st == [(0, 8, "pass"), (0, 9, "pass"), (1, 8, "pass"), (1, 9, "pass"), (2, 9, "FAIL"), (3, 9, "crashed"),
              (4, 8, "unsupported"), (4, 9, "unsupported")], st
PY

# A run with variant = auto takes the winner.
printf 'variant = auto\n' >>"$work/run.ini"
"$gemmhost" --config "$work/run.ini" --output "$work/auto" >"$work/stdout" 2>&1
expect_status "a run with variant = auto" $? 0
expect_ok "its rows ran variant 1, from the tune cache" $python - "$work/auto.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 2 and all(r["params"] == "variant=auto" and r["params_used"] == "variant=1" and
                              r["params_note"] == "auto: from the tune cache (size class small)" for r in rows), rows
PY

# A space narrowed by the config (variant = 0, 4): only those run.
sed -i 's/^variant = auto$/variant = 4, 0/' "$work/run.ini"
"$gemmhost" --tune --config "$work/run.ini" --output "$work/narrow" --set "run.tune_cache=$work/narrow.json" \
  >"$work/stdout" 2>&1
expect_status "--tune over variant = 4, 0" $? 0
expect_in "two candidates, the default first" "$(cat "$work/stdout")" "[1/2] variant=0 (default)"
finish
