#!/bin/bash
# gemmhost compare: runs of one config on three backends compared (exit 0,
# one agreement line per case), synthetic regressions (exit 1, the result
# named), the speed verdicts on chosen spreads, and bad inputs (exit 2, the
# file and the problem named). No timing is asserted: every verdict checked
# comes from times written into the files.
set -u
gemmhost=$1
here=$2
source "$here/../expect.sh"
edit() { python3 "$here/edit_results.py" "$@"; }
# compare_run NAME WANTED_STATUS FILES...: runs compare into $out, checks the status
compare_run() {
    local name=$1 want=$2; shift 2
    out=$("$gemmhost" compare "$@" 2>&1); local rc=$?
    expect_status "$name" "$rc" "$want"
    [ "$rc" = "$want" ] || echo "$out" | sed 's/^/    | /'
}
# expect_line NAME TEXT PATTERN...: one line of TEXT holds every PATTERN
expect_line() {
    local name=$1 text=$2; shift 2
    local lines=$text
    for p in "$@"; do lines=$(grep -F -- "$p" <<<"$lines"); done
    if [ -n "$lines" ]; then ok "$name"; else bad "$name: no line with: $*"; echo "$text" | sed 's/^/    | /'; fi
}

# ---- three stand-in machines: one run per backend -------------------------
runs=()
for b in cpu opencl vulkan; do
    "$gemmhost" --config "$here/small.ini" --backend "$b" --output "$work/$b" --quiet >"$work/$b.log" 2>&1
    rc=$?
    if [ "$rc" = 0 ]; then runs+=("$work/$b.json")
    elif [ "$b" = cpu ]; then bad "the C plugin run failed (exit $rc)"; cat "$work/$b.log"; finish; exit 1
    else echo "note: backend $b did not run here (exit $rc), left out of the three-way compare"; fi
done
cases=$(python3 -c 'import json,sys; print(len({r["case_index"] for r in json.load(open(sys.argv[1]))["results"]}))' "$work/cpu.json")
compare_run "compare of ${#runs[@]} runs, one per backend" 0 "${runs[@]}"
agreement=$(sed -n '/^outputs across files/,/note:/p' <<<"$out" | grep -c "results in ${#runs[@]} files")
expect_status "one agreement line per case across the ${#runs[@]} files ($cases cases)" "$agreement" "$cases"
expect_in "the agreement says the largest difference needs fingerprints" "$out" "needs output fingerprints"
expect_in "files listed first" "$(head -1 <<<"$out")" "A = $work/cpu.json"

# ---- the same file twice: nothing regressed -------------------------------
a=$work/cpu.json
compare_run "a file against itself" 0 "$a" "$a"
expect_in "every pair SAME against itself" "$out" "0 FAST, 0 SLOW"

# ---- regressions: a failed result, a doubled time --------------------------
edit "$a" "$work/fail.json" 'r[1]["status"] = "FAIL"; r[1]["detail"] = "synthetic failure"'
label=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][1]; print((r["kernel"]+" "+r["params"]).strip())' "$a")
compare_run "one result failed" 1 "$a" "$work/fail.json"
expect_line "the failed result named: pass -> FAIL" "$out" "$label" "(case 0)" "pass -> FAIL (worse)"
edit "$a" "$work/crash.json" 'r[2]["status"] = "crashed"'
compare_run "pass -> crashed" 1 "$a" "$work/crash.json"
expect_in "pass -> crashed named" "$out" "pass -> crashed (worse)"

edit "$a" "$work/tight.json" 'all_times(1.0, 1.0, 1.0)'
edit "$work/tight.json" "$work/double.json" 'times(0, 2.0, 2.0, 2.0)'
compare_run "a kernel time doubled, tight spreads" 1 "$work/tight.json" "$work/double.json"
expect_line "the doubled result named SLOW" "$out" "(case 0)" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["kernel"])' "$a")" "2.000  SLOW"
expect_in "summary counts the SLOW one" "$out" "1 SLOW"
expect_in "summary's geometric mean" "$out" "geometric mean ratio"

# ---- better: unsupported -> pass, not a regression --------------------------
edit "$a" "$work/unsup.json" 'r[0]["status"] = "unsupported"'
compare_run "unsupported -> pass" 0 "$work/unsup.json" "$a"
expect_in "unsupported -> pass named better" "$out" "unsupported -> pass (better)"

# ---- the verdict logic on chosen spreads (5% threshold) --------------------
edit "$a" "$work/base.json" 'all_times(1.0, 1.5, 2.0)'
edit "$a" "$work/overlap.json" 'all_times(1.9, 2.0, 2.5)'
compare_run "ranges overlap, change 33%: SAME" 0 "$work/base.json" "$work/overlap.json"
expect_in "overlap: all SAME" "$out" "0 FAST, 0 SLOW"
edit "$a" "$work/narrow.json" 'all_times(1.0, 1.0, 1.01)'
edit "$a" "$work/slower.json" 'all_times(1.1, 1.1, 1.1)'
compare_run "no overlap, 10% slower: SLOW" 1 "$work/narrow.json" "$work/slower.json"
expect_in "no overlap beyond threshold: SLOW" "$out" "0 SAME, 0 FAST, "
edit "$a" "$work/within.json" 'all_times(1.03, 1.03, 1.03)'
compare_run "no overlap, 3% slower (within 5%): SAME" 0 "$work/narrow.json" "$work/within.json"
compare_run "--threshold 2: the 3% is SLOW" 1 --threshold 2 "$work/narrow.json" "$work/within.json"
edit "$a" "$work/faster.json" 'all_times(0.5, 0.5, 0.5)'
compare_run "twice as fast: FAST, not a regression" 0 "$work/narrow.json" "$work/faster.json"
expect_in "FAST counted" "$out" "0 SAME, $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["results"]))' "$a") FAST"

