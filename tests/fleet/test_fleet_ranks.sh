#!/usr/bin/env bash
# Three ranks on this machine (mpirun --oversubscribe -n 3) stand in for
# three hosts (docs/fleet.md):
#  - `ranks` gives rank 0 the C plugin, rank 1 PoCL (OpenCL), rank 2
#    lavapipe (Vulkan), the same small cases: one results file holding all
#    three ranks, one agreement table across them, exit 0;
#  - a rank given a plugin that aborts in its third gemm: that result is
#    `crashed`, the other ranks' results are complete, exit 1;
#  - a rank SIGKILLed mid-run (held by a fake that waits for a gate file,
#    never by timing): the surviving ranks' files are readable and
#    `gemmhost merge` builds the fleet report, naming the rank that did not
#    finish, and, its files removed, the missing rank.
# Usage: test_fleet_ranks.sh GEMMHOST SOURCE_DIR PYTHON MPIRUN ABORT_FAKE GATE_FAKE
set -u
gemmhost=$(realpath "$1") src=$2 python=$3 mpirun=$4 abort_fake=$(realpath "$5") gate_fake=$(realpath "$6")
command -v "$python" >/dev/null || python=python3
. "$src/tests/expect.sh"
unset GEMMHOST_PLUGIN_PATH GEMMHOST_TUNE_CACHE
export XDG_CACHE_HOME=$work/cache
# mpirun refuses root without these (CI containers run as root).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Whatever the test's machine says about its network, the three ranks talk through shared memory here.
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
# In the sanitizer build: ASan and UBSan check the ranks and their workers, LeakSanitizer does
# not. Open MPI's leaks cannot be told from ours: its frames have no frame pointers, and the
# components they lie in are unloaded by exit, so tests/lsan.supp's library names never match.
# Whole stacks (fast_unwind_on_malloc=0) deadlock the lavapipe worker: ASan's slow unwinder
# re-enters libgcc's _Unwind_Find_FDE, whose lock it holds, once LLVM has registered JIT frames.
# The code a rank shares with a single run is leak-checked by the other tests; MPI's own
# (core/fleet/mpi_comm.c, fleet_rank.c) is not.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
mpi() { timeout 300 "$mpirun" --oversubscribe -n 3 "$@"; }

three_apis() {
  printf '[run]\nsizes = 17x9x13\ndtype = f32\ntrans = nn, tn\nwarmup = 0\nrepeat = 1\n'
  printf '[backend c]\nplugin = cpu\nkernels = naive\nranks = 0\n'
  printf '[backend cl]\nplugin = opencl\ndevices = software\nkernels = naive\nranks = 1\n'
  printf '[backend vk]\nplugin = vulkan\ndevices = software\nkernels = naive\nranks = 2\n'
}
three_apis >"$work/fleet.ini"
mpi "$gemmhost" --config "$work/fleet.ini" --output "$work/fleet" >"$work/out" 2>&1
expect_status "three ranks, three APIs" $? 0
out=$(cat "$work/out")
expect_in "the fleet table" "$out" "fleet: 3 ranks"
expect_in "one agreement line across the ranks" "$out" "agreement across ranks f32: all 2 cases"
expect_in "over all three" "$out" "on 3 ranks"
"$python" - "$work/fleet.json" <<'PY' && ok "fleet.json: each rank's API, each result with rank and host, one agreement over 3 ranks" || bad "fleet.json"
import json, sys
d = json.load(open(sys.argv[1]))
rs = d["results"]
assert {(r["rank"], r["plugin"]) for r in rs} == {(0, "cpu"), (1, "opencl"), (2, "vulkan")}, rs
assert all(r["host"] and r["status"] == "pass" and "fingerprint" in r for r in rs)
assert d["complete"] and [e["complete"] for e in d["fleet"]["ranks"]] == [True] * 3
assert len(d["agreement"]) == 2 and all(sorted(a["ranks"]) == [0, 1, 2] for a in d["agreement"]), d["agreement"]
assert all(a["fingerprints"] and a["max_diff_in_bounds"] <= 1 for a in d["agreement"])
PY
for r in 0 1 2; do
  "$python" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["fleet"]["rank"]==int(sys.argv[2]) and d["complete"]' \
    "$work/fleet.rank-$r.json" $r && ok "rank $r's own results file" || bad "rank $r's own results file"
done

# [run] fleet_outputs_max: each rank sends its outputs of at most that size to rank 0, whose agreement
# measures them whole (exact) against the case's reference; a case over the limit keeps its fingerprints.
# 17x9 f32 (612 bytes) is over 256, 5x3 (60 bytes) under it. Every element of an output of at most 256
# is in its fingerprint, so the exact distance is the fingerprints' one here, up to the bound's form
# (the fingerprint's bound is each result's own, the exact one the reference's: within a few percent).
mpi "$gemmhost" --config "$work/fleet.ini" --output "$work/exact" --set run.sizes="17x9x13, 5x3x4" \
  --set run.fleet_outputs_max=256 --verbose >"$work/out" 2>&1
