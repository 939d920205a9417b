#!/usr/bin/env bash
# Command-line filters and --dry-run as a CI check, on the C plugin alone.
# Usage: test_plan.sh GEMMHOST SOURCE_DIR PYTHON
set -u
gemmhost=$1 src=$2 python=$3
command -v "$python" >/dev/null || python=python3
. "$src/tests/expect.sh"

# rows PREFIX: "backend kernel params dtype trans m" per result line of PREFIX.csv
rows() {
  "$python" -c "
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(r['backend'], r['kernel'], r['params'] or '-', r['dtype'], r['trans'], r['m'], r['status'])" "$1.csv"
}

cat >"$work/two.ini" <<INI
[run]
sizes = 9
dtype = f32
trans = nn
repeat = 1
warmup = 0

[backend small]
plugin = cpu
kernels = naive

[backend big]
plugin = cpu
kernels = tiled
tile = 8, 16

[backend single]
plugin = cpu
threads = 1
kernels = tiled

[split both]
backends = small, single
panel = 4
INI

# --opt=value forms and the run lists from the command line
"$gemmhost" --quiet --config="$work/two.ini" --output="$work/all" --size=7x5x3 --dtype=f64,i32 --trans=tn
expect_status "--opt=value forms" $? 0
got=$(rows "$work/all")
expect_in "--size replaced the sizes" "$got" "small naive - f64 tn 7 pass"
expect_in "--dtype replaced the dtypes" "$got" "big tiled tile=16 i32 tn 7 pass"
[ "$(wc -l <<<"$got")" = 10 ] && ok "every backend and the split ran: 2 x 5 rows" || bad "expected 10 rows, got: $got"

"$gemmhost" --quiet --config "$work/two.ini" --output "$work/big" --backend big
expect_status "--backend big" $? 0
got=$(rows "$work/big")
[ "$(cut -d' ' -f1 <<<"$got" | sort -u)" = big ] && ok "--backend: only backend big ran" || bad "--backend big ran: $got"

"$gemmhost" --quiet --config "$work/two.ini" --output "$work/split" --backend both
expect_status "--backend naming a split" $? 0
got=$(rows "$work/split")
[ "$(cut -d' ' -f1 <<<"$got" | sort -u)" = both ] && ok "--backend: only the split ran (its members not alone)" ||
  bad "--backend both ran: $got"

"$gemmhost" --quiet --config "$work/two.ini" --output "$work/naive" --kernel naive
expect_status "--kernel naive" $? 0
got=$(rows "$work/naive")
[ "$(cut -d' ' -f2 <<<"$got" | sort -u)" = naive ] && ok "--kernel: only naive ran" || bad "--kernel naive ran: $got"

"$gemmhost" --quiet --output "$work/default" --backend cpu --kernel tiled --size 9 --dtype i32 --trans tn
expect_status "filters on the built-in default" $? 0
got=$(rows "$work/default")
[ "$got" = "cpu tiled tile=32 i32 tn 9 pass" ] && ok "built-in default filtered to one row" || bad "built-in default filtered: $got"

"$gemmhost" --quiet --config "$work/two.ini" --output "$work/dev" --backend big --device "0, AMD"
expect_status "--device by index and name part" $? 0

# Repeated options: the selecting ones add up, the others are refused by name.
"$gemmhost" --quiet --config "$work/two.ini" --output "$work/twice" --backend small --backend big --kernel naive \
  --kernel tiled
expect_status "--backend and --kernel given twice" $? 0
got=$(rows "$work/twice")
[ "$(cut -d' ' -f1,2 <<<"$got" | sort -u | tr '\n' ' ')" = "big tiled small naive " ] &&
  ok "repeated --backend and --kernel add up" || bad "repeated --backend and --kernel ran: $got"
out=$("$gemmhost" --config "$work/two.ini" --output "$work/a" --output "$work/b" 2>&1)
expect_status "--output given twice" $? 2
expect_in "the repeat is named" "$out" "--output is given twice; it takes one value"
out=$("$gemmhost" --config "$work/two.ini" --config "$work/two.ini" --dry-run 2>&1)
expect_status "--config given twice" $? 2
expect_in "--config twice is named" "$out" "--config is given twice"
out=$("$gemmhost" --config "$work/two.ini" --size 8 --size=9 --dry-run 2>&1)
expect_status "--size given twice" $? 2
expect_in "--size twice asks for one list" "$out" "--size is given twice; give it once, with a list"
[ ! -e "$work/a.csv" ] && [ ! -e "$work/b.csv" ] && ok "a refused repeat ran nothing" || bad "a refused repeat wrote results"

