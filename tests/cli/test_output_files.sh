#!/usr/bin/env bash
# The files a run writes (issue 46): only regular files, or paths where
# nothing is yet. A device node, FIFO or folder given as --junit, as the
# results files of --output or as GEMMHOST_TUNE_CACHE is refused before the
# run starts (exit 2) and stays what it was; --junit on another output of the
# run is refused; a second run on the files a running one holds is refused,
# naming the holder, and the first run's files stay whole; a report that
# could not be written (JUnit, the table on stdout) makes the exit non-zero.
# The running run is held mid-way by a fake plugin that waits for a gate
# file, so nothing here depends on timing.
# Usage: test_output_files.sh GEMMHOST FAKES_DIR SOURCE_DIR PYTHON
set -u
gemmhost=$(realpath "$1") fakes=$(realpath "$2") src=$3 python=$4
command -v "$python" >/dev/null || python=python3
. "$src/tests/expect.sh"
unset GEMMHOST_PLUGIN_PATH GEMMHOST_TUNE_CACHE
export XDG_CACHE_HOME=$work/cache

cat >"$work/run.ini" <<'EOF'
[run]
sizes = 8
dtype = f32
trans = nn
repeat = 1
warmup = 0
[backend cpu]
plugin = cpu
kernels = naive
EOF
run() { "$gemmhost" --config "$work/run.ini" "$@"; }

# make KIND PATH: a device node (c), FIFO (p) or folder (d) at PATH.
make() {
  case $1 in
  c) mknod "$2" c 1 3 ;; # 1,3: the null device
  p) mkfifo "$2" ;;
  d) mkdir "$2" ;;
  esac
}
# refused NAME KIND PATH PREFIX -- COMMAND...: exit 2 before running (no
# table row, no regular results file), the message names PATH, and PATH is
# still what it was, with nothing set aside or left beside it.
refused() {
  local name=$1 kind=$2 path=$3 prefix=$4
  shift 5
  local out status
  out=$("$@" 2>&1)
  status=$?
  expect_status "$name: refused" $status 2
  expect_in "$name: the message names the path" "$out" "$path"
  grep -q ' pass ' <<<"$out" && bad "$name: it ran" || ok "$name: nothing ran"
  [ ! -f "$prefix.csv" ] && [ ! -f "$prefix.json" ] && ok "$name: no results file written" ||
    bad "$name: a results file at $prefix was written"
  test -"$kind" "$path" && ok "$name: $path is still what it was (test -$kind)" || bad "$name: $path was replaced"
  [ ! -e "$path.bad" ] && [ ! -e "$path.tmp" ] && ok "$name: nothing set aside or left beside it" ||
    bad "$name: $path.bad or $path.tmp made"
}

# --- A private device node (as root), a FIFO and a folder, in each output's place.
kinds="p d"
if mknod "$work/probe" c 1 3 2>"$work/mknod.err"; then
  kinds="c $kinds"
else
  echo "skip: the device-node cases: mknod is not permitted here ($(cat "$work/mknod.err")); the FIFO and folder cases stand in"
fi
for k in $kinds; do
  d=$work/$k
  mkdir "$d"
  make $k "$d/junit.xml"
  refused "$k as --junit --overwrite" $k "$d/junit.xml" "$d/j" -- run --output "$d/j" --junit "$d/junit.xml" --overwrite
  make $k "$d/csv.csv"
  refused "$k as the CSV of --output" $k "$d/csv.csv" "$d/csv" -- run --output "$d/csv" --overwrite
  make $k "$d/json.json"
  refused "$k as the JSON of --output" $k "$d/json.json" "$d/json" -- run --output "$d/json" --overwrite
  make $k "$d/lock.lock"
  refused "$k as the lock file" $k "$d/lock.lock" "$d/lock" -- run --output "$d/lock" --overwrite
  make $k "$d/cache"
  refused "$k as GEMMHOST_TUNE_CACHE with --tune" $k "$d/cache" "$d/t" -- \
    env GEMMHOST_TUNE_CACHE="$d/cache" "$gemmhost" --config "$work/run.ini" --output "$d/t" --tune
  [ ! -e "$d/t-tune.csv" ] && ok "$k as the tune cache: no tuning report written" || bad "$k as the tune cache: tuned"
  make $k "$d/j2.xml"
  out=$(run --output "$d/dry" --junit "$d/j2.xml" --dry-run 2>&1)
  expect_status "$k as --junit with --dry-run: refused as the run would be" $? 2
