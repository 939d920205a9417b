#!/usr/bin/env bash
# The tuner resumes from its cache: a measurement already there is not made
# again (a crafted cache's impossible numbers come back unchanged); a
# candidate that killed an in-process tuning run (marked "running") is taken
# as crashed and not run again; a search stopped by its budget, or by such a
# crash, goes on where it stopped on the next run.
# Usage: test_resume.sh GEMMHOST SOURCE_DIR PYTHON FAKES_DIR
set -u
gemmhost=$1 src=$2 python=$3 fakes=$4
command -v "$python" >/dev/null || python=python3
. "$src/tests/expect.sh"
export GEMMHOST_TUNE_CACHE="$work/not-this.json"

ini() { # CACHE: the fake plugin, two small sizes
  small_run "8, 9x7x5" "output =" "tune_cache = $1" "plugin_dir = $fakes" "[backend fake]" "plugin = fake_tunable"
}

# 1. A cache with variant 1 measured (at an impossible 99999 GFLOP/s) and
# variant 3 marked running, as an in-process crash leaves it. In-process,
# variant 3 would abort gemmhost: it must not run.
$python - "$work/crafted.json" <<'PY'
import json, sys
def m(v, shape, status, ms, gf, detail=""):
    return {"params": {"variant": v}, "trans": "nn", "m": shape[0], "n": shape[1], "k": shape[2], "status": status,
            "kernel_ms": ms, "gflops": gf, "detail": detail, "when": "2000-01-01T00:00:00Z"}
entry = {"plugin": "fake_tunable", "device": "Fake Device", "driver_version": "0", "kernel": "loop", "dtype": "f32",
         "params": ["variant"], "best": {},
         "measurements": [m(1, (8, 8, 8), "pass", 0.001, 99999), m(1, (9, 7, 5), "pass", 0.001, 99999),
                          m(3, (9, 7, 5), "running", 0, 0)]}
json.dump({"format": "gemmhost tune cache", "version": 1, "entries": [entry]}, open(sys.argv[1], "w"), indent=2)
PY
ini "$work/crafted.json" >"$work/crafted.ini"
"$gemmhost" --tune --no-isolation --config "$work/crafted.ini" --output "$work/crafted" >"$work/stdout" 2>"$work/stderr"
expect_status "in-process, over a cache with measurements and a running mark (variant 2 fails anew)" $? 1
expect_ok "what the cache had is reported from it, not measured; the rest is measured" \
  $python - "$work/crafted-tune" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1] + ".csv")))
got = sorted((r["params"], r["m"], r["status"], r["from_cache"], r["gflops"]) for r in rows)
want = sorted([("variant=0", "8", "pass", "0", "0.001024"), ("variant=0", "9", "pass", "0", "0.00063"),
               ("variant=1", "8", "pass", "1", "99999"), ("variant=1", "9", "pass", "1", "99999"),
               ("variant=2", "9", "FAIL", "0", ""), ("variant=3", "9", "crashed", "1", ""),
               ("variant=4", "8", "unsupported", "0", ""), ("variant=4", "9", "unsupported", "0", "")])
assert got == want, got
crashed, = [r for r in rows if r["params"] == "variant=3"]
assert crashed["detail"].startswith("an earlier tuning run (isolation = none) died while this candidate ran"), crashed
PY
expect_ok "the cache keeps the crafted measurements as they were; the mark became crashed" \
  $python - "$work/crafted.json" <<'PY'
import json, sys
e, = json.load(open(sys.argv[1]))["entries"]
by = {(m["params"]["variant"], m["m"]): m for m in e["measurements"]}
assert by[(1, 8)]["gflops"] == 99999 and by[(1, 8)]["when"] == "2000-01-01T00:00:00Z", by[(1, 8)]
assert by[(1, 9)]["gflops"] == 99999 and by[(1, 9)]["when"] == "2000-01-01T00:00:00Z", by[(1, 9)]
assert by[(3, 9)]["status"] == "crashed", by[(3, 9)]
assert e["best"]["small"]["params"] == {"variant": 1} and e["best"]["small"]["gflops"] == 99999, e["best"]
assert len(by) == 8, sorted(by)
PY

# 2. A real in-process crash: gemmhost dies at variant 3; the cache keeps
# what was measured and the mark; the next run takes the mark as crashed.
ini "$work/crash.json" >"$work/crash.ini"
"$gemmhost" --tune --no-isolation --config "$work/crash.ini" --output "$work/crash" >"$work/stdout" 2>"$work/stderr"
status=$?
[ $status -ge 128 ] && ok "in-process, variant 3 takes gemmhost down (exit $status)" ||
  bad "in-process, variant 3 did not end gemmhost (exit $status)"
expect_ok "the cache has the default measured and variant 3 marked running" $python - "$work/crash.json" <<'PY'
import json, sys
e, = json.load(open(sys.argv[1]))["entries"]
st = {(m["params"]["variant"], m["m"]): m["status"] for m in e["measurements"]}
assert st[(0, 8)] == st[(0, 9)] == "pass" and st[(3, 9)] == "running", st
PY
expect_ok "the tuning report was left readable, not complete" $python - "$work/crash-tune.json" <<'PY'
import json, sys
assert json.load(open(sys.argv[1]))["complete"] is False
PY
"$gemmhost" --tune --no-isolation --overwrite --config "$work/crash.ini" --output "$work/crash" >"$work/stdout" 2>&1
expect_status "the next in-process run goes on past it" $? 1
expect_ok "earlier measurements came from the cache; the search finished" $python - "$work/crash-tune" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1] + ".csv")))
cached = {r["params"] for r in rows if r["from_cache"] == "1"}
assert {"variant=0", "variant=3"} <= cached, cached
assert {r["params"] for r in rows} == {"variant=%d" % v for v in range(5)}, rows
assert [r["status"] for r in rows if r["params"] == "variant=3"] == ["crashed"], rows
doc = json.load(open(sys.argv[1] + ".json"))
assert doc["complete"] is True and [w["params"] for w in doc["winners"]] == ["variant=1"], doc["winners"]
PY

# 3. A budget of 0: the default alone runs; the next run with a budget goes on.
ini "$work/budget.json" >"$work/budget.ini"
"$gemmhost" --tune --tune-budget 0 --config "$work/budget.ini" --output "$work/budget" >"$work/stdout" 2>&1
expect_status "--tune-budget 0: the default alone" $? 0
expect_in "it says how many were left" "$(cat "$work/stdout")" "budget of 0 s spent: 4 of 5 candidates untried"
expect_ok "the report: the default's rows and a note" $python - "$work/budget-tune.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert {c["params"] for c in doc["candidates"]} == {"variant=0"}, doc["candidates"]
assert any("4 of 5 candidates untried" in n for n in doc["notes"]), doc["notes"]
PY
"$gemmhost" --tune --overwrite --config "$work/budget.ini" --output "$work/budget" >"$work/stdout" 2>&1
expect_status "the next run goes on (and meets the failing candidates)" $? 1
expect_in "the default is from the cache" "$(cat "$work/stdout")" "(from the cache)"
expect_ok "only the default is from the cache" $python - "$work/budget-tune.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert {r["params"] for r in rows if r["from_cache"] == "1"} == {"variant=0"}, rows
assert len({r["params"] for r in rows}) == 5, rows
PY
finish