out=$("$gemmhost" --config "$work/two.ini" --backend nosuch 2>&1)
expect_status "--backend naming nothing" $? 2
expect_in "--backend: what there is" "$out" 'no [backend] or [split] section named "nosuch" (there are: small, big, single, both)'
out=$("$gemmhost" --config "$work/two.ini" --kernel fancy 2>&1)
expect_status "--kernel naming nothing" $? 2
expect_in "--kernel: the kernels there are" "$out" 'no kernel named "fancy" in the selected plugins (there are: naive, tiled, blas)'
out=$("$gemmhost" --config "$work/two.ini" --device "no such device" 2>&1)
expect_status "--device matching nothing" $? 2
expect_in "--device: nothing left to run" "$out" "leave nothing to run"
out=$("$gemmhost" --size 2>&1)
expect_status "an option without its value" $? 2
expect_in "the option is named" "$out" "--size needs a value"
out=$("$gemmhost" --list --dry-run 2>&1)
expect_status "--list with --dry-run" $? 2

# --dry-run exits as the run would, for what it can tell in advance.
"$gemmhost" --config "$work/two.ini" --dry-run >"$work/plan.txt" 2>&1
expect_status "--dry-run of a good plan" $? 0
expect_in "--dry-run estimates host memory" "$(cat "$work/plan.txt")" "host memory for 9x9x9 f32: about"
printf '[run]\nsizes = 8\n[backend gone]\nplugin = no_such_plugin\n[backend cpu]\n' >"$work/gone.ini"
out=$("$gemmhost" --config "$work/gone.ini" --dry-run 2>&1)
expect_status "--dry-run: a requested plugin missing" $? 3
expect_in "--dry-run says what cannot run" "$out" 'backend gone: cannot run: no plugin named "no_such_plugin"'
out=$("$gemmhost" --config "$work/two.ini" --set split.both.mem_limit=1K --size 64 --dry-run 2>&1)
expect_status "--dry-run: a split mem_limit too small" $? 2
expect_in "--dry-run names the fitting panel" "$out" "is too small for one panel"
out=$("$gemmhost" --config "$work/two.ini" --size 300000 --dry-run 2>&1)
expect_status "--dry-run: a case larger than host memory" $? 2
expect_in "--dry-run: bytes needed and available" "$out" "needs about"
expect_in "--dry-run: bytes available" "$out" "available ("
out=$("$gemmhost" --config "$work/two.ini" --size 300000 --output "$work/huge" 2>&1)
expect_status "a run larger than host memory is refused up front" $? 2
expect_in "the refusal names the case" "$out" "case 300000x300000x300000 f32 needs about"
[ ! -e "$work/huge.csv" ] && ok "nothing was allocated or written" || bad "a refused run wrote $work/huge.csv"
expect_in "the refusal says how to override the check" "$out" "--set run.memory_check=warn runs it anyway"
# run.memory_check = warn: the same case warns and goes on (a dry run here,
# so nothing is allocated); a value it does not know is refused, naming both.
out=$("$gemmhost" --config "$work/two.ini" --size 300000 --set run.memory_check=warn --dry-run 2>&1)
expect_status "--dry-run with run.memory_check=warn: a case larger than host memory" $? 0
expect_in "memory_check=warn: a warning naming the case, and that it runs anyway" "$out" \
  "gemmhost: warning: case 300000x300000x300000 f32 needs about"
expect_in "memory_check=warn: it says why it runs" "$out" "running anyway, as run.memory_check = warn asks"
out=$("$gemmhost" --config "$work/two.ini" --set run.memory_check=maybe --dry-run 2>&1)
expect_status "run.memory_check=maybe" $? 2
expect_in "run.memory_check=maybe: the choices" "$out" "refuse"