done

# A planted PATH.tmp (the temp file gemmhost renames over PATH) that is not
# gemmhost's: a link is not written through.
echo "not gemmhost's" >"$work/victim"
ln -s "$work/victim" "$work/planted.json.tmp"
out=$(run --output "$work/planted" 2>&1)
[ $? != 0 ] && ok "a link at PREFIX.json.tmp: the run fails" || bad "a link at PREFIX.json.tmp: exit 0"
expect_in "and says why" "$out" "planted.json.tmp: it is a symbolic link, which gemmhost did not make"
[ "$(cat "$work/victim")" = "not gemmhost's" ] && [ -L "$work/planted.json.tmp" ] &&
  ok "the link and its target are left as they were" || bad "the planted link or its target changed"
echo "half a JSON" >"$work/stale.json.tmp"
out=$(run --output "$work/stale" 2>&1)
expect_status "a regular PREFIX.json.tmp (a killed run's) is replaced" $? 0
[ ! -e "$work/stale.json.tmp" ] && [ -f "$work/stale.json" ] && ok "and the JSON written" || bad "stale temp left"

# --- One file for two outputs of the run.
out=$(run --output "$work/same" --junit "$work/same.csv" 2>&1)
expect_status "--junit on the run's CSV: refused" $? 2
expect_in "and says which outputs" "$out" "--junit $work/same.csv is also the results file of this run"
out=$(run --output "$work/same" --junit "$work/same.json" 2>&1)
expect_status "--junit on the run's JSON: refused" $? 2
out=$(run --output "$work/same" --junit "$work/same.lock" 2>&1)
expect_status "--junit on the run's lock file: refused" $? 2
out=$(run --output "$work/samedir/" --junit "$work/samedir/gemmhost-results.csv" 2>&1)
expect_status "--junit on the CSV of an output folder: refused" $? 2
out=$(GEMMHOST_TUNE_CACHE=$work/same-tune.json run --output "$work/same" --tune 2>&1)
expect_status "the tune cache on the tuning report: refused" $? 2
expect_in "and says which" "$out" "the tune cache $work/same-tune.json is also the tuning report"
out=$(GEMMHOST_TUNE_CACHE=$work/same.csv run --output "$work/same" --set backend.cpu.tune=yes 2>&1)
expect_status "the tune cache on the CSV of a run that tunes first: refused" $? 2
[ ! -e "$work/same.csv" ] && [ ! -e "$work/samedir/gemmhost-results.csv" ] && ok "none of those wrote a CSV" ||
  bad "a CSV was written"

# --- Reports that could not be written.
mkdir "$work/jfolder"
out=$(run --output "$work/jf" --junit "$work/jfolder" 2>&1)
expect_status "--junit naming a folder" $? 2
echo "a file" >"$work/plain"
out=$(run --output "$work/jn" --junit "$work/plain/junit.xml" 2>&1)
expect_status "--junit under a file (not a folder): refused" $? 2
run --output "$work/full" >/dev/full 2>"$work/full.err"
expect_status "the table to a full stdout (/dev/full)" $? 3
expect_in "said at the end" "$(tail -1 "$work/full.err")" "cannot write to standard output"
run --output "$work/closed" >&- 2>"$work/closed.err"
expect_status "the table to a closed stdout" $? 3
expect_in "said at the end" "$(tail -1 "$work/closed.err")" "standard output was closed"
[ "$(grep -c ',pass,' "$work/closed.csv")" = 1 ] && ok "and the CSV holds the result, not the table" ||
  bad "closed.csv: $(head -c 300 "$work/closed.csv")"
run --output "$work/quiet" --quiet >/dev/full
expect_status "--quiet to a full stdout: its totals line is lost too" $? 3

# --- The lock: a second run on the files that a running one holds.
if command -v flock >/dev/null; then
  touch "$work/held.lock"
  flock "$work/held.lock" -c "touch '$work/flocked'; until [ -e '$work/release' ]; do sleep 0.01; done" &
  holder=$!
  until [ -e "$work/flocked" ] || ! kill -0 $holder 2>/dev/null; do sleep 0.01; done
  out=$(run --output "$work/held" --overwrite 2>&1)
  expect_status "a prefix whose lock flock(1) holds: refused" $? 2
  expect_in "the message names the lock file" "$out" "holds the lock $work/held.lock"
  grep -qE "pid [0-9]+" <<<"$out" && ok "and the holder's pid" || bad "no pid in: $out"
  [ ! -e "$work/held.csv" ] && ok "and nothing is written" || bad "held.csv written"
  touch "$work/release"
  wait $holder
  out=$(run --output "$work/held" 2>&1)
  expect_status "once flock(1) let go, the run goes on" $? 0
  [ ! -e "$work/held.lock" ] && ok "and removes its lock file at the end" || bad "held.lock left behind"