# ---- --json and --markdown --------------------------------------------------
"$gemmhost" compare --json "$work/tight.json" "$work/double.json" >"$work/cmp.json"
expect_status "--json exit status" "$?" 1
expect_ok "--json parses, names the SLOW result and the exit status" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["exit_status"] == 1 and d["regressions"] == 1, d["regressions"]
slow = [r for r in d["comparisons"][0]["speed"] if r["verdict"] == "SLOW"]
assert len(slow) == 1 and abs(slow[0]["ratio"] - 2) < 1e-9, slow
' "$work/cmp.json"
compare_run "--markdown" 0 --markdown "$a" "$a"
expect_in "--markdown has a table" "$out" "| case | result |"

# ---- environment differences, printed first ---------------------------------
edit "$a" "$work/other_host.json" 'd["host"] = "elsewhere"; d["gemmhost"]["git_commit"] = "abc123"; d["devices"][0]["driver_version"] = "99.1"'
compare_run "another host, commit and driver" 0 "$a" "$work/other_host.json"
expect_line "host difference" "$out" "host" "B: elsewhere"
expect_line "commit difference" "$out" "git commit" "B: abc123"
expect_line "driver difference" "$out" "driver_version" "B: 99.1"

# ---- matching options ----------------------------------------------------------
edit "$a" "$work/renamed.json" 'for x in r: x["device_name"] = "Another CPU"'
compare_run "another device name: nothing matches by default" 0 "$a" "$work/renamed.json"
expect_in "renamed device: results new" "$out" "new in B"
compare_run "--ignore-device-names matches them" 0 --ignore-device-names "$a" "$work/renamed.json"
expect_in "--ignore-device-names: all matched" "$out" "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["results"]))' "$a") matched"
edit "$a" "$work/section.json" 'for x in r: x["backend"] = "cpu_other"'
compare_run "--by-plugin matches another section of the plugin" 0 --by-plugin "$a" "$work/section.json"
expect_in "--by-plugin: all matched" "$out" "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["results"]))' "$a") matched"

# ---- files that cannot be compared: exit 2, the file and the problem named ---
: >"$work/empty.json"
compare_run "empty file" 2 "$a" "$work/empty.json"
expect_in "empty named" "$out" "$work/empty.json: is empty"
head -c 700 "$a" >"$work/truncated.json"
compare_run "truncated JSON" 2 "$a" "$work/truncated.json"
expect_in "truncated named" "$out" "$work/truncated.json: is truncated"
echo '{"name": "some-package", "version": "1.0.0"}' >"$work/package.json"
compare_run "another program's JSON" 2 "$work/package.json" "$a"
expect_in "foreign named" "$out" "$work/package.json: is JSON but not a gemmhost results file"
echo 'not json at all' >"$work/text.json"
compare_run "not JSON" 2 "$a" "$work/text.json"
expect_in "not JSON named" "$out" "$work/text.json: is not JSON"
edit "$a" "$work/seed.json" 'd["settings"]["seed"] = 6'
compare_run "another seed" 2 "$a" "$work/seed.json"
expect_in "seed difference said" "$out" "$work/seed.json has seed = 6"
edit "$a" "$work/old.json" 'del d["settings"]'
compare_run "an older format (no settings)" 2 "$a" "$work/old.json"
expect_in "older format named" "$out" "$work/old.json: is of an older results format"
edit "$a" "$work/major.json" 'd["gemmhost"]["version"] = "9.0.0"'
compare_run "another major version" 2 "$a" "$work/major.json"
expect_in "major version named" "$out" "$work/major.json: was written by gemmhost 9.0.0"
edit "$a" "$work/apart.json" 'for x in r: x["case_index"] += 100'
compare_run "nothing in common" 2 "$a" "$work/apart.json"
expect_in "nothing in common said" "$out" "have nothing in common"
edit "$a" "$work/badresult.json" 'del r[3]["status"]'
compare_run "a result without a status" 2 "$a" "$work/badresult.json"
expect_in "bad result named" "$out" "$work/badresult.json: result 4 lacks"
compare_run "a missing file" 2 "$a" "$work/nothere.json"
expect_in "missing file named" "$out" "$work/nothere.json: cannot read it"
compare_run "one file only" 2 "$a"
compare_run "an unknown option" 2 --fast "$a" "$a"
compare_run "a bad threshold" 2 --threshold much "$a" "$a"
"$gemmhost" compare --help >"$work/help" 2>&1
expect_status "compare --help" "$?" 0
finish
