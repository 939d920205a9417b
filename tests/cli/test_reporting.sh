#!/usr/bin/env bash
# gemmhost's reporting, end to end on small C-plugin runs: column widths of a
# sweep, one agreement line per case, the summary with every failure again,
# --quiet, unchecked rows, output folders and the refusal to replace an
# earlier run, the JSON metadata (and a killed run's), JUnit XML against its
# schema, --list --json and --list --summary.
# Usage: test_reporting.sh GEMMHOST FAKE_DIR SOURCE_DIR PYTHON
set -u
gemmhost=$(realpath "$1") fakes=$(realpath "$2") src=$3 python=$4
command -v "$python" >/dev/null || python=python3
. "$src/tests/expect.sh"
unset GEMMHOST_PLUGIN_PATH

run_ini() { # run_ini NAME [RUN_KEYS [BACKENDS]]: a small C-plugin config in $work/NAME.ini
  local name=$1 keys=${2:-} backends=${3:-"[backend cpu]
plugin = cpu
kernels = naive, tiled"}
  { echo "[run]"
    for kv in "sizes = 8" "dtype = f32" "trans = nn" "repeat = 1" "warmup = 0" "output = $work/$name"; do
      grep -q "^${kv%% =*} =" <<<"$keys" || echo "$kv"   # RUN_KEYS replace these
    done
    echo "$keys"
    echo "$backends"; } >"$work/$name.ini"
  echo "$work/$name.ini"
}

# --- A sweep under a long backend name: every row whole, columns aligned.
long=a-rather-long-backend-name-for-a-sweep
out=$("$gemmhost" --verbose --config "$(run_ini sweep 'sizes = 8, 9' "[backend $long]
plugin = cpu
kernels = tiled
tile = 4, 8, 16, 32, 64")" 2>&1)
expect_status "sweep" $? 0
status_at=$(awk '/^backend /{print index($0, "status"); exit}' <<<"$out")
for t in 4 8 16 32 64; do
  rows=$(grep -c -- "^$long .* tile=$t  *f32 .*x" <<<"$out")
  [ "$rows" = 2 ] && ok "tile=$t: both rows name it whole, after the whole backend name" ||
    bad "tile=$t: $rows whole rows"
done
misaligned=$(awk -v at="$status_at" -v b="$long" 'index($0, b) == 1 && / f32 / && substr($0, at, 4) != "pass"' <<<"$out")
[ "$status_at" -gt 0 ] && [ -z "$misaligned" ] && ok "every row's status under the header's" ||
  { bad "status column misaligned (header at $status_at)"; echo "$out" | sed 's/^/    | /'; }
grep -q '~' <<<"$out" && bad "a cell was cut with ~" || ok "no cell cut"

# --- One agreement line per case; the groups' members with --full-agreement.
[ "$(grep -c '^agreement f32 nn ' <<<"$out")" = 2 ] && ok "one agreement line per case (2 cases)" ||
  bad "agreement lines: $(grep -c '^agreement f32 nn ' <<<"$out")"
expect_in "a group is named compactly" "$out" "agreement f32 nn 8x8x8: "
[ "$(grep -c '^  [A-Z] (hash ' <<<"$out")" = 0 ] && ok "no member lists by default" || bad "member lists shown"
out=$("$gemmhost" --config "$work/sweep.ini" --output "$work/sweep-full" --full-agreement 2>&1)
expect_status "--full-agreement" $? 0
full=$(grep '^  [A-Z] (hash ' <<<"$out")
members=$(grep -o "$long/0/tiled tile=[0-9]*" <<<"$full" | sort -u | wc -l)
[ "$members" = 5 ] && ok "--full-agreement lists every member" || { bad "--full-agreement members: $members"; echo "$out" | sed 's/^/    | /'; }

# --- A failing plugin beside a good one: the summary and the failure again at the end.
pair="[backend cpu]
plugin = cpu
kernels = naive
[backend noop]
plugin = fake_noop"
out=$(GEMMHOST_PLUGIN_PATH=$fakes "$gemmhost" --verbose --config "$(run_ini fails 'sizes = 8, 9' "$pair")" \
  --junit "$work/fails.xml" 2>&1)
expect_status "a failing plugin" $? 1
summary=$(sed -n '/^summary (/,$p' <<<"$out")
expect_in "a summary header" "$summary" "passed failed unsupported errors unchecked f32 GFLOP/s"
read -r p f u e c <<<"$(grep '^noop ' <<<"$summary" | grep -o ' [0-9][0-9]* *[0-9][0-9]* *[0-9][0-9]* *[0-9][0-9]* *[0-9][0-9]* ' | head -1)"
[ "${p:-x} ${f:-x} ${u:-x} ${e:-x} ${c:-x}" = "0 2 0 0 0" ] && ok "summary row: noop failed twice" ||
  { bad "summary row for noop: '$p $f $u $e $c'"; echo "$summary" | sed 's/^/    | /'; }
grep -q '^cpu .* 2 *0 *0 *0 *0 ' <<<"$summary" && ok "summary row: cpu passed twice" || bad "summary row for cpu"
again=$(sed -n '/^failures and errors (2), again:/,$p' <<<"$summary")
expect_in "the failure again at the end, with its reason" "$again" "  FAIL  noop, 0:"
expect_in "the reason is the verification's" "$again" "never written (still poison)"

# --- JUnit XML of that run: valid against the schema, counts right.
if command -v xmllint >/dev/null; then
  expect_ok "JUnit valid against tests/report/junit.xsd" xmllint --noout --schema "$src/tests/report/junit.xsd" "$work/fails.xml"
else
  echo "skip: xmllint not installed (Debian: libxml2-utils), the JUnit schema check cannot run"
fi
expect_ok "JUnit counts: 4 tests, 2 failures with reasons" "$python" -c "
import sys, xml.etree.ElementTree as ET
s = ET.parse('$work/fails.xml').getroot().find('testsuite')
fails = [c for c in s.iter('testcase') if c.find('failure') is not None]
ok = (s.get('tests'), s.get('failures'), s.get('errors'), s.get('skipped')) == ('4', '2', '0', '0')
ok = ok and all(c.get('classname').startswith('noop.loop on 0:') and 'never written' in c.find('failure').text for c in fails)
ok = ok and {c.get('name') for c in fails} == {'f32 nn 8x8x8', 'f32 nn 9x9x9'}
props = {p.get('name'): p.get('value') for p in s.iter('property')}
sys.exit(0 if ok and props['complete'] == 'true' else 1)"

# --- --quiet: no table, but the failure, its reason and the notes on stderr.
nodev="$pair
[backend nodev]
plugin = fake_no_device"
GEMMHOST_PLUGIN_PATH=$fakes "$gemmhost" --quiet --config "$(run_ini quiet '' "$nodev")" >"$work/quiet.out" 2>"$work/quiet.err"
expect_status "--quiet with a failure" $? 1
[ "$(cat "$work/quiet.out")" = "gemmhost: 1 passed, 1 failed, 0 unsupported, 0 errors, 0 unchecked
results: $work/quiet.csv, $work/quiet.json" ] && ok "--quiet: only the totals and the files on stdout" ||
  { bad "--quiet stdout is not the totals and the files"; sed 's/^/    | /' "$work/quiet.out"; }
err=$(cat "$work/quiet.err")
expect_in "--quiet: the failure on stderr" "$err" "FAIL  noop, 0:"
expect_in "--quiet: its reason on stderr" "$err" "never written (still poison)"
expect_in "--quiet: the note that explains a backend on stderr" "$err" "note: backend nodev could not run:"

# --- The first screen (no --verbose): a line per device and kernel, the
# agreement per dtype and every failure in full with its reason; no row per result.
out=$(GEMMHOST_PLUGIN_PATH=$fakes "$gemmhost" --config "$work/fails.ini" --output "$work/screen" 2>/dev/null)
expect_status "the first screen of a failing run" $? 1
grep -q '^  naive  *2 ' <<<"$out" && ok "first screen: a line for cpu's naive, 2 passed" || bad "first screen: no naive line"
grep -q ' nn  *8x8x8 ' <<<"$out" && bad "first screen: a row per result" || ok "first screen: no row per result"
expect_in "first screen: the failure in full" "$out" "FAIL  noop, 0:"
expect_in "first screen: the failure's reason" "$out" "never written (still poison)"
expect_in "first screen: the agreement of f32 in one verdict" "$out" "agreement f32: "
[ "$(grep -c '^agreement ' <<<"$out")" = 1 ] && ok "first screen: one verdict for the one dtype" || bad "first screen: agreement lines"
"$gemmhost" --quiet --verbose --config "$work/fails.ini" >/dev/null 2>&1
expect_status "--quiet --verbose is a usage error" $? 2

# --- verify = none: unchecked, shown and counted, never pass.
out=$("$gemmhost" --verbose --config "$(run_ini unchecked 'verify = none')" 2>&1)
expect_status "verify = none" $? 0
[ "$(grep -c '^cpu .* unchecked ' <<<"$out")" = 2 ] && ok "two unchecked rows in the table" || bad "unchecked rows"
grep -q '^cpu .* pass ' <<<"$out" && bad "a row says pass with verify = none" || ok "no row says pass"
grep -q '^cpu .* 0 *0 *0 *0 *1 ' <<<"$(sed -n '/^summary (/,$p' <<<"$out")" && ok "summary counts unchecked" ||
  bad "summary unchecked count"
expect_in "the total counts them" "$out" "0 passed, 0 failed, 0 unsupported, 0 errors, 2 unchecked"
[ "$(grep -c ',unchecked,' "$work/unchecked.csv")" = 2 ] && ok "CSV says unchecked" || bad "CSV status"

# --- --output DIR/: created, gemmhost-results.*; the same config again replaces its own
# complete results; another experiment is refused with both commands; --overwrite.
"$gemmhost" --quiet --config "$work/unchecked.ini" --output "$work/new/dir/" 2>&1
expect_status "--output into a new folder" $? 0
csv=$work/new/dir/gemmhost-results.csv json=$work/new/dir/gemmhost-results.json
[ -s "$csv" ] && [ -s "$json" ] && [ -s "$work/new/dir/gemmhost-results.jsonl" ] &&
  ok "the folder was created with the CSV, JSON and log" || bad "no files in the folder"
out=$("$gemmhost" --config "$work/unchecked.ini" --output "$work/new/dir" 2>&1)
expect_status "the same config again over its complete results" $? 0
expect_in "it says it replaces them, as the same experiment" "$(grep '^gemmhost: replacing' <<<"$out")" \
  "replacing $csv, $json and $work/new/dir/gemmhost-results.jsonl: the complete results of this same experiment"
dry=$("$gemmhost" --config "$work/unchecked.ini" --output "$work/new/dir" --dry-run 2>&1)
expect_status "--dry-run agrees: it would run" $? 0
expect_in "--dry-run says it would replace them" "$dry" "the complete results of this same experiment there would be replaced"
before=$(md5sum "$csv" "$json")
out=$("$gemmhost" --config "$work/unchecked.ini" --output "$work/new/dir" --set run.seed=7 2>&1)
expect_status "another experiment (--set) into the same files is refused" $? 2
expect_in "the refusal names the file and why" "$out" "$json holds the results of another experiment"
expect_in "the refusal spells out --output OTHER" "$out" \
  "$gemmhost --config $work/unchecked.ini --set run.seed=7 --output $work/new/dir/gemmhost-results-2"
expect_in "the refusal spells out --overwrite" "$out" \
  "$gemmhost --config $work/unchecked.ini --output $work/new/dir --set run.seed=7 --overwrite"
grep -q '^cpu ' <<<"$out" && bad "something ran before the refusal" || ok "nothing ran"
[ "$before" = "$(md5sum "$csv" "$json")" ] && ok "the earlier files are unchanged" || bad "the earlier files changed"
dry=$("$gemmhost" --config "$work/unchecked.ini" --output "$work/new/dir" --set run.seed=7 --dry-run 2>&1)
expect_status "--dry-run agrees: refused" $? 2
expect_in "--dry-run gives the same refusal" "$dry" "$json holds the results of another experiment"
"$gemmhost" --quiet --config "$work/unchecked.ini" --output "$work/new/dir/gemmhost-results-2" --set run.seed=7 2>&1
expect_status "the suggested --output writes beside them" $? 0
echo marker >"$csv"
out=$("$gemmhost" --config "$work/unchecked.ini" --output "$work/new/dir/" --overwrite 2>&1)
expect_status "--overwrite" $? 0
grep -q marker "$csv" && bad "--overwrite kept the old file" || ok "--overwrite replaced it"
echo '{"gemmhost": {}, "results": []}' >"$json"
out=$("$gemmhost" --config "$work/unchecked.ini" --output "$work/new/dir/" 2>&1)
expect_status "results that name no experiment are refused" $? 2
expect_in "and the refusal says so" "$out" "holds results that name no experiment"

# --- An empty output: said once, nothing written.
mkdir "$work/empty" && cd "$work/empty" || exit 1
out=$("$gemmhost" --config "$work/unchecked.ini" --output= 2>&1)
expect_status "--output=" $? 0
[ "$(grep -c 'no result files are written' <<<"$out")" = 1 ] && ok "an empty output is said once" || bad "empty output message"
[ -z "$(ls -A "$work/empty")" ] && ok "nothing written" || bad "files written: $(ls -A "$work/empty")"
grep -q '^results: ' <<<"$out" && bad "a results line without files" || ok "no results line"

# --- The built-in default twice in one folder: README's command again replaces its own
# files, saying so; a filtered default run does not replace them (another experiment).
mkdir "$work/readme" && cd "$work/readme" || exit 1
"$gemmhost" --size 8 --dtype f32 --trans nn >/dev/null 2>&1
first=$?
out=$("$gemmhost" --size 8 --dtype f32 --trans nn 2>&1)
second=$?
[ "$first" = "$second" ] && { [ "$second" = 0 ] || [ "$second" = 3 ]; } && ok "the built-in default runs again (exit $second)" ||
  bad "the built-in default: exit $first, then $second"
expect_in "and says it replaces the earlier files" "$out" \
  "replacing gemmhost-results.csv, gemmhost-results.json and gemmhost-results.jsonl: the complete results of this same experiment"
before=$(md5sum gemmhost-results.csv gemmhost-results.json)
out=$("$gemmhost" --size 8 --dtype f32 --trans nn --kernel naive 2>&1)
expect_status "a filtered default run over the default's results: refused" $? 2
expect_in "it names the other experiment" "$out" "gemmhost-results.json holds the results of another experiment"
expect_in "and the command that keeps both" "$out" "--kernel naive --output gemmhost-results-2"
[ "$before" = "$(md5sum gemmhost-results.csv gemmhost-results.json)" ] && ok "the default's results are unchanged" ||
  bad "the filtered run changed the default's results"
"$gemmhost" --size 8 --dtype f32 --trans nn --kernel naive --dry-run >/dev/null 2>&1
expect_status "--dry-run of the filtered run agrees" $? 2
cd "$work" || exit 1

# --- The JSON's metadata.
expect_ok "JSON metadata: complete, times, host, command line, version, commit, plugin versions" "$python" -c "
import json, re, sys
d = json.load(open('$work/fails.json'))
iso = re.compile(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$')
checks = {
  'complete': d['complete'] is True,
  'times': all(iso.match(d['time'][k]) for k in ('start', 'end')) and d['time']['start'] <= d['time']['end'],
  'host': bool(d['host']),
  'command line': d['command_line'][1:] == ['--verbose', '--config', '$work/fails.ini', '--junit', '$work/fails.xml']
                  and d['command_line'][0].endswith('gemmhost'),
  'version': bool(d['gemmhost']['version']) and bool(d['gemmhost']['build_type']),
  'commit': re.match(r'^([0-9a-f]{7,40}(-dirty)?|unknown)$', d['gemmhost']['git_commit']) is not None,
  'plugin versions': all(p['version'] for p in d['plugins'] if p['loaded'])
                     and {'cpu', 'fake_noop'} <= {p['name'] for p in d['plugins'] if p['loaded']},
}
bad = [k for k, v in checks.items() if not v]
print('failed:', bad, d['gemmhost'], d['time']) if bad else None
sys.exit(1 if bad else 0)"

# --- A run killed after its first result: its JSON says incomplete.
"$gemmhost" --quiet --config "$(run_ini killed 'sizes = 8, 500, 501, 502, 503, 504, 505, 506, 507
dtype = f64' '[backend cpu]
plugin = cpu
kernels = naive
threads = 1')" --junit "$work/killed.xml" &
pid=$!
# Wait for the first result line (header + 1) or the end of the process.
until { [ -f "$work/killed.csv" ] && [ "$(wc -l <"$work/killed.csv")" -ge 2 ]; } || ! kill -0 $pid 2>/dev/null; do
  sleep 0.02   # a poll interval, not a wait for time to pass
done
if kill -9 $pid 2>/dev/null; then
  wait $pid 2>/dev/null
  expect_ok "a killed run's JSON says incomplete, with its finished results" "$python" -c "
import json, sys
d = json.load(open('$work/killed.json'))
sys.exit(0 if d['complete'] is False and d['time']['end'] is None and len(d['results']) >= 1 else 1)"
  expect_ok "a killed run's JUnit file is whole and says incomplete" "$python" -c "
import sys, xml.etree.ElementTree as ET
props = {p.get('name'): p.get('value') for p in ET.parse('$work/killed.xml').getroot().iter('property')}
sys.exit(0 if props['complete'] == 'false' else 1)"
else
  bad "the run ended before it could be killed (8 cases of about 500^3 f64 on one thread)"
fi

# --- --list --json and --list --summary.
"$gemmhost" --list --json >"$work/list.json" 2>"$work/list.err"
expect_status "--list --json" $? 0
expect_ok "--list --json parses, with the cpu plugin, its kernels, params and device" "$python" -c "
import json, sys
d = json.load(open('$work/list.json'))
cpu = [p for p in d['plugins'] if p['name'] == 'cpu' and p['loaded']]
k = {x['name']: x for x in cpu[0]['kernels']} if cpu else {}
ok = cpu and {'naive', 'tiled'} <= set(k) and 'f32' in k['tiled']['dtypes']
ok = ok and any(p['name'] == 'tile' and 16 in (p['allowed'] or []) for p in k['tiled']['params'])
ok = ok and cpu[0]['devices'] and {'name', 'vendor', 'api', 'global_mem_bytes', 'is_software', 'has_fp64'} <= set(cpu[0]['devices'][0])
ok = ok and cpu[0]['version'] and cpu[0]['path'].endswith('gemmhost-cpu.so') and d['search_path'] and 'abi_major' in d['gemmhost']
sys.exit(0 if ok else 1)"
out=$(GEMMHOST_PLUGIN_PATH=$fakes "$gemmhost" --list --json 2>&1)
expect_ok "--list --json with broken plugins: each with its error" "$python" -c "
import json, sys
d = json.loads(sys.stdin.read())
p = {x['name']: x for x in d['plugins']}
ok = p['fake_no_device']['device_error'] and p['fake_failing_open']['open_error']
ok = ok and any(not x['loaded'] and 'majors must match' in x['error'] for x in d['plugins'])
sys.exit(0 if ok else 1)" <<<"$out"
out=$("$gemmhost" --list --summary 2>&1)
expect_status "--list --summary" $? 0
expect_in "--list --summary: a line for the cpu plugin" "$out" "plugin cpu "
grep -q '^  device cpu/0: ' <<<"$out" && ok "--list --summary: a line for its device" ||
  { bad "--list --summary: no device line"; echo "$out" | sed 's/^/    | /'; }
[ "$(grep -vc '^plugin \|^  device ' <<<"$out")" = 0 ] && ok "--list --summary: nothing else" || bad "--list --summary: other lines"

# --- A vendor library's rows with the default ld_pad (3): a note says its rows were not whole
# 16 bytes; with ld_pad = 0, or without a vendor kernel, no such note.
vendor_note="takes vendor libraries (blas here) off their fast paths"
out=$("$gemmhost" --config "$(run_ini vendor3 'sizes = 16' "[backend cpu]
plugin = cpu
kernels = naive, blas")" 2>&1)
expect_in "ld_pad 3 with blas: the note" "$out" "ld_pad = 3: rows are not whole 16 bytes"
expect_in "the note in the JSON" "$("$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["notes"])' "$work/vendor3.json")" "$vendor_note"
out=$("$gemmhost" --config "$(run_ini vendor0 'ld_pad = 0' "[backend cpu]
plugin = cpu
kernels = naive, blas")" 2>&1)
grep -qF "$vendor_note" <<<"$out" && bad "ld_pad 0: no alignment note" || ok "ld_pad 0: no alignment note"
out=$("$gemmhost" --config "$(run_ini novendor)" 2>&1)
grep -qF "off their fast paths" <<<"$out" && bad "no vendor kernel: no alignment note" || ok "no vendor kernel: no alignment note"

finish
