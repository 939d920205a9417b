#!/usr/bin/env bash
# The tuner on the C plugin: --tune writes a cache (checked as JSON) and its
# own report; a run with `tile = auto` takes the cached best and its rows say
# so, and say when there was none; tune = yes in a [backend] tunes before the
# run; the cache's place (tune_cache, GEMMHOST_TUNE_CACHE, XDG_CACHE_HOME);
# bad tuner options are usage errors.
# Usage: test_cpu.sh GEMMHOST SOURCE_DIR PYTHON FAKES_DIR
set -u
gemmhost=$1 src=$2 python=$3
command -v "$python" >/dev/null || python=python3
. "$src/tests/expect.sh"
export GEMMHOST_TUNE_CACHE="$work/env/tune.json" XDG_CACHE_HOME="$work/xdg" HOME="$work/home" # never the user's

run_ini() { # FILE OUTPUT CACHE EXTRA_BACKEND_LINES...
  local file=$1 output=$2 cache=$3
  shift 3
  {
    printf '[run]\nsizes = 24, 33x17x29\ndtype = f32\ntrans = nn\nwarmup = 0\nrepeat = 2\n'
    printf 'output = %s\n' "$output"
    [ -n "$cache" ] && printf 'tune_cache = %s\n' "$cache"
    printf '[backend cpu]\nplugin = cpu\nkernels = naive, tiled\n'
    for line in "$@"; do printf '%s\n' "$line"; done
  } >"$file"
}

# 1. --tune: five tiles on two small sizes; naive has no parameters.
run_ini "$work/tune.ini" "$work/results/" "$work/cache/tune.json"
"$gemmhost" --tune --config "$work/tune.ini" >"$work/stdout" 2>"$work/stderr"
expect_status "--tune on the C plugin" $? 0
out=$(cat "$work/stdout" "$work/stderr")
expect_in "it names the search and its candidates" "$out" "tune cpu/0 tiled f32 nn: 5 candidates"
expect_in "it names the sizes of the class" "$out" "small: 24x24x24, 33x17x29"
expect_ok "the cache is a tune cache with the best of class small among tiled's tiles" \
  $python - "$work/cache/tune.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["format"] == "gemmhost tune cache" and doc["version"] == 1, doc.get("format")
entries = doc["entries"]
assert [(e["plugin"], e["kernel"], e["dtype"]) for e in entries] == [("cpu", "tiled", "f32")], entries
e = entries[0]
assert e["params"] == ["tile"] and e["device"] and "driver_version" in e, e
best = e["best"]
assert list(best) == ["small"], best
assert best["small"]["params"]["tile"] in (4, 8, 16, 32, 64), best
assert best["small"]["gflops"] > 0 and best["small"]["sizes"] == "24x24x24, 33x17x29", best
ms = e["measurements"]
assert sorted((m["params"]["tile"], m["m"], m["n"], m["k"]) for m in ms) == sorted(
    (t, *s) for t in (4, 8, 16, 32, 64) for s in ((24, 24, 24), (33, 17, 29))), ms
assert all(m["status"] == "pass" and m["gflops"] > 0 and m["kernel_ms"] > 0 for m in ms), ms
print("best small:", best["small"]["params"])
PY
expect_ok "the tuning report: every candidate and size, and the winner, in CSV and JSON alike" \
  $python - "$work/results/gemmhost-results-tune" "$work/cache/tune.json" <<'PY'
import csv, json, sys
prefix, cache = sys.argv[1], json.load(open(sys.argv[2]))
rows = list(csv.DictReader(open(prefix + ".csv")))
doc = json.load(open(prefix + ".json"))
assert doc["complete"] is True and doc["cancelled"] is False, doc
cands = doc["candidates"]
assert len(rows) == 10 and len(cands) == 10, (len(rows), len(cands))
for r, c in zip(rows, cands):
    assert r["params"] == c["params"] and r["status"] == c["status"] == "pass" and int(r["m"]) == c["m"], (r, c)
    assert r["from_cache"] == "0" and c["from_cache"] is False, r
best = "tile=%d" % cache["entries"][0]["best"]["small"]["params"]["tile"]
assert [(w["kernel"], w["size_class"], w["params"]) for w in doc["winners"]] == [("tiled", "small", best)], doc["winners"]
assert {r["params"] for r in rows if r["winner"] == "1"} == {best}, rows
assert [r["params"] for r in rows[:2]] == ["tile=32", "tile=32"], "the default first"
PY
[ -e "$work/results/gemmhost-results.csv" ] && bad "--tune wrote results files" || ok "--tune writes no results files"

# 2. A run with tile = auto: the cached best on the small sizes, the default
# where the cache has nothing (a medium size; f64, never tuned).
best=$($python -c 'import json,sys; print(json.load(open(sys.argv[1]))["entries"][0]["best"]["small"]["params"]["tile"])' "$work/cache/tune.json")
run_ini "$work/auto.ini" "$work/auto" "$work/cache/tune.json" "tile = auto"
sed -i 's/^sizes = .*/sizes = 24, 300/; s/^dtype = .*/dtype = f32, f64/; s/^kernels = .*/kernels = tiled/' "$work/auto.ini"
"$gemmhost" --config "$work/auto.ini" --verbose >"$work/stdout" 2>"$work/stderr"
expect_status "a run with tile = auto" $? 0
out=$(cat "$work/stdout" "$work/stderr")
expect_in "the table row says where its tile came from" "$out" "tile=$best: auto: from the tune cache (size class small)"
expect_ok "each row: params tile=auto, the tile it ran and where it came from" \
  $python - "$work/auto" "$best" <<'PY'
