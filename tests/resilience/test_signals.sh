#!/usr/bin/env bash
# Results survive a signal: SIGINT and SIGTERM mid-run stop at the next call
# with the result in progress `cancelled`, the files closed and valid and
# marked cancelled, exit 130 / 143; SIGKILL leaves what was written. Then
# --resume completes each, and the files equal an uninterrupted run's
# (timings left out). The signal is sent when the CSV shows the 5th result
# (the run has 40, two per case: the 6th is the second of its case, so the
# case is cut in two and --resume must complete its agreement), polled,
# never after a fixed time.
# SIGKILL is sent by a shim (kill_after_csv_rows.c, LD_PRELOAD) the moment
# the 5th row reaches the CSV, before anything written after it.
# Usage: test_signals.sh GEMMHOST FAKES_DIR PYTHON SOURCE_DIR KILL_SHIM
set -u
set -m # job control: a background gemmhost gets SIGINT (else bash starts it with SIGINT ignored)
gemmhost=$1 fakes=$2 python=$3 here=$4/tests/resilience shim=$5
. "$4/tests/expect.sh"

results() { "$python" "$here/results.py" "$@"; }
rows_of() { [ -f "$1" ] && echo $(($(wc -l <"$1") - 1)) || echo 0; }

# 40 results, each one GEMM of about 200^3 on one thread: long enough that
# the run is still going when the 5th shows, and no repetitions, which the
# checks below do not look at (the sanitizer build spent 3/4 of its time in
# them: 152 s against 54 s a run).
cat >"$work/run.ini" <<'EOF'
[run]
sizes = 256, 240x200x224, 192, 160x256x200, 224
dtype = f32, f64
trans = nn, tt
repeat = 1
warmup = 0
[backend cpu]
kernels = naive, tiled
threads = 1
EOF

"$gemmhost" --quiet --config "$work/run.ini" --output "$work/full" >"$work/full.out" 2>&1
expect_status "an uninterrupted run" $? 0
total=$(rows_of "$work/full.csv")
expect_status "it has 40 results" "$total" 40

# interrupt SIGNAL PREFIX: starts the run, sends SIGNAL once the CSV shows 5
# results; prints the exit status.
interrupt() {
    local sig=$1 prefix=$2
    "$gemmhost" --quiet --config "$work/run.ini" --output "$prefix" --junit "$prefix.xml" >"$prefix.out" 2>&1 &
    local pid=$!
    while [ "$(rows_of "$prefix.csv")" -lt 5 ] && kill -0 "$pid" 2>/dev/null; do sleep 0.01; done
    kill -"$sig" "$pid" 2>/dev/null
    wait "$pid"
    echo $?
}