# A case whose host memory overflows a 64-bit byte count (the estimate once
# wrapped to "about 4.00 GiB"): refused by --dry-run and the run alike, even
# where the machine does not say how much memory it has.
printf '[run]\nsizes = 2147483647x2147483647x1073741820\ndtype = f32\ntrans = nn\n[backend cpu]\nkernels = naive\n' \
  >"$work/overflow.ini"
out=$("$gemmhost" --config "$work/overflow.ini" --output "$work/overflow" --dry-run 2>&1)
expect_status "--dry-run: a size whose memory overflows" $? 2
expect_in "--dry-run: the estimate says it is too large" "$out" "host memory for 2147483647x2147483647x1073741820 f32: more than 16 EiB"
expect_in "--dry-run: the refusal names the case and the sizes line" "$out" \
  "case 2147483647x2147483647x1073741820 f32 is too large: its host memory overflows a 64-bit byte count (more than 16 EiB), so no machine can run it; use smaller sizes (sizes: $work/overflow.ini:2)"
out=$("$gemmhost" --config "$work/overflow.ini" --output "$work/overflow" 2>&1)
expect_status "the run: a size whose memory overflows" $? 2
expect_in "the run: the same refusal" "$out" "case 2147483647x2147483647x1073741820 f32 is too large"
[ ! -e "$work/overflow.csv" ] && ok "the overflowing run wrote nothing" || bad "the overflowing run wrote $work/overflow.csv"
out=$("$gemmhost" --config "$work/overflow.ini" --output "$work/overflow" --set run.memory_check=warn 2>&1)
expect_status "the run: a size whose memory overflows, even with memory_check=warn" $? 2

# A sweep of more parameter combinations than any run could finish is refused
# before it is built.
"$python" -c "
print('[run]\nsizes = 8\n[backend cpu]\nkernels = tiled\ntile = 8')
for i in range(2501): print('  ' + ', '.join(['16'] * 40))" >"$work/sweep.ini"
out=$("$gemmhost" --config "$work/sweep.ini" --output "$work/sweep" --dry-run 2>&1)
expect_status "a sweep of more than 100000 combinations" $? 2
expect_in "the sweep refusal names the section and kernel" "$out" \
  "sweep.ini:3: [backend cpu] kernel tiled: its swept parameters give more than 100000 combinations"

# verify = none: unchecked, never pass
"$gemmhost" --quiet --config "$work/two.ini" --backend small --set run.verify=none --output "$work/none"
expect_status "verify = none runs" $? 0
[ "$(rows "$work/none" | cut -d' ' -f7 | sort -u)" = unchecked ] && ok "verify = none rows are unchecked" ||
  bad "verify = none rows: $(rows "$work/none")"

out=$("$gemmhost" --config "$work/two.ini" --output "$work/all" --dry-run 2>&1)
expect_status "--dry-run where the run would refuse to replace earlier results" $? 2
expect_in "--dry-run names the earlier results" "$out" "$work/all.json holds the results of another experiment"
"$gemmhost" --config "$work/two.ini" --output "$work/all" --overwrite --dry-run >/dev/null 2>&1
expect_status "--dry-run with --overwrite" $? 0

# f16 and bf16 through the C plugin: every transpose, odd shapes, alpha and
# beta away from 1 and 0, padded rows; each result verified and shown with
# the arithmetic it is held to.
"$gemmhost" --quiet --config "$work/two.ini" --backend small,big --dtype f16,bf16 --trans nn,nt,tn,tt \
  --size 1x1x1,37x53x29,17x13x300 --set run.alpha=1.5 --set run.beta=-0.75 --set run.ld_pad=3 --output "$work/half"
expect_status "f16 and bf16 on the C plugin" $? 0
"$python" - "$work/half.csv" <<'PY' && ok "f16/bf16: 72 rows, all pass, f32 accumulate" || bad "f16/bf16 rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = [r for r in rows if r["status"] != "pass" or r["arithmetic"] != "f32 accumulate"]
print(len(rows), "rows;", len(bad), "not passing or not f32 accumulate")
sys.exit(1 if len(rows) != 72 or bad or {r["dtype"] for r in rows} != {"f16", "bf16"} else 0)
PY

