#!/usr/bin/env bash
# Splits under isolation: each member device in a worker of its own (two
# members of one plugin included), the product's host matrices shared; a
# minor-0 member (no streams, no host_alloc) on the blocking path; a member
# that crashes makes the split's result crashed, then the next case runs in
# a fresh worker, until the split is given up.
# Usage: test_split.sh GEMMHOST SOURCE_DIR PYTHON FAKES_DIR
set -u
gemmhost=$1 src=$2 python=$3 fakes=$4
command -v "$python" >/dev/null || python=python3
check="$python $src/tests/e2e/check_results.py"
. "$src/tests/expect.sh"

# 2 sizes x 2 dtypes x 2 transposes; cpu and cpu2 (2 kernels each), old (1)
# and the split: 8 x 6 = 48 rows, alpha and beta not trivial.
cat >"$work/trio.ini" <<INI
[run]
sizes = 13x10x7, 8x9x10
dtype = f32, f64
trans = nn, tt
alpha = -2
beta = 3
warmup = 0
repeat = 2
plugin_dir = $fakes
output = $work/trio
[backend cpu]
plugin = cpu
kernels = naive, tiled
[backend cpu2]
plugin = cpu
kernels = naive, tiled
[backend old]
plugin = fake_old_minor
[split trio]
backends = cpu, cpu2, old
panel = 4
mem_limit = 1M
INI
timeout 120 "$gemmhost" --quiet --config "$work/trio.ini"
expect_status "a split over two C members and a minor-0 one, isolated" $? 0
expect_ok "trio: 48 rows, all pass, the split among them" $check "$work/trio" --rows 48 --status pass --require backend=trio
expect_ok "trio: every member took chunks; the C members streamed, the minor-0 one did not" $python - "$work/trio.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
chunks, streams = {}, {}
for s in doc["splits"]:
    for m in s["members"]:
        chunks[m["backend"]] = chunks.get(m["backend"], 0) + m["chunks"]
        streams[m["backend"]] = m["streams"]
print("chunks:", chunks, "streams:", streams)
ok = len(doc["splits"]) == 8 and all(chunks.get(b, 0) > 0 for b in ("cpu", "cpu2", "old"))
ok = ok and streams == {"cpu": True, "cpu2": True, "old": False}
sys.exit(0 if ok else 1)
PY

# A split whose only member crashes on its third gemm call: 16 rows in
# chunks of 4 is 4 calls a case, so each case crashes its worker; after
# three the split is given up. The C plugin beside it passes every case.
cat >"$work/solo.ini" <<INI
[run]
sizes = 16x8x8, 16x9x9, 16x10x10, 16x11x11
dtype = f64
trans = nn
warmup = 0
repeat = 1
plugin_dir = $fakes
output = $work/solo
[backend cpu]
plugin = cpu
kernels = naive, tiled
[backend bad]
plugin = fake_crash_third
[split solo]
backends = bad
panel = 4
mem_limit = 1M
INI
timeout 120 "$gemmhost" --config "$work/solo.ini" --backend cpu,solo >"$work/solo.out" 2>&1
expect_status "a split whose member crashes" $? 1
expect_in "solo: the member ran in a worker of its own (its stderr is labelled split/backend/device)" \
  "$(cat "$work/solo.out")" "[solo/bad/0] "
expect_ok "solo: 12 rows on disk, complete" $check "$work/solo" --rows 12 --require backend=solo
expect_ok "solo: crashed three times with the member's words, then given up; the C plugin passed all" $python - "$work/solo" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1] + ".csv")))
doc = json.load(open(sys.argv[1] + ".json"))
split = [r for r in rows if r["backend"] == "solo"]
cpu = [r for r in rows if r["backend"] == "cpu"]
print([r["status"] for r in split], [r["detail"][:120] for r in split])
ok = [r["status"] for r in split] == ["crashed"] * 3 + ["ERROR"]
ok = ok and all("during gemm (device 0, kernel 0, 4x" in r["detail"] for r in split[:3])
ok = ok and "given up after 3" in split[3]["detail"]
ok = ok and any("split solo given up after 3" in n for n in doc["notes"])
ok = ok and len(cpu) == 8 and all(r["status"] == "pass" for r in cpu)
sys.exit(0 if ok else 1)
PY
finish