for case in INT:130 TERM:143; do
    sig=${case%%:*} want=${case#*:} p=$work/sig$sig
    expect_status "SIG$sig mid-run: exit status" "$(interrupt "$sig" "$p")" "$want"
    expect_ok "SIG$sig: CSV and JSON complete and valid" results check "$p"
    got=$(rows_of "$p.csv")
    [ "$got" -ge 6 ] && [ "$got" -lt "$total" ] && ok "SIG$sig: stopped mid-run ($got of $total results)" ||
        bad "SIG$sig: $got of $total results"
    marks=$("$python" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["complete"], d["cancelled"])' \
        "$p.json")
    expect_status "SIG$sig: the JSON says cancelled, not complete" "$marks" "False True"
    rows=$(results rows "$p")
    [ "$(grep -c '^cpu cancelled ' <<<"$rows")" = 1 ] &&
        [ "$(grep -v '^note' <<<"$rows" | tail -1 | cut -d' ' -f2)" = cancelled ] &&
        ok "SIG$sig: one result cancelled, the last" || bad "SIG$sig: cancelled rows: $(grep -c '^cpu cancelled ' <<<"$rows")"
    expect_in "SIG$sig: it names the signal" "$(grep '^cpu cancelled ' <<<"$rows")" "cancelled by SIG$sig"
    expect_in "SIG$sig: a note says how to go on" "$rows" "note run cancelled by SIG$sig"
    expect_in "SIG$sig: the terminal says so" "$(cat "$p.out")" "SIG$sig: stopping after the call in progress"
    expect_ok "SIG$sig: the JUnit XML is well formed and says cancelled" "$python" -c '
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot().find("testsuite")
props = {p.get("name"): p.get("value") for p in s.iter("property")}
assert props["complete"] == "false" and props["cancelled"] == "true", props
assert any(c.find("skipped") is not None and c.find("skipped").get("type") == "cancelled" for c in s.iter("testcase"))
' "$p.xml"
    cp "$p.json" "$p-cut.json"
    cp "$p.csv" "$p-cut.csv"
    "$gemmhost" --quiet --config "$work/run.ini" --output "$p" --junit "$p.xml" --resume >"$p.resume" 2>&1
    expect_status "SIG$sig, then --resume: exit status" $? 0
    expect_ok "SIG$sig, then --resume: the results it had are kept as they were, not run again" \
        results kept "$p-cut" "$p"
    expect_ok "SIG$sig, then --resume: the same results as the uninterrupted run" results same "$work/full" "$p"
    marks=$("$python" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["complete"], d["cancelled"])' \
        "$p.json")
    expect_status "SIG$sig, then --resume: complete" "$marks" "True False"
    expect_ok "SIG$sig, then --resume: the JUnit has every result" "$python" -c '
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot().find("testsuite")
assert s.get("tests") == "40" and s.get("skipped") == "0", s.attrib' "$p.xml"
done

# SIGKILL: nothing is closed; what was written is resumed. The record log
# has every result the CSV has, even killed just after a CSV row (the
# shim; the sanitizers' runtime then does not come first, which is fine);
# the JSON is a checkpoint, whole, with no more.
p=$work/sigKILL
LD_PRELOAD=$shim GEMMHOST_TEST_KILL_AFTER_CSV_ROWS=5 ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
    "$gemmhost" --quiet --config "$work/run.ini" --output "$p" --junit "$p.xml" >"$p.out" 2>&1
expect_status "SIGKILL mid-run: exit status" $? 137
got=$(grep -c '^{"record":"result",' "$p.jsonl")
[ "$got" -ge 5 ] && [ "$got" -lt "$total" ] && [ "$got" = "$(rows_of "$p.csv")" ] &&
    ok "SIGKILL: the log holds $got results, as the CSV" || bad "SIGKILL: $got results in the log, $(rows_of "$p.csv") in the CSV"
in_json=$("$python" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["results"]), d["complete"])' "$p.json")
[ "${in_json% *}" -le "$got" ] && [ "${in_json#* }" = False ] && ok "SIGKILL: the JSON is whole, incomplete, not ahead" ||
    bad "SIGKILL: the JSON: $in_json"
for f in csv json jsonl; do cp "$p.$f" "$work/behind.$f" && cp "$p.$f" "$work/cut.$f" && cp "$p.$f" "$work/bad.$f"; done

# The second run without --resume: refused, naming both ways on; --dry-run agrees.
out=$("$gemmhost" --quiet --config "$work/run.ini" --output "$p" 2>&1)
expect_status "SIGKILL, then the run again: refused" $? 2
expect_in "it says the run there is unfinished, with its results" "$out" \
    "$p.json holds an unfinished run of this same experiment ($got results"
expect_in "it spells out --resume" "$out" "$gemmhost --quiet --config $work/run.ini --output $p --resume"
expect_in "it spells out --overwrite" "$out" "$gemmhost --quiet --config $work/run.ini --output $p --overwrite"
dry=$("$gemmhost" --config "$work/run.ini" --output "$p" --dry-run 2>&1)
expect_status "--dry-run agrees: refused" $? 2
expect_in "--dry-run gives the same refusal" "$dry" "holds an unfinished run of this same experiment ($got results"
[ "$(grep -c '^{"record":"result",' "$p.jsonl")" = "$got" ] && ok "the refusals left the log as it was" ||
    bad "the refusals changed the log"
resumed=$("$gemmhost" --config "$work/run.ini" --output "$p" --resume 2>&1 >/dev/null)
expect_status "SIGKILL, then --resume: exit status" $? 0
expect_in "SIGKILL, then --resume: it says what it kept" "$resumed" "resuming $p.json: $got earlier results kept"
expect_ok "SIGKILL, then --resume: the same results as the uninterrupted run" results same "$work/full" "$p"

# The JSON far behind the log (an early checkpoint): --resume takes the log.
"$python" - "$work/behind.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["results"] = []; d["agreement"] = []
json.dump(d, open(sys.argv[1], "w"))
PY
resumed=$("$gemmhost" --config "$work/run.ini" --output "$work/behind" --resume 2>&1 >/dev/null)
expect_status "a JSON behind its log, --resume: exit status" $? 0
expect_in "it keeps every result of the log" "$resumed" "resuming $work/behind.json: $got earlier results kept"
expect_ok "a JSON behind its log, --resume: the same results as the uninterrupted run" results same "$work/full" "$work/behind"

