#!/usr/bin/env bash
# --timeline FILE: a split's runs as a Chrome trace. Under isolation, two C
# members on streams and a minor-0 member on the blocking path: the file is
# valid JSON (python's json.tool), with one process per run of the split
# (warm-up and timed), a named track per member's host thread and stream,
# and uploads, GEMMs, downloads and waits on each member. A path that is
# not a regular file is refused before anything runs.
# Usage: test_timeline.sh GEMMHOST SOURCE_DIR PYTHON FAKES_DIR
set -u
gemmhost=$1 src=$2 python=$3 fakes=$4
command -v "$python" >/dev/null || python=python3
. "$src/tests/expect.sh"

cat >"$work/trio.ini" <<INI
[run]
sizes = 40x30x20, 33x17x9
dtype = f64
trans = nn
beta = 2
warmup = 1
repeat = 2
plugin_dir = $fakes
output = $work/trio
[backend cpu]
plugin = cpu
kernels = tiled
[backend cpu2]
plugin = cpu
kernels = tiled
[backend old]
plugin = fake_old_minor
[split trio]
backends = cpu, cpu2, old
panel = 8
mem_limit = 1M
INI
timeout 120 "$gemmhost" --quiet --config "$work/trio.ini" --backend trio --timeline "$work/trace.json"
expect_status "a split run with --timeline" $? 0
expect_ok "the timeline is valid JSON" $python -m json.tool "$work/trace.json"
expect_ok "the timeline: a process per run, tracks per member, every kind of span" $python - "$work/trace.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
ev = doc["traceEvents"]
procs = {e["pid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
tracks = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
spans = [e for e in ev if e["ph"] == "X"]
problems = []
# 2 cases x (1 warm-up + 2 timed runs)
if len(procs) != 6: problems.append("processes: %s" % procs)
if sum("warm-up" in p for p in procs.values()) != 2: problems.append("warm-ups: %s" % procs)
if not all(p.startswith("split trio: ") for p in procs.values()): problems.append("labels: %s" % procs)
for s in spans:
    if s["ts"] < 0 or s["dur"] < 0 or (s["pid"], s["tid"]) not in tracks: problems.append("span %s" % s)
# Which member takes which chunk varies: each run has every kind of span on
# some member, and over the whole file every member has each kind.
want = ("upload rows of A", "upload C0", "gemm", "download C")
every = {}
for pid in procs:
    mine = [s for s in spans if s["pid"] == pid]
    names = {s["name"] for s in mine}
    for w in want:
        if w not in names: problems.append("%s: no %r" % (procs[pid], w))
    if not any(s["cat"] == "wait" for s in mine): problems.append("%s: no waits" % procs[pid])
    for s in mine:
        every.setdefault(tracks[(pid, s["tid"])].split(" ")[0], set()).add(s["name"])
for member in ("cpu/0", "cpu2/0", "old/0"):
    for w in want:
        if w not in every.get(member, set()): problems.append("%s has no %r anywhere" % (member, w))
device = {tracks[(s["pid"], s["tid"])].split(" ", 1)[1] for s in spans if s["args"]["device_timed"]}
host = {tracks[(s["pid"], s["tid"])] for s in spans if not s["args"]["device_timed"]}
if not any(t.startswith("stream") for t in device): problems.append("no device-timed stream track: %s" % device)
if any(t.startswith("old/0") for t in {tracks[(s["pid"], s["tid"])] for s in spans if s["args"]["device_timed"]}):
    problems.append("the blocking member has device-timed spans")
if not any(t.startswith("old/0 host thread") for t in host): problems.append("no host-timed spans of the blocking member")
print("\n".join(problems[:10]) or "ok")
sys.exit(1 if problems else 0)
PY

out=$("$gemmhost" --quiet --config "$work/trio.ini" --backend trio --overwrite --timeline "$work" 2>&1)
expect_status "--timeline naming a folder" $? 2
expect_in "--timeline: the refusal names the option and what is there" "$out" "--timeline"
finish
