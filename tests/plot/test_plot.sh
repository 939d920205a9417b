#!/usr/bin/env bash
# tools/plot.py end to end: gemmhost runs config/plot-demo.ini (C plugin, f32 and i32, two
# transposes), plot.py draws it; the pictures are checked as files (PNG header and size, SVG
# as XML with its legend and labels), then the options and bad input.
# Usage: test_plot.sh GEMMHOST SOURCE_DIR PYTHON...  (the first PYTHON with matplotlib is used)
set -u
gemmhost=$1 src=$2
shift 2
plot=$src/tools/plot.py
. "$src/tests/expect.sh"

python=
for p in "$@" python3; do
  if command -v "$p" >/dev/null && "$p" -c "import matplotlib" 2>/dev/null; then python=$p; break; fi
done
if [ -z "$python" ]; then
  # install-deps.sh installs python3-matplotlib, so in CI its absence is a failure.
  why="no python with matplotlib among: $* python3 (Debian: apt-get install python3-matplotlib)"
  [ -n "${CI:-}" ] && { echo "FAIL: $why"; exit 1; }
  echo "skip: $why"
  exit 77
fi
echo "python with matplotlib: $python"

[ "$(head -1 "$plot")" = "#!/usr/bin/env python3" ] && ok "plot.py's shebang is env python3" \
  || bad "plot.py's shebang: $(head -1 "$plot")"
[ -x "$plot" ] && ok "plot.py is executable" || bad "plot.py is not executable"

"$gemmhost" --quiet --config "$src/config/plot-demo.ini" --output "$work/demo"
expect_status "gemmhost on config/plot-demo.ini" $? 0

# check_png FILE: a PNG whose IHDR gives a plausible picture size.
check_png() {
  "$python" - "$1" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read(24)
if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
    sys.exit(f"{sys.argv[1]}: not a PNG (header {data[:16]!r})")
w, h = struct.unpack(">II", data[16:24])
print(f"{sys.argv[1]}: {w} x {h} pixels")
sys.exit(0 if 400 <= w <= 8000 and 200 <= h <= 30000 else f"implausible size {w} x {h}")
PY
}
# check_svg FILE TEXT...: parses as XML and its text holds each TEXT.
check_svg() {
  "$python" - "$@" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
text = "\n".join(t.strip() for t in root.itertext() if t.strip())
missing = [w for w in sys.argv[2:] if w not in text]
for w in missing:
    print(f"{sys.argv[1]}: no text {w!r}")
sys.exit(1 if missing or not root.tag.endswith("svg") else 0)
PY
}

out=$("$python" "$plot" "$work/demo.json" 2>&1)
expect_status "plot.py on the demo run" $? 0
for f in demo-gflops.png demo-gflops.svg demo-agreement.png demo-agreement.svg; do
  [ -s "$work/$f" ] && ok "$f written, not empty" || bad "$f missing or empty"
  expect_in "$f named on the output" "$out" "wrote $work/$f"
done
expect_ok "gflops PNG: PNG header, plausible size" check_png "$work/demo-gflops.png"
expect_ok "agreement PNG: PNG header, plausible size" check_png "$work/demo-agreement.png"
expect_ok "gflops SVG: XML with panels, legend, transposes, axis" check_svg "$work/demo-gflops.svg" \
  "f32" "i32" "cpu naive" "cpu tiled tile=8" "cpu tiled tile=32" "trans nn" "trans tn" "cube root of M*N*K"
expect_ok "agreement SVG: XML with columns, cases and diff/bound" check_svg "$work/demo-agreement.svg" \
  "cpu/0/naive" "cpu/0/tiled tile=8" "cpu/0/tiled tile=32" "f32 nn 24" "i32 tn 256" "diff/bound"

# --out, PREFIX without .json, --trans, --baseline.
out=$("$python" "$plot" "$work/demo" --out "$work/pics/new" --trans nn --baseline naive 2>&1)
expect_status "plot.py PREFIX --out --trans nn --baseline naive" $? 0
[ "$(ls "$work/pics/new" | wc -l)" = 4 ] && ok "--out: the four pictures in a new folder" \
  || bad "--out: $(ls "$work/pics/new")"
expect_ok "--trans nn --baseline naive: one transpose in the title, naive a baseline" \
  check_svg "$work/pics/new/demo-gflops.svg" "f32 (trans nn)" "cpu naive (baseline)" "cpu tiled tile=8"