# A kill in the middle of writing a line: that line is left out.
printf '{"record":"result","value":{"case_index":' >>"$work/cut.jsonl"
resumed=$("$gemmhost" --config "$work/run.ini" --output "$work/cut" --resume 2>&1 >/dev/null)
expect_status "a log whose last line is cut, --resume: exit status" $? 0
expect_in "the cut line is left out" "$resumed" "resuming $work/cut.json: $got earlier results kept"
expect_ok "a cut log, --resume: the same results as the uninterrupted run" results same "$work/full" "$work/cut"

# A line in the middle that is not a record: an error naming the file and line.
sed -i '3s/.*/{"record":"result","value":{"garbled/' "$work/bad.jsonl"
cp "$work/bad.jsonl" "$work/bad-before.jsonl"
out=$("$gemmhost" --quiet --config "$work/run.ini" --output "$work/bad" --resume 2>&1)
expect_status "a log with a broken line in the middle, --resume: refused" $? 2
expect_in "it names the file and the line" "$out" "cannot resume from $work/bad.jsonl: $work/bad.jsonl:3: "
cmp -s "$work/bad.jsonl" "$work/bad-before.jsonl" && ok "the broken log is left as it was" || bad "the broken log changed"

# A complete file: --resume runs nothing again and changes nothing but times.
out=$("$gemmhost" --config "$work/run.ini" --output "$p" --resume 2>&1)
expect_status "--resume of a complete run: exit status" $? 0
expect_in "--resume of a complete run: all 40 kept" "$out" "40 earlier results kept"
expect_ok "--resume of a complete run: the same results" results same "$work/full" "$p"

# Refusals: other settings, --overwrite with it, no output.
cp "$work/full.json" "$work/keep.json"
out=$("$gemmhost" --quiet --config "$work/run.ini" --output "$work/full" --resume --set run.seed=2 2>&1)
expect_status "--resume with another seed: refused" $? 2
expect_in "--resume with another seed: it names both" "$out" "was written with seed = 1, this run has seed = 2"
cmp -s "$work/full.json" "$work/keep.json" && ok "--resume refused: the results file is untouched" ||
    bad "--resume refused: the results file changed"
out=$("$gemmhost" --quiet --config "$work/run.ini" --output "$work/full" --resume --set run.ld_pad=0 2>&1)
expect_in "--resume with another ld_pad: refused, named" "$out" "ld_pad = 3, this run has ld_pad = 0"
out=$("$gemmhost" --quiet --config "$work/run.ini" --output "$work/full" --resume --size 256 2>&1)
expect_status "--resume with fewer sizes: refused" $? 2
expect_in "--resume with fewer sizes: names a result it would drop" "$out" \
    "holds results this run would not make (e.g. backend cpu, device 0, kernel naive, case 4: f32 nn 240x200x224)"
out=$("$gemmhost" --quiet --config "$work/run.ini" --output "$work/full" --resume --overwrite 2>&1)
expect_status "--resume --overwrite: a usage error" $? 2
out=$("$gemmhost" --quiet --config "$work/run.ini" --output= --resume 2>&1)
expect_status "--resume with no output: a usage error" $? 2
expect_in "--resume with no output: says why" "$out" "--resume needs the results files"
echo '{"complete": false, "results": [' >"$work/torn.json"
out=$("$gemmhost" --quiet --config "$work/run.ini" --output "$work/torn" --resume 2>&1)
expect_status "--resume of a file that is not JSON: refused" $? 2
expect_in "--resume of a file that is not JSON: names it" "$out" "cannot resume from $work/torn.json: line"

# A signal inside a long result (61 runs of one GEMM): that result stops
# between two of its runs. Sent when the progress shows its third run.
cat >"$work/long.ini" <<'EOF'
[run]
sizes = 200
dtype = f64
trans = nn
warmup = 1
repeat = 60
[backend cpu]
kernels = naive
threads = 1
EOF
GEMMHOST_PROGRESS_INTERVAL=0 "$gemmhost" --config "$work/long.ini" --output "$work/long" >/dev/null 2>"$work/long.err" &
pid=$!
while ! grep -qs "(repetition 3 of 61)" "$work/long.err" && kill -0 "$pid" 2>/dev/null; do sleep 0.01; done
kill -INT "$pid"
wait "$pid"
expect_status "SIGINT inside a result: exit status" $? 130
expect_in "SIGINT inside a result: it stopped between two of its runs" "$(results rows "$work/long")" \
    "cpu cancelled cancelled by SIGINT after"

# A second signal kills at once, even while a plugin call never returns.
cat >"$work/hang.ini" <<EOF
[run]
sizes = 8
dtype = f32
trans = nn
[backend hang]
plugin = $fakes/gemmhost-fake_hang_third.so
EOF
out=$(results second-signal "$gemmhost" "$work/hang.ini" "$work/hang")
expect_in "a second SIGINT kills gemmhost stuck in a plugin call" "$out" "returncode -2"

finish
