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
# Every case's outputs are bit-identical or measured through the fingerprints
# (in units of the bound): no case left without a difference.
unmeasured=$(sed -n '/^outputs across files/,/note:/p' <<<"$out" | grep "results in" | grep -v "all bit-identical" | grep -vc "largest difference .* of the bound")
expect_status "every case with several outputs gets its largest difference" "$unmeasured" 0
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

# ---- output fingerprints: a value moved beyond its bound, or within ---------
# result 3's output: another hash, one fingerprint value moved by 3 bounds
# (or by half of one); its label is the result's, its position C[i,j].
moved() { echo 'f = r[3]["fingerprint"]; f["value"][7] += '"$1"' * f["bound"][7]; r[3]["output_hash"] = "0123456789abcdef"'; }
label3=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][3]; print((r["kernel"]+" "+r["params"]).strip())' "$a")
case3=$(python3 -c 'import json,sys; print("(case %d)" % json.load(open(sys.argv[1]))["results"][3]["case_index"])' "$a")
edit "$a" "$work/fp_beyond.json" "$(moved 3)"
compare_run "a fingerprint value 3 bounds off" 1 "$a" "$work/fp_beyond.json"
expect_line "the moved output named, beyond its bound" "$out" "$label3" "$case3" "bounds apart" "(worse)"
expect_line "the agreement gives the difference" "$out" "$case3" "2 outputs" "largest difference"
edit "$a" "$work/fp_within.json" "$(moved 0.5)"
compare_run "a fingerprint value half a bound off: not a regression" 0 "$a" "$work/fp_within.json"
if grep -qF "beyond their error bound" <<<"$out"; then bad "within: an output listed beyond its bound"; else ok "within: no output beyond its bound"; fi
edit "$work/fp_beyond.json" "$work/fp_none.json" 'for x in r: x.pop("fingerprint", None)'
compare_run "a file from before fingerprints: read, nothing to measure" 0 "$a" "$work/fp_none.json"
expect_in "no fingerprints said" "$out" "no fingerprints to measure the difference"
edit "$a" "$work/fp_bad.json" 'r[3]["fingerprint"]["at"].pop()'
compare_run "a malformed fingerprint" 2 "$a" "$work/fp_bad.json"
expect_in "malformed fingerprint named" "$out" "$work/fp_bad.json: result 4 ($(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][3]; print("case %d, %s %s" % (r["case_index"], r["backend"], r["kernel"]))' "$a")): its fingerprint has arrays of unequal lengths"

# ---- --junit: a testcase per matched result, a failure per regression --------
edit "$work/tight.json" "$work/tight_moved.json" "$(moved 3)"
"$gemmhost" compare --junit "$work/cmp.xml" "$work/tight.json" "$work/tight_moved.json" "$work/double.json" >/dev/null 2>&1
expect_status "compare --junit with regressions" "$?" 1
expect_ok "JUnit: one suite per later file, the regressed results failed with their reasons" python3 -c '
import sys, xml.etree.ElementTree as ET
suites = ET.parse(sys.argv[1]).getroot().findall("testsuite")
assert [s.get("name") for s in suites] == ["gemmhost compare B against A", "gemmhost compare C against A"], suites
fails = [[(c.get("name"), c.find("failure").get("message")) for c in s.findall("testcase") if c.find("failure") is not None] for s in suites]
assert len(fails[0]) == 1 and "output beyond its error bound" in fails[0][0][1] and sys.argv[2] in fails[0][0][0], fails[0]
assert len(fails[1]) == 1 and fails[1][0][1].startswith("SLOW: 2.000 times"), fails[1]
assert all(int(s.get("tests")) == len(s.findall("testcase")) and int(s.get("failures")) == 1 for s in suites)
' "$work/cmp.xml" "$case3"
if command -v xmllint >/dev/null; then
    expect_ok "JUnit of compare valid against the schema" xmllint --noout --schema "$here/../report/junit.xsd" "$work/cmp.xml"
fi
"$gemmhost" compare --junit "$work" "$a" "$a" >/dev/null 2>"$work/junit.err"
expect_status "compare --junit on a folder" "$?" 2
expect_in "compare --junit refusal names it" "$(cat "$work/junit.err")" "$work"

# ---- --save-outputs: each distinct output as HASH.npy -------------------------
"$gemmhost" --config "$here/small.ini" --backend cpu --output "$work/saved" --save-outputs "$work/npy" --quiet >"$work/saved.log" 2>&1
expect_status "a run with --save-outputs" "$?" 0
expect_ok "one .npy per distinct output, named by its hash, holding the fingerprint's values" python3 -c '
import ast, json, os, struct, sys
d = json.load(open(sys.argv[1])); folder = sys.argv[2]
hashes = {r["output_hash"] for r in d["results"]}
assert sorted(os.listdir(folder)) == sorted(h + ".npy" for h in hashes), os.listdir(folder)
for r in d["results"]:
    b = open(os.path.join(folder, r["output_hash"] + ".npy"), "rb").read()
    assert b[:8] == b"\x93NUMPY\x01\x00", b[:8]
    hl = b[8] | b[9] << 8; h = ast.literal_eval(b[10:10 + hl].decode())
    assert (10 + hl) % 64 == 0 and h["descr"] == "<f4" and not h["fortran_order"]
    m, n = h["shape"]; assert (m, n) == (r["m"], r["n"]), (h, r["m"], r["n"])
    vals = struct.unpack("<%df" % (m * n), b[10 + hl:])
    f = r["fingerprint"]
    for p, v in enumerate(f["value"]):
        assert vals[f["at"][2 * p] * n + f["at"][2 * p + 1]] == struct.unpack("<f", struct.pack("<f", v))[0], (p, v)
' "$work/saved.json" "$work/npy"
: >"$work/npyfile"
"$gemmhost" --config "$here/small.ini" --backend cpu --output "$work/saved2" --save-outputs "$work/npyfile" --quiet >"$work/saved2.log" 2>&1
expect_status "--save-outputs to a file, not a folder" "$?" 2
expect_in "--save-outputs refusal names the path" "$(cat "$work/saved2.log")" "--save-outputs $work/npyfile: that is a regular file, not a folder"

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