# dashed_lines FILE N: N dashed lines inside the panels (clipped to them; the legend's are not).
dashed_lines() {
  "$python" - "$@" <<'PY'
import sys, xml.etree.ElementTree as ET
paths = ET.parse(sys.argv[1]).getroot().iter("{http://www.w3.org/2000/svg}path")
n = sum(1 for p in paths if "stroke-dasharray" in p.get("style", "") and p.get("clip-path"))
print(n, "dashed lines in the panels")
sys.exit(0 if n == int(sys.argv[2]) else 1)
PY
}
expect_ok "--baseline naive: dashed in both panels" dashed_lines "$work/pics/new/demo-gflops.svg" 2
expect_ok "no baseline: no dashed line" dashed_lines "$work/demo-gflops.svg" 0
if grep -q "trans tn" "$work/pics/new/demo-gflops.svg"; then bad "--trans nn still shows tn"; else ok "--trans nn: no tn"; fi
if grep -q " tn " "$work/pics/new/demo-agreement.svg"; then bad "--trans nn: tn cases in the agreement picture"
else ok "--trans nn: agreement rows only nn"; fi

# No passing result: said, the agreement picture still drawn, exit 0.
"$python" -c "
import json, sys
doc = json.load(open('$work/demo.json'))
for r in doc['results']:
    r['status'] = 'FAIL'
json.dump(doc, open('$work/failed.json', 'w'))"
expect_run "no passing result" 0 "no passing timed results" "$python" "$plot" "$work/failed.json"
expect_in "no passing result: the others counted" "$out" "left out of the GFLOP/s plot: 60 results (60 FAIL)"
[ -s "$work/failed-agreement.png" ] && [ ! -e "$work/failed-gflops.png" ] \
  && ok "no passing result: agreement drawn, GFLOP/s not" || bad "no passing result: $(ls "$work" | grep failed-)"

# Bad input: exit 2, the file and the problem named.
expect_run "missing JSON" 2 "$work/no-such.json: no such file" "$python" "$plot" "$work/no-such.json"
echo '{"rows": []}' >"$work/other.json"
expect_run "JSON not from gemmhost" 2 "$work/other.json: not a gemmhost results file" "$python" "$plot" "$work/other.json"
printf '{"gemmhost": {"version": "0.1.0"}, "results": [' >"$work/cut.json"
expect_run "truncated JSON" 2 "$work/cut.json: not JSON" "$python" "$plot" "$work/cut.json"
echo '{"gemmhost": {"version": "0.1.0"}, "results": [{"backend": "cpu"}], "agreement": []}' >"$work/thin.json"
expect_run "result without its fields" 2 "$work/thin.json: results[0] lacks case_index" "$python" "$plot" "$work/thin.json"
expect_run "bad --trans" 2 "--trans nx" "$python" "$plot" "$work/demo.json" --trans nx
# A valid file with nothing in it: nothing to draw, exit 1.
echo '{"gemmhost": {"version": "0.1.0"}, "results": [], "agreement": []}' >"$work/empty.json"
expect_run "empty run" 1 "nothing to draw from $work/empty.json" "$python" "$plot" "$work/empty.json"

# A comparison (gemmhost compare --json): the time ratios with their spread and the
# agreement heatmap across files, instead of the run's pictures.
cp "$work/demo.json" "$work/again.json"
"$gemmhost" compare --json "$work/demo.json" "$work/again.json" >"$work/cmp.json"
expect_status "gemmhost compare --json of two runs" $? 0
out=$("$python" "$plot" "$work/cmp.json" 2>&1)
expect_status "plot.py on a comparison" $? 0
expect_in "comparison: the speed picture" "$out" "wrote $work/cmp-speed.png"
expect_in "comparison: the files picture" "$out" "wrote $work/cmp-files.svg"
expect_ok "comparison speed PNG" check_png "$work/cmp-speed.png"
expect_ok "comparison speed SVG: the pair, its summary, a kernel" check_svg "$work/cmp-speed.svg" \
  "B against A" "SAME" "geometric mean ratio" "median kernel time"
expect_ok "comparison files SVG: the files, the cases, diff/bound" check_svg "$work/cmp-files.svg" \
  "A: " "B: " "diff/bound" "outputs across 2 files"

finish