expect_status "fleet_outputs_max = 256" $? 0
out=$(cat "$work/out")
expect_in "the agreement says which distances are exact" "$out" "distances: "
"$python" - "$work/exact.json" <<'PY' && ok "exact.json: the small case's distance exact, the large one's from fingerprints" || bad "exact.json"
import json, sys
d = json.load(open(sys.argv[1]))
by = {(a["case_index"], a["m"]): a for a in d["agreement"]}
assert len(by) == 4, by.keys()
for (i, m), a in by.items():
    want = "identical" if len(a["groups"]) == 1 else "exact" if m == 5 else "fingerprints"
    assert a["distance"] == want, (i, m, a)
small = [a for (i, m), a in by.items() if m == 5 and len(a["groups"]) > 1]
assert small, "no small case with differing outputs: nothing was measured exactly"
PY
"$python" - "$work/exact.json" "$work/fleet.json" <<'PY' && ok "the exact distances are the fingerprints' over every element" || bad "exact against fingerprint distances"
import json, sys
d = json.load(open(sys.argv[1]))
for a in d["agreement"]:
    if a["distance"] != "exact":
        continue
    fps = {}
    for r in d["results"]:
        if r["case_index"] == a["case_index"] and r.get("output_hash"):
            fps[r["output_hash"]] = r["fingerprint"]
    worst = 0
    hashes = [g["hash"] for g in a["groups"]]
    for x in hashes:
        for y in hashes:
            fx, fy = fps[x], fps[y]
            assert len(fx["value"]) == a["m"] * a["n"], "the fingerprint is not the whole output"
            for vx, vy, bx, by in zip(fx["value"], fy["value"], fx["bound"], fy["bound"]):
                worst = max(worst, abs(vx - vy) / max(bx, by))
    got = a["max_diff_in_bounds"]
    assert abs(got - worst) <= 0.05 * worst and (got > 0) == (worst > 0), (a["case_index"], got, worst)
PY

# compare reads fleet files: results pair rank by rank (rank and host) between fleets of one layout.
# (The threshold keeps the speed verdicts out of it: one timed run each, on an oversubscribed machine.)
"$gemmhost" compare --threshold 100000 --json "$work/fleet.json" "$work/exact.json" >"$work/cmp.json" 2>"$work/cmp.err"
expect_status "compare two fleets of one layout" $? 0
# exact.json has the same 17x9x13 cases (0 and 1: nn, tn) and two more.
"$python" -c 'import json,sys; c=json.load(open(sys.argv[1]))["comparisons"][0]; assert c["summary"]["matched"] == 6, c["summary"]' \
  "$work/cmp.json" && ok "compare: each rank's results against the same rank's" || bad "compare of two fleets: $(cat "$work/cmp.err")"
# One run's results (the C plugin alone) against the fleet: refused unless the ranks are ignored.
printf '[run]\nsizes = 17x9x13\ndtype = f32\ntrans = nn, tn\nwarmup = 0\nrepeat = 1\n[backend c]\nplugin = cpu\nkernels = naive\n' >"$work/alone.ini"
"$gemmhost" --config "$work/alone.ini" --output "$work/alone" --quiet >/dev/null 2>&1
out=$("$gemmhost" compare "$work/alone.json" "$work/fleet.json" 2>&1)
expect_status "compare one run against a fleet" $? 2
expect_in "says how they differ and what matches them" "$out" "is one run's results and"
expect_in "names the option" "$out" "--ignore-ranks matches"
"$gemmhost" compare --threshold 100000 --ignore-ranks --json "$work/alone.json" "$work/fleet.json" >"$work/cmp.json" 2>"$work/cmp.err"
expect_status "compare --ignore-ranks one run against a fleet" $? 0
"$python" -c 'import json,sys; c=json.load(open(sys.argv[1]))["comparisons"][0]; assert c["summary"]["matched"] == 2 and len(c["new"]) == 4, c' \
  "$work/cmp.json" && ok "--ignore-ranks: the C plugin's results match rank 0's, the other ranks' are new" || bad "--ignore-ranks: $(cat "$work/cmp.err")"
# The same fleet on other nodes: pairs by rank alone with --ignore-hosts.
"$python" - "$work/fleet.json" "$work/moved.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"] + d["devices"] + d["fleet"]["ranks"]:
    r["host"] = "elsewhere-%d" % r["rank"]
