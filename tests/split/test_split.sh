#!/usr/bin/env bash
# gemmhost end to end with [split] sections: one product over the C plugin,
# PoCL and lavapipe, streamed and resident, verified and compared; a member
# that fails mid-run; a mem_limit too small for one panel.
# Usage: test_split.sh GEMMHOST SOURCE_DIR PYTHON FAKES_DIR
set -u
gemmhost=$1 src=$2 python=$3 fakes=$4
command -v "$python" >/dev/null || python=python3  # the configured one may not exist on another machine
check="$python $src/tests/e2e/check_results.py"
. "$src/tests/expect.sh"
config=$src/config/split-cpu-pocl-lavapipe.ini

# The config's members are software devices (PoCL, lavapipe). A machine
# without them (the GPU machine has no Mesa) cannot run this test: skip,
# saying so; in CI they are installed, so there a missing one fails.
missing=$("$gemmhost" --config "$config" --dry-run 2>&1 | grep -E "matches none|has no usable device")
if [ -n "$missing" ] && [ -z "${CI:-}" ]; then
  echo "skip: this machine lacks a software device the split config needs:"
  echo "$missing" | sed 's/^/    | /'
  exit 77
fi

out=$("$gemmhost" --config "$config" --dry-run 2>&1)
expect_status "--dry-run with splits" $? 0
expect_in "--dry-run shows the split's members" "$out" "member opencl/0 (plugin opencl): kernel tiled tile=8, blocking calls"
expect_in "--dry-run shows what each device holds" "$out" "cpu/0: B streamed in 11 panels of 24 columns, 2 buffer sets"
expect_in "--dry-run counts split runs" "$out" "total: 240 runs"

# 4 sizes x 3 dtypes x 4 transposes x (3 backends + 2 splits), alpha -2, beta 3.
timeout 60 "$gemmhost" --quiet --config "$config" --output "$work/split"
expect_status "split over C, PoCL and lavapipe" $? 0
expect_ok "split: 240 rows, all pass, both splits" $check "$work/split" --rows 240 --status pass \
  --require backend=streamed --require backend=resident --require device_name="split: cpu/0 + opencl/0 + vulkan/0" \
  --distinct dtype=3 --distinct trans=4
expect_ok "split: streamed B on every device, every member took chunks, i32 agrees bit for bit" $python -c "
import json, sys
doc = json.load(open('$work/split.json'))
results = {(r['case_index'], r['backend']): r for r in doc['results']}
chunks = {}
problems = []
for s in doc['splits']:
    r = results[(s['case_index'], s['backend'])]
    big = r['m'] > 1 and r['n'] > 1
    if len(s['members']) != 3 or s['status'] != 'pass' or not s['wall_ms'] > 0:
        problems.append(('entry', s))
    for m in s['members']:
        chunks[(s['backend'], m['backend'])] = chunks.get((s['backend'], m['backend']), 0) + m['chunks']
        if s['backend'] == 'streamed' and big and not m['layout'].startswith('B streamed in'):
            problems.append(('not streamed', r['m'], r['n'], r['k'], r['dtype'], m['backend'], m['layout']))
        if s['backend'] == 'resident' and not m['layout'].startswith('B resident'):
            problems.append(('not resident', m['layout']))
        if m['error'] is not None:
            problems.append(('error', m['error']))
for key, n in chunks.items():
    if n == 0:
        problems.append(('member took no chunk in any case', key))
for a in doc['agreement']:
    if a['dtype'] == 'i32' and len(a['groups']) != 1:
        problems.append(('i32 disagreement', a))
print(len(doc['splits']), 'split entries;', 'chunks per member:', chunks)
for p in problems[:10]:
    print('problem:', p)
sys.exit(1 if problems or len(doc['splits']) != 96 else 0)"

# beta = 0: C is never uploaded, so every element must come back from a device.
timeout 60 "$gemmhost" --quiet --config "$config" --set run.beta=0 --set run.sizes=130x250x40,77x190x61 \
  --set run.dtype=f32,i32 --set run.repeat=1 --output "$work/beta0"
expect_status "split with beta = 0" $? 0
expect_ok "beta = 0: 80 rows, all pass" $check "$work/beta0" --rows 80 --status pass

# A mem_limit too small for one panel: the split errors with the sizes, the rest runs.
out=$(timeout 60 "$gemmhost" --config "$config" --set run.sizes=130x250x40 --set run.dtype=f64 --set run.trans=nn \
      --set split.streamed.mem_limit=4K --output "$work/small" 2>&1)
expect_status "mem_limit too small for one panel" $? 3
expect_in "too small: says so, with what would fit" "$out" "mem_limit 4.00 KiB is too small for one panel"
expect_ok "too small: the split is ERROR, the others pass" $check "$work/small" --rows 5 --require status=ERROR \
  --require backend=resident

# A member that fails mid-run (its third gemm call): two fakes with a call
# counter each; each runs its one standalone call, then 40 chunks between them
# make one of them fail. Reported with the plugin's words, exit 3, no hang.
printf '[run]\nsizes = 320x16x16\ndtype = f64\ntrans = nn\nwarmup = 0\nrepeat = 1\nverify = full\nplugin_dir = %s\noutput = %s/fails\n[backend third]\nplugin = fake_fail_third\n[backend third2]\nplugin = fake_fail_third\n[split pair]\nbackends = third, third2\npanel = 8\nmem_limit = 1M\n' \
  "$fakes" "$work" >"$work/fails.ini"
out=$(timeout 60 "$gemmhost" --config "$work/fails.ini" 2>&1)
expect_status "a split member failing mid-run" $? 3
expect_in "the failure names the member and the plugin's words" "$out" "simulated device lost on the third gemm"
expect_ok "the split is ERROR, the standalone runs passed" $check "$work/fails" --rows 3 --require status=ERROR \
  --require backend=pair
expect_ok "the failed member's error is in the JSON" $python -c "
import json, sys
s = json.load(open('$work/fails.json'))['splits'][0]
errors = [m['error'] for m in s['members'] if m['error']]
print(s['status'], errors)
sys.exit(0 if s['status'] == 'ERROR' and any('third gemm' in e for e in errors) else 1)"

finish
