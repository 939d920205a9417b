#!/usr/bin/env bash
# An unusable tune cache (not JSON, JSON of another shape, a folder) is
# reported, naming the file and what is wrong (the JSON error's line), and
# ignored, never a crash: a run with `auto` goes on with the defaults (exit
# 0, its rows say why); --tune moves the bad file aside to PATH.bad and
# writes a fresh cache (exit 0); a folder there is never moved: --tune is
# refused (exit 2).
# Usage: test_corrupt.sh GEMMHOST SOURCE_DIR PYTHON FAKES_DIR
set -u
gemmhost=$1 src=$2 python=$3
command -v "$python" >/dev/null || python=python3
. "$src/tests/expect.sh"
export GEMMHOST_TUNE_CACHE="$work/not-this.json"

cache="$work/cache/tune.json"
mkdir -p "$work/cache"
cat >"$work/run.ini" <<INI
[run]
sizes = 24
dtype = f32
trans = nn
warmup = 0
repeat = 1
output =
tune_cache = $cache
[backend cpu]
plugin = cpu
kernels = tiled
tile = auto, 8
INI

# check_bad NAME: the auto run and then --tune, with whatever is at $cache now.
check_bad() {
  local name=$1 want=$2
  local before
  before=$(cat "$cache" 2>/dev/null | md5sum)
  "$gemmhost" --config "$work/run.ini" --output "$work/auto-$name" >"$work/stdout" 2>"$work/stderr"
  expect_status "$name: a run with tile = auto goes on" $? 0
  local err
  err=$(cat "$work/stderr")
  expect_in "$name: the warning names the file and what is wrong" "$err" "gemmhost: warning: tune cache $cache $want"
  expect_ok "$name: its auto rows ran the default and say why; the tile = 8 rows are as ever" \
    $python - "$work/auto-$name.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [(r["params"], r["params_used"], r["status"]) for r in rows] == [("tile=auto", "tile=32", "pass"), ("tile=8", "tile=8", "pass")], rows
assert rows[0]["params_note"] == "auto: the tune cache is unusable (see the warning) (size class small): the default used", rows[0]
assert rows[1]["params_note"] == "", rows[1]
PY
  [ "$(cat "$cache" 2>/dev/null | md5sum)" = "$before" ] && ok "$name: a run leaves the file as it is" ||
    bad "$name: a run changed the file"
  rm -rf "$cache.bad"
  "$gemmhost" --tune --config "$work/run.ini" >"$work/stdout" 2>"$work/stderr"
  expect_status "$name: --tune" $? 0
  err=$(cat "$work/stderr")
  expect_in "$name: --tune warns too" "$err" "gemmhost: warning: tune cache $cache $want"
  expect_in "$name: and says where the bad file went" "$err" "the unusable tune cache is now $cache.bad"
  [ "$(cat "$cache.bad" 2>/dev/null | md5sum)" = "$before" ] && ok "$name: the bad file is kept as it was at .bad" ||
    bad "$name: $cache.bad is not the bad file"
  expect_ok "$name: the fresh cache holds the search" $python - "$cache" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert [(e["kernel"], list(e["best"])) for e in doc["entries"]] == [("tiled", ["small"])], doc
PY
}

printf '{\n  "format": "gemmhost tune cache",\n  "version": 1,\n  "entries": [ {,\n' >"$cache"
check_bad "not JSON" "is not valid JSON: line 4, column 17:"

printf '{"format": "gemmhost tune cache", "version": 1, "entries": 5}\n' >"$cache"
check_bad "entries not a list" 'is not a tune cache: has "entries" that is not an array'

$python - "$cache" <<'PY'
import json, sys
json.dump({"format": "gemmhost tune cache", "version": 1, "entries": [{
    "plugin": "cpu", "device": "x", "driver_version": "", "kernel": "tiled", "dtype": "f32",
    "params": ["tile"], "best": {}, "measurements": [{"params": {"tile": "big"}}]}]}, open(sys.argv[1], "w"))
PY
check_bad "a measurement's parameter not a number" \
  'is not a tune cache: entries[0].measurements[0] has parameter "tile" that is not an integer'

printf '[1, 2, 3]\n' >"$cache"
check_bad "another JSON document" "is not a tune cache: the document is not a JSON object"

printf '{"format": "gemmhost tune cache", "version": 7, "entries": []}\n' >"$cache"
check_bad "another version" 'is not a tune cache: "version" is not 1 (written by another gemmhost version)'

: >"$cache"
check_bad "an empty file" "is not valid JSON: line"

rm -f "$cache"
mkdir "$cache"
"$gemmhost" --config "$work/run.ini" --output "$work/auto-folder" >/dev/null 2>"$work/stderr"
expect_status "a folder at the cache's path: the run goes on" $? 0
expect_in "and says so" "$(cat "$work/stderr")" "tune cache $cache is a folder, not a file"
"$gemmhost" --tune --config "$work/run.ini" >/dev/null 2>"$work/stderr"
expect_status "--tune with a folder there: refused before it tunes (gemmhost renames only files it made or read)" $? 2
expect_in "and says why" "$(cat "$work/stderr")" "the tune cache $cache is a folder, not a regular file"
[ -f "$cache.bad" ] && [ -d "$cache" ] && [ ! -e "$cache.bad.1" ] && ok "the folder is left where it was" ||
  bad "the folder was moved"
finish