json.dump(d, open(sys.argv[2], "w"))
PY
out=$("$gemmhost" compare "$work/fleet.json" "$work/moved.json" 2>&1)
expect_status "compare fleets on other hosts" $? 2
expect_in "names --ignore-hosts" "$out" "--ignore-hosts pairs results by rank alone"
"$gemmhost" compare --threshold 100000 --ignore-hosts --json "$work/fleet.json" "$work/moved.json" >"$work/cmp.json" 2>"$work/cmp.err"
expect_status "compare --ignore-hosts" $? 0
"$python" -c 'import json,sys; c=json.load(open(sys.argv[1]))["comparisons"][0]; assert c["summary"]["matched"] == 6, c["summary"]' \
  "$work/cmp.json" && ok "--ignore-hosts: all 6 results paired by rank" || bad "--ignore-hosts: $(cat "$work/cmp.err")"

# A usage error is said once, by rank 0, not once per rank.
out=$(mpi "$gemmhost" --no-such-option 2>&1)
expect_status "a usage error under MPI" $? 2
[ "$(grep -c "no-such-option" <<<"$out")" = 1 ] && ok "the usage error said once" || bad "the usage error said $(grep -c "no-such-option" <<<"$out") times: $out"

# A dry run: every rank's plan, from rank 0.
out=$(mpi "$gemmhost" --config "$work/fleet.ini" --output "$work/dry" --dry-run 2>&1)
expect_status "--dry-run under MPI" $? 0
expect_in "rank 2's plan" "$out" "== rank 2 of 3"
# A rank past the job: one message from rank 0, before anything runs.
out=$(mpi "$gemmhost" --config "$work/fleet.ini" --output "$work/bad" --set vk.ranks=7 2>&1)
expect_status "ranks = 7 in a job of 3" $? 2
expect_in "names the section and the ranks" "$out" "[backend vk] ranks = 7: no such rank: the job has 3 ranks (0-2)"
[ ! -e "$work/bad.rank-0.json" ] && ok "nothing ran" || bad "a rank ran after the error"
out=$(mpi "$gemmhost" --config "$work/fleet.ini" --output "$work/bad" --set vk.hosts='no-such-node*' --dry-run 2>&1)
expect_status "a host pattern matching no rank, --dry-run" $? 2
expect_in "names the pattern and the hosts" "$out" "[backend vk] hosts = no-such-node* matches no rank's host"
# devices = local_rank on every rank, with one device (the C plugin's): ranks 1 and 2 have none of their index.
out=$(mpi "$gemmhost" --config "$work/fleet.ini" --output "$work/bad" --set c.ranks=0-2 --set c.devices=local_rank 2>&1)
expect_status "devices = local_rank past the devices there are" $? 2
expect_in "rank 0 names rank 2 and its local rank" "$out" "rank 2: --set c.devices=local_rank: [backend c] devices = local_rank: local rank 2"
[ ! -e "$work/bad.rank-0.json" ] && ok "nothing ran" || bad "a rank ran after the error"

# A single run's results at the prefix are not replaced by a fleet's PREFIX.json unless asked.
printf '[run]\nsizes = 8\ndtype = f32\ntrans = nn\nwarmup = 0\nrepeat = 1\n[backend c]\nplugin = cpu\nkernels = naive\n' >"$work/one.ini"
"$gemmhost" --config "$work/one.ini" --output "$work/single" --quiet >/dev/null 2>&1
before=$(md5sum <"$work/single.json")
out=$(mpi "$gemmhost" --config "$work/one.ini" --output "$work/single" 2>&1)
expect_status "a fleet over a single run's results" $? 2
expect_in "says what is there" "$out" "single.json holds the results of a run without MPI"
[ "$(md5sum <"$work/single.json")" = "$before" ] && ok "and leaves it whole" || bad "the single run's results changed"

# Rank 1 gets a plugin that aborts in its third gemm.
printf '[run]\nsizes = 8, 9\ndtype = f32\ntrans = nn, tn\nwarmup = 0\nrepeat = 1\n' >"$work/crash.ini"
printf '[backend c]\nplugin = cpu\nkernels = naive\nranks = 0, 2\n[backend bad]\nplugin = %s\nranks = 1\n' \
  "$abort_fake" >>"$work/crash.ini"
mpi "$gemmhost" --config "$work/crash.ini" --output "$work/crash" >"$work/out" 2>&1
expect_status "a rank's plugin crashes" $? 1
"$python" - "$work/crash.json" <<'PY' && ok "its result is crashed, the other ranks' complete" || bad "crash.json"
import json, sys
d = json.load(open(sys.argv[1]))
by = lambda r: [x["status"] for x in d["results"] if x["rank"] == r]
assert "crashed" in by(1), by(1)
assert by(0) == ["pass"] * 4 and by(2) == ["pass"] * 4, (by(0), by(2))
PY

