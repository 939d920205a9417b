#!/usr/bin/env bash
# Results files written before cache, repeat = auto and batch: --resume keeps
# their results (read as warm, fixed, unbatched) and gemmhost compare reads
# them beside a new file. Usage: test_resume_old_file.sh GEMMHOST PLUGIN_DIR
set -u
gemmhost=$1 plugins=$2
. "$(dirname "$0")/../expect.sh"
cat >"$work/run.ini" <<INI
[run]
sizes = 8, 16
dtype = f32
trans = nn
plugin_dir = $plugins
[backend cpu]
plugin = cpu
kernels = naive
INI
"$gemmhost" --config "$work/run.ini" --output "$work/new" --quiet >/dev/null
expect_status "a default run" $? 0
cp "$work/new.json" "$work/old.json" && cp "$work/new.jsonl" "$work/old.jsonl" && cp "$work/new.csv" "$work/old.csv"
# The older shape: no measuring fields, and a run that did not finish.
python3 - "$work/old" <<'PY'
import json, sys
new = {"cache", "flush_bytes", "repeat_mode", "spread", "target_spread", "spread_reached", "batch", "batch_note"}
doc = json.load(open(sys.argv[1] + ".json"))
for r in doc["results"]:
    for k in new: r.pop(k)
doc["complete"] = False
json.dump(doc, open(sys.argv[1] + ".json", "w"))
lines = []
for line in open(sys.argv[1] + ".jsonl"):
    rec = json.loads(line)
    if rec["record"] == "end": continue
    if rec["record"] == "result":
        for k in new: rec["value"].pop(k)
    lines.append(json.dumps(rec) + "\n")
open(sys.argv[1] + ".jsonl", "w").write("".join(lines))
PY
before=$(python3 -c "import json; print([r['kernel_ms_median'] for r in json.load(open('$work/old.json'))['results']])")
"$gemmhost" --config "$work/run.ini" --output "$work/old" --resume --quiet >"$work/out" 2>&1
expect_status "--resume of a file from before the measuring fields" $? 0
after=$(python3 -c "
import json; d = json.load(open('$work/old.json'))
print([r['kernel_ms_median'] for r in d['results']])
print(all(r['cache'] == 'warm' and r['repeat_mode'] == 'fixed' and r['batch'] == 1 for r in d['results']))")
expect_in "its results kept, not run again" "$after" "$before"
expect_in "read as warm, fixed, unbatched" "$after" "True"
"$gemmhost" compare "$work/old.json" "$work/new.json" >"$work/cmp" 2>&1
expect_status "gemmhost compare reads an older file beside a new one" $? 0
finish