import csv, json, sys
prefix, best = sys.argv[1], sys.argv[2]
want = {
    ("f32", "24"): ("tile=" + best, "auto: from the tune cache (size class small)"),
    ("f32", "300"): ("tile=32", "auto: the tune cache has no best for this size class (size class medium): the default used"),
    ("f64", "24"): ("tile=32", "auto: no tune cache entry (size class small): the default used"),
    ("f64", "300"): ("tile=32", "auto: no tune cache entry (size class medium): the default used"),
}
rows = list(csv.DictReader(open(prefix + ".csv")))
jrows = json.load(open(prefix + ".json"))["results"]
got = {(r["dtype"], r["m"]): (r["params_used"], r["params_note"]) for r in rows}
assert got == want, got
assert all(r["params"] == "tile=auto" and r["status"] == "pass" for r in rows), rows
assert [(r["params_used"], r["params_note"]) for r in jrows] == [(r["params_used"], r["params_note"]) for r in rows]
PY

# 3. tune = yes in the [backend]: tuned first (the report beside the
# results), then the run takes the fresh cache.
run_ini "$work/yes.ini" "$work/yes" "$work/yes-cache.json" "tune = yes" "tile = auto" "tune_budget = 60s"
sed -i 's/^kernels = .*/kernels = tiled/' "$work/yes.ini"
"$gemmhost" --config "$work/yes.ini" >"$work/stdout" 2>"$work/stderr"
expect_status "tune = yes, then the run" $? 0
out=$(cat "$work/stdout" "$work/stderr")
expect_in "it tuned first" "$out" "tune cpu/0 tiled f32 nn: 5 candidates, budget 60 s"
expect_ok "the run's rows took the fresh cache; the tuning report is beside the results" \
  $python - "$work/yes" "$work/yes-cache.json" <<'PY'
import csv, json, sys
prefix, cache = sys.argv[1], json.load(open(sys.argv[2]))
best = "tile=%d" % cache["entries"][0]["best"]["small"]["params"]["tile"]
rows = list(csv.DictReader(open(prefix + ".csv")))
assert len(rows) == 2 and all(r["params_used"] == best and "from the tune cache" in r["params_note"] for r in rows), rows
assert len(json.load(open(prefix + "-tune.json"))["candidates"]) == 10
PY

# 4. Where the cache lives without tune_cache: GEMMHOST_TUNE_CACHE, else
# $XDG_CACHE_HOME/gemmhost/tune.json, else ~/.cache/gemmhost/tune.json.
run_ini "$work/where.ini" "" ""
"$gemmhost" --tune --quiet --config "$work/where.ini" >/dev/null 2>&1
expect_status "--tune with GEMMHOST_TUNE_CACHE" $? 0
[ -s "$work/env/tune.json" ] && ok "the cache is at \$GEMMHOST_TUNE_CACHE" || bad "no cache at \$GEMMHOST_TUNE_CACHE"
GEMMHOST_TUNE_CACHE= "$gemmhost" --tune --quiet --config "$work/where.ini" >/dev/null 2>&1
[ -s "$work/xdg/gemmhost/tune.json" ] && ok "then at \$XDG_CACHE_HOME/gemmhost/tune.json" || bad "no cache under XDG_CACHE_HOME"
GEMMHOST_TUNE_CACHE= XDG_CACHE_HOME= "$gemmhost" --tune --quiet --config "$work/where.ini" >/dev/null 2>&1
[ -s "$work/home/.cache/gemmhost/tune.json" ] && ok "then at ~/.cache/gemmhost/tune.json" || bad "no cache under HOME"

# 5. Usage errors.
"$gemmhost" --tune --tune-budget soon --config "$work/where.ini" >/dev/null 2>"$work/stderr"
expect_status "--tune-budget soon" $? 2
expect_in "it says why" "$(cat "$work/stderr")" "--tune-budget soon is not a duration"
"$gemmhost" --tune --dry-run --config "$work/where.ini" >/dev/null 2>&1
expect_status "--tune --dry-run" $? 2
run_ini "$work/badkey.ini" "" "" "tune_budget = fast"
"$gemmhost" --tune --config "$work/badkey.ini" >/dev/null 2>"$work/stderr"
expect_status "tune_budget = fast" $? 2
expect_in "it names the key" "$(cat "$work/stderr")" 'tune_budget: "fast" is not a duration'
touch "$work/a-file"
"$gemmhost" --tune --config "$work/where.ini" --set "run.tune_cache=$work/a-file/tune.json" >/dev/null 2>"$work/stderr"
expect_status "a tune cache that cannot be written" $? 2
expect_in "it names the file" "$(cat "$work/stderr")" "cannot use the tune cache $work/a-file/tune.json: Not a directory"
finish