# Ranks 0 and 2 ran the same backend, device and kernel: compare tells them apart by rank.
"$gemmhost" compare --threshold 100000 --json "$work/crash.json" "$work/crash.json" >"$work/cmp.json" 2>"$work/cmp.err"
expect_status "compare a fleet where two ranks ran one backend" $? 0
"$python" - "$work/cmp.json" "$work/crash.json" <<'PY' && ok "each rank's results matched with the same rank's" || bad "compare crash.json: $(cat "$work/cmp.err")"
import json, sys
c = json.load(open(sys.argv[1]))["comparisons"][0]
ran = [r for r in json.load(open(sys.argv[2]))["results"] if r["status"] != "cancelled"]
assert c["summary"]["matched"] == len(ran), (c["summary"], len(ran))
PY
out=$("$gemmhost" compare --ignore-ranks "$work/crash.json" "$work/crash.json" 2>&1)
expect_status "compare --ignore-ranks where two ranks ran one backend" $? 2
expect_in "says two ranks ran it" "$out" "two ranks ran it; match them rank by rank"

# Rank 2's backend cannot run (no such plugin): the fleet report says so, naming the rank; exit 3.
printf '[run]\nsizes = 8\ndtype = f32\ntrans = nn\nwarmup = 0\nrepeat = 1\n' >"$work/none.ini"
printf '[backend c]\nplugin = cpu\nkernels = naive\nranks = 0-1\n[backend gone]\nplugin = nosuch\nranks = 2\n' >>"$work/none.ini"
out=$(mpi "$gemmhost" --config "$work/none.ini" --output "$work/none" 2>&1)
expect_status "a rank whose backend cannot run" $? 3
expect_in "the fleet report names the rank" "$out" "rank 2 (" 
expect_in "and says its backend could not run" "$out" "backend gone could not run"

# Rank 2 waits in its third gemm; it is killed there.
printf '[run]\nsizes = 8, 9\ndtype = f32\ntrans = nn, tn\nwarmup = 0\nrepeat = 1\n' >"$work/kill.ini"
printf '[backend c]\nplugin = cpu\nkernels = naive\nranks = 0-1\n[backend gate]\nplugin = %s\nranks = 2\n' \
  "$gate_fake" >>"$work/kill.ini"
export GEMMHOST_FAKE_GATE=$work/gate FLEET_TEST_TAG=$work
mpi "$gemmhost" --config "$work/kill.ini" --output "$work/kill" >"$work/kill.out" 2>&1 &
job=$!
for _ in $(seq 6000); do [ -e "$work/gate.waiting" ] || ! kill -0 $job 2>/dev/null && break; sleep 0.05; done
# Ranks 0 and 1 finish their part first (their files say complete), so what the kill takes is rank 2's alone.
complete() { grep -q '"record":"end".*"complete":true' "$work/kill.rank-$1.jsonl" 2>/dev/null; }
for _ in $(seq 6000); do complete 0 && complete 1 || ! kill -0 $job 2>/dev/null && break; sleep 0.05; done
# Rank 2's own process: the gemmhost of this test with rank 2's environment that is not a plugin worker.
victim=
for p in /proc/[0-9]*; do
  env=$(tr "\\0" "\\n" 2>/dev/null <"$p/environ") || continue
  grep -qx "FLEET_TEST_TAG=$work" <<<"$env" && grep -qx "OMPI_COMM_WORLD_RANK=2" <<<"$env" || continue
  tr '\0' ' ' 2>/dev/null <"$p/cmdline" | grep -q -- "--config" && victim=${p#/proc/}
done
[ -e "$work/gate.waiting" ] && [ -n "$victim" ] && ok "rank 2 held mid-run (pid $victim)" || bad "rank 2 never reached its gate"
[ -n "$victim" ] && kill -KILL "$victim"
touch "$work/gate" # a worker left behind goes on and ends
wait $job
[ $? != 0 ] && ok "the job ends non-zero" || bad "the job ended 0 after a rank was killed"
for r in 0 1; do
  "$python" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["results"]) == 4' \
    "$work/kill.rank-$r.jsonl" 2>/dev/null || "$python" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["results"]) == 4' \
    "$work/kill.rank-$r.json" && ok "surviving rank $r's file is readable, its results there" || bad "rank $r's file"
done
out=$("$gemmhost" merge "$work/kill" 2>&1)
expect_status "merge of a job with a killed rank" $? 1
expect_in "names the rank that did not finish" "$out" "rank 2 (" 
expect_in "as unfinished" "$out" "did not finish"
rm -f "$work"/kill.rank-2.*
out=$("$gemmhost" merge "$work/kill" --output "$work/merged" 2>&1)
expect_status "merge with rank 2's files gone" $? 1
expect_in "names the missing rank" "$out" "rank 2 is missing"
"$python" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["results"]) == 8 and d["fleet"]["ranks"][2]["missing"]' \
  "$work/merged.json" && ok "merged.json: both surviving ranks' results, rank 2 missing" || bad "merged.json"
finish
