#!/usr/bin/env bash
# Every program, plugin and test binary of the sanitizer build carries the
# runtime's default options (cmake/asan_default_options.c): a target made
# before CMakeLists.txt's link_libraries line, or linked some other way,
# would run without them and can meet the LeakSanitizer crash that
# sanitizer_lsan_dtls shows.
# Usage: test_default_options.sh BUILD_DIR
set -u
build=$1
checked=0 missing=()
while IFS= read -r -d '' f; do
  [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
  checked=$((checked + 1))
  nm -D --defined-only "$f" 2>/dev/null | grep -q ' __asan_default_options$' || missing+=("${f#"$build"/}")
done < <(find "$build" -name CMakeFiles -prune -o -type f \( -perm -u+x -o -name '*.so' \) -print0)
echo "$checked ELF files under $build"
if [ "${#missing[@]}" -gt 0 ]; then
  echo "FAIL: ${#missing[@]} lack __asan_default_options:"; printf '  %s\n' "${missing[@]}"; exit 1
fi
[ "$checked" -gt 0 ] || { echo "FAIL: found no ELF file"; exit 1; }
echo "ok: every one defines __asan_default_options"
