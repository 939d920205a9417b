#!/bin/bash
# Builds the libFuzzer targets (tests/fuzz, clang, -DGEMMHOST_FUZZ=ON) in
# BUILD_DIR and runs each for SECONDS over its seed corpus (corpus/TARGET,
# left unchanged: new inputs go to a scratch folder). Exit 0 when no target
# found a crash, a leak or a hang; 77 (skip) when clang or libFuzzer is
# missing, saying which; 1 otherwise, with the target's output.
# Usage: run_fuzz.sh SOURCE_DIR BUILD_DIR SECONDS
set -u
src=$(realpath -m "$1") build=$(realpath -m "$2") seconds=$3
here=$src/tests/fuzz
clang=${CLANG:-clang}
if ! command -v "$clang" >/dev/null; then
    echo "skip: no clang here (Debian: apt-get install clang; tools/install-deps.sh does)"; exit 77
fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$probe/p.c"
if ! "$clang" -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" >"$probe/log" 2>&1; then
    echo "skip: $("$clang" --version | head -1) cannot link libFuzzer (-fsanitize=fuzzer): $(tail -1 "$probe/log")"; exit 77
fi
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if ! cmake -S "$src" -B "$build" -DCMAKE_C_COMPILER="$clang" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGEMMHOST_FUZZ=ON \
        -DGEMMHOST_PLUGINS= "${launcher[@]}" >"$probe/cmake.log" 2>&1; then
    echo "FAIL: configuring the fuzz build in $build"; cat "$probe/cmake.log"; exit 1
fi
if ! cmake --build "$build" -j "$(nproc)" --target fuzz_config fuzz_results fuzz_tune_cache >"$probe/build.log" 2>&1; then
    echo "FAIL: building the fuzz targets"; tail -40 "$probe/build.log"; exit 1
fi
failed=0
for t in fuzz_config fuzz_results fuzz_tune_cache; do
    corpus=${t#fuzz_}
    mkdir -p "$probe/new-$corpus"
    # -timeout: one input running longer is a hang; -rss_limit_mb: a blow-up.
    if (cd "$probe" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
            "$build/tests/fuzz/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
            "$probe/new-$corpus" "$here/corpus/$corpus" >"$probe/$t.log" 2>&1); then
        echo "ok: $t ran ${seconds}s over corpus/$corpus: $(grep -o 'Done [0-9]* runs' "$probe/$t.log")"
    else
        echo "FAIL: $t found a problem:"; tail -60 "$probe/$t.log"; failed=1
        ls "$probe"/crash-* "$probe"/leak-* "$probe"/timeout-* 2>/dev/null | while read -r f; do
            echo "  input: $f: $(head -c 300 "$f" | od -c | head -5)"; done
    fi
done
exit $failed