# Messages a newcomer meets: each names the right line and does not contradict itself.
printf '[run]\nsizes = 8\n[backend cpu]\nkernels = naive\ntile = 16\n' >"$work/unselected.ini"
out=$("$gemmhost" --config "$work/unselected.ini" --dry-run 2>&1)
expect_status "a parameter of a kernel the backend does not run" $? 2
expect_in "it names the kernel and the fix" "$out" "unselected.ini:5: [backend cpu] tile: a parameter of kernel tiled, which this backend does not run (kernels = naive)"
printf '[run]\nsizes = 8\n[backend cpu]\n\nthreads = -1\n' >"$work/threads.ini"
out=$("$gemmhost" --config "$work/threads.ini" --dry-run 2>&1)
expect_status "an option the plugin refuses" $? 2
expect_in "the refusal is reported at the key's line" "$out" "threads.ini:5: [backend cpu] plugin cpu refused its options"
printf '[run]\nsizes = 8\n[backend mycpu]\n' >"$work/noplugin.ini"
out=$("$gemmhost" --config "$work/noplugin.ini" --dry-run 2>&1)
expect_status "a section named like no plugin, without plugin =" $? 3
expect_in "it says the plugin defaults to the section name" "$out" "without \`plugin =\` uses its own name as the plugin name"

# A kernel parameter from --set is reported at the override, not at "--set:0".
out=$("$gemmhost" --config "$work/two.ini" --set big.tile=7 --dry-run 2>&1)
expect_status "a --set kernel parameter not allowed" $? 2
expect_in "the message names the override" "$out" \
  'gemmhost: --set big.tile=7: [backend big] tile: "7" is not allowed for kernel tiled'

# A plugin_dir that is not a folder is named in a warning; the run goes on.
printf '[run]\nsizes = 8\nplugin_dir = no-such-dir, two.ini\n[backend cpu]\nkernels = naive\n' >"$work/dirs.ini"
out=$("$gemmhost" --config "$work/dirs.ini" --output "$work/dirs" --dry-run 2>&1)
expect_status "a missing plugin_dir does not stop the run" $? 0
expect_in "the missing plugin_dir is named" "$out" \
  "gemmhost: warning: plugin_dir $work/no-such-dir: No such file or directory; no plugins are searched there"
expect_in "a plugin_dir that is a file is named" "$out" "gemmhost: warning: plugin_dir $work/two.ini is not a folder"

# A long value is echoed shortened: the reason after it is never cut off.
long=$(printf 'k%.0s' $(seq 5000))
out=$("$gemmhost" --config "$work/two.ini" --kernel "$long" --dry-run 2>&1)
expect_status "--kernel with a 5000-character name" $? 2
expect_in "the long name is shortened and the reason follows" "$out" \
  "kkk... (5000 characters): no kernel named \"kkk"
[ "${#out}" -lt 600 ] && ok "the message is short (${#out} characters)" || bad "the message has ${#out} characters"

out=$("$gemmhost" --version 2>&1)
expect_status "--version" $? 0
grep -qE "^gemmhost [0-9.]+, git commit ([0-9a-f]{12}(-dirty)?|unknown), [A-Za-z]+ build, plugin ABI [0-9]+\.[0-9]+$" <<<"$out" &&
  ok "--version names the commit and build type" || bad "--version: $out"
expect_in "--version lists the plugins found" "$out" "  plugin cpu "

# Progress on a log (stderr not a terminal): plain lines with runs done and
# repetitions inside a run; none with --quiet.
GEMMHOST_PROGRESS_INTERVAL=0 "$gemmhost" --config "$work/two.ini" --backend small --set run.repeat=20 \
  --output "$work/progress" >/dev/null 2>"$work/progress.log"
expect_status "a run with progress on a log" $? 0
log=$(cat "$work/progress.log")
expect_in "progress names the run" "$log" "gemmhost: progress 0/1 runs (0%): small/0/naive"
expect_in "progress inside a long run" "$log" "small/0/naive (repetition 20 of 20)"
expect_in "progress estimates the time left" "$log" "left: small/0/naive"
GEMMHOST_PROGRESS_INTERVAL=0 "$gemmhost" --quiet --config "$work/two.ini" --backend small --output "$work/quiet" \
  2>"$work/quiet.log" >/dev/null
grep -q "progress" "$work/quiet.log" && bad "--quiet printed progress" || ok "--quiet prints no progress"

finish