else
  echo "skip: flock(1) (util-linux) is not installed; the gemmhost-against-gemmhost case below still runs"
fi

# gemmhost against gemmhost: the first waits in its third gemm for a gate file.
cat >"$work/gated.ini" <<EOF
[run]
sizes = 8, 9, 10
dtype = f32
trans = nn
repeat = 1
warmup = 0
timeout = 0
output = $work/gated
[backend gate]
plugin = fake_gate_third
EOF
export GEMMHOST_FAKE_GATE=$work/gate
GEMMHOST_PLUGIN_PATH=$fakes "$gemmhost" --config "$work/gated.ini" --junit "$work/gated.xml" >"$work/first.out" 2>&1 &
first=$!
until [ -e "$work/gate.waiting" ] || ! kill -0 $first 2>/dev/null; do sleep 0.01; done
kill -0 $first 2>/dev/null && ok "the first run is held mid-way" || bad "the first run ended: $(cat "$work/first.out")"
before=$(cat "$work/gated.csv" "$work/gated.json" "$work/gated.xml" | md5sum)
export GEMMHOST_FAKE_GATE=$work/gated.ini # open for the second runs: were one let in, it would finish, not hang
out=$(GEMMHOST_PLUGIN_PATH=$fakes "$gemmhost" --config "$work/gated.ini" --overwrite 2>&1)
expect_status "a second run with --overwrite on the first's prefix: refused" $? 2
expect_in "it names the first run's pid" "$out" "(pid $first on "
expect_in "and its command line" "$out" "--junit $work/gated.xml"
out=$(GEMMHOST_PLUGIN_PATH=$fakes "$gemmhost" --config "$work/gated.ini" --output "$work/other" \
  --junit "$work/gated.xml" --overwrite 2>&1)
expect_status "a second run on the first's JUnit file alone: refused" $? 2
out=$(GEMMHOST_PLUGIN_PATH=$fakes "$gemmhost" --config "$work/gated.ini" --resume 2>&1)
expect_status "--resume of the running run: refused" $? 2
[ "$(cat "$work/gated.csv" "$work/gated.json" "$work/gated.xml" | md5sum)" = "$before" ] &&
  ok "the first run's files are as it left them" || bad "a refused run changed the first run's files"
touch "$work/gate"
wait $first
expect_status "the first run, let go, finishes" $? 0
expect_ok "its files are whole: the JSON complete, one result per CSV row" "$python" -c '
import csv, json, sys
d = json.load(open(sys.argv[1] + ".json"))
rows = list(csv.DictReader(open(sys.argv[1] + ".csv")))
assert d["complete"] is True, "not complete"
assert len(rows) == len(d["results"]) == 3, (len(rows), len(d["results"]))
assert all(r["status"] == "pass" for r in rows), [r["status"] for r in rows]' "$work/gated"
[ ! -e "$work/gated.lock" ] && [ ! -e "$work/gated.xml.lock" ] && ok "its lock files are gone" ||
  bad "lock files left: $(ls "$work"/gated*.lock)"

# A JUnit file that cannot be written after the run began (here: a folder put
# in its place while the run is held): exit 3, said at the end, the folder kept.
export GEMMHOST_FAKE_GATE=$work/gate2
GEMMHOST_PLUGIN_PATH=$fakes "$gemmhost" --config "$work/gated.ini" --output "$work/late" --junit "$work/late.xml" \
  >"$work/late.out" 2>&1 &
late=$!
until [ -e "$work/gate2.waiting" ] || ! kill -0 $late 2>/dev/null; do sleep 0.01; done
rm -f "$work/late.xml" && mkdir "$work/late.xml"
touch "$work/gate2"
wait $late
expect_status "JUnit that became a folder mid-run: the run says so in its status" $? 3
expect_in "and at the end" "$(tail -1 "$work/late.out")" "$work/late.xml is a folder"
[ -d "$work/late.xml" ] && ok "the folder stays a folder" || bad "the folder was replaced"

finish
