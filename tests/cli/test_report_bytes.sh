#!/usr/bin/env bash
# The results files cost linear bytes: N and 4N tiny results (C plugin,
# sizes 1x1xK), and the bytes written to the JSON (every rewrite), the log
# and JUnit, from GEMMHOST_REPORT_STATS, stay a small multiple of the final
# files: a rewrite after every result (O(n^2)) writes hundreds of times
# their size at these counts. Bytes, not seconds: no timing is asserted.
# Usage: test_report_bytes.sh GEMMHOST SOURCE_DIR PYTHON
set -u
gemmhost=$1 src=$2 python=$3
. "$src/tests/expect.sh"
unset GEMMHOST_PLUGIN_PATH

# tiny N: a config of N results, each a 1x1xK GEMM, in $work/tiny-N.ini
tiny() { "$python" "$src/tools/tiny_config.py" "$1" "$work/tiny-$1.ini"; }

stat_of() { sed -n "s/^$2 //p" "$1"; }

for n in 250 1000; do
    tiny "$n"
    GEMMHOST_REPORT_STATS=$work/stats-$n "$gemmhost" --quiet --config "$work/tiny-$n.ini" --output "$work/r$n" \
        --junit "$work/r$n.xml" >"$work/out-$n" 2>&1
    expect_status "$n tiny results: exit status" $? 0
    s=$work/stats-$n
    expect_status "$n tiny results: the stats count them" "$(stat_of "$s" results)" "$n"
    json=$(stat -c %s "$work/r$n.json") log=$(stat -c %s "$work/r$n.jsonl") xml=$(stat -c %s "$work/r$n.xml")
    [ "$(stat_of "$s" log_bytes)" = "$log" ] && ok "$n: the log is written once ($log bytes)" ||
        bad "$n: log bytes written $(stat_of "$s" log_bytes), file $log"
    written=$(stat_of "$s" json_bytes_written) rewrites=$(stat_of "$s" json_rewrites)
    # Each checkpoint follows growth by at least a sixteenth: at most 17 times the final size in all.
    [ "$written" -le $((17 * json)) ] && ok "$n: JSON bytes written $written <= 17 x its final $json ($rewrites rewrites)" ||
        bad "$n: JSON bytes written $written, final $json: $((written / json)) times ($rewrites rewrites)"
    jw=$(stat_of "$s" junit_bytes_written)
    [ "$jw" -le $((17 * xml)) ] && ok "$n: JUnit bytes written $jw <= 17 x its final $xml" ||
        bad "$n: JUnit bytes written $jw, final $xml"
    [ "$rewrites" -lt $((n / 4)) ] && ok "$n: $rewrites JSON rewrites, not one per result" || bad "$n: $rewrites rewrites"
    eval "per_$n=$(((written + log) / n))"
done
# Bytes per result do not grow with the number of results (quadratic: 4 times).
[ "$per_1000" -le $((2 * per_250)) ] && ok "bytes per result: $per_250 at 250, $per_1000 at 1000" ||
    bad "bytes per result grew: $per_250 at 250, $per_1000 at 1000"
expect_ok "the final JSON holds every result, complete" "$python" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] is True and len(d["results"]) == 1000 and d["experiment"].startswith("fnv1a64:"), len(d["results"])
' "$work/r1000.json"

finish
