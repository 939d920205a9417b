#!/usr/bin/env bash
# Loader and exit-status tests against fake plugins: each broken plugin is
# reported with its path and reason, and the run's exit status says what
# happened. Usage: test_loader.sh GEMMHOST FAKE_DIR SOURCE_DIR
set -u
gemmhost=$(realpath "$1") fakes=$(realpath "$2") src=$3
. "$src/../expect.sh"

list=$(GEMMHOST_PLUGIN_PATH=$fakes "$gemmhost" --list 2>&1)
expect_status "--list succeeds with broken plugins around" $? 0
expect_in "wrong major named with both versions" "$list" "gemmhost-fake_wrong_major.so: plugin ABI major 2, host ABI 1.6: majors must match"
expect_in "missing entry symbol named" "$list" "gemmhost-fake_no_entry.so: no entry symbol gemmhost_plugin_entry"
expect_in "not a shared object: dlerror shown" "$list" "gemmhost-fake_not_elf.so: cannot load:"
expect_in "minor above the host's refused" "$list" "plugin answered ABI minor 7, above the host's 1.6"
expect_in "short function table refused" "$list" "function table is incomplete"
expect_in "failing open explained" "$list" "cannot open: simulated driver failure in open"
expect_in "no device explained" "$list" "no usable device: no FakeGPU driver installed"
expect_in "good fake plugin listed with its kernel" "$list" "kernel loop: a plain triple loop"
expect_in "an older minor loads and shows both versions" "$list" "ABI 1.0 (host 1.6)"
expect_in "the C plugin is found in the build tree" "$list" "plugin cpu:"

# with_fakes ARG...: gemmhost with the fake plugins on its search path.
with_fakes() { GEMMHOST_PLUGIN_PATH=$fakes "$gemmhost" "$@"; }

config() { # config NAME PLUGIN [EXTRA]
  printf '[run]\nsizes = 8\nrepeat = 1\nwarmup = 0\noutput = %s/%s\n\n[backend cpu]\nplugin = cpu\nkernels = naive, tiled\n\n[backend other]\nplugin = %s\n%s\n' \
    "$work" "$1" "$2" "${3:-}" >"$work/$1.ini"
  echo "$work/$1.ini"
}

expect_run "requested backend without a device" 3 "backend other could not run: plugin fake_no_device has no usable device: no FakeGPU driver installed" with_fakes --config "$(config nodev fake_no_device)"
expect_in "the other backend still ran" "$out" "2 passed"
[ -s "$work/nodev.csv" ] && ok "results of the rest are on disk" || bad "no CSV written"

expect_run "plugin whose open fails" 3 "could not be opened: simulated driver failure in open" with_fakes --config "$(config openfail fake_failing_open)"

expect_run "requested plugin with the wrong major" 3 "majors must match" with_fakes --config "$(config major fake_wrong_major)"

expect_run "requested plugin that does not exist" 3 'no plugin named "no_such_plugin" (file gemmhost-no_such_plugin.so)' with_fakes --config "$(config missing no_such_plugin)"

expect_run "a correct plugin passes beside the C plugin" 0 "agreement i32: all 2 cases identical" with_fakes --config "$(config good fake_good)" --set run.dtype=i32

out=$(GEMMHOST_PLUGIN_PATH=$fakes "$gemmhost" --config "$(config old fake_old_minor)" 2>&1)
expect_status "a minor-0 plugin runs with the minor-0 calls" $? 0

expect_run "a plugin that writes nothing fails verification" 1 "never written (still poison)" with_fakes --config "$(config noop fake_noop)"
expect_in "the agreement table splits" "$out" "2 groups"

expect_run "a plugin whose repeats differ fails" 1 "nondeterministic" with_fakes --config "$(config racy fake_racy)" --set run.repeat=3

expect_run "a plugin that writes past C fails" 1 "guard element" with_fakes --config "$(config guard fake_guard_writer)" --set run.ld_pad=2

expect_run "a plugin failing mid-run: reported, the rest goes on" 3 "simulated device lost on the third gemm" with_fakes --config "$(config third fake_fail_third)" --set run.sizes=8,9 --set run.repeat=2

# A plugin that crashes in process (--no-isolation; tests/isolation has the
# isolated runs): the host names what it was running and where the results
# so far are, then dies of the same signal. (Sanitizer builds keep their own
# report, which says more.)
out=$(GEMMHOST_PLUGIN_PATH=$fakes "$gemmhost" --no-isolation --config "$(config crash fake_crash_third)" --set run.sizes=8,9 --set run.repeat=2 2>&1)
status=$?
if grep -q "AddressSanitizer" <<<"$out"; then
  [ "$status" != 0 ] && ok "a plugin crashing mid-run: the sanitizer reports it (exit $status)" ||
    bad "a plugin crashing mid-run exited 0"
else
  expect_status "a plugin crashing mid-run: the host dies of its signal" "$status" 139
  expect_in "the crash names the backend, plugin, kernel and case" "$out" \
    "fatal signal SIGSEGV while running backend other (plugin fake_crash_third, $fakes/gemmhost-fake_crash_third.so), device 0, kernel"
  expect_in "the crash says where the results so far are" "$out" "results finished before it are kept in $work/crash.csv"
fi
[ "$(grep -c '^0,' "$work/crash.csv" 2>/dev/null)" -ge 2 ] && ok "results before the crash are on disk" ||
  bad "results before the crash are not in $work/crash.csv"

expect_run "unknown backend key" 2 "badkey.ini:13: [backend other] tilee: not an option of plugin cpu" with_fakes --config "$(config badkey cpu 'tilee = 8')"

expect_run "tile not allowed" 2 'tile: "7" is not allowed for kernel tiled (allowed: 4, 8, 16, 32, 64)' with_fakes --config "$(config badtile cpu 'tile = 7')"

expect_run "unknown kernel" 2 'has no kernel "fancy" (kernels: naive, tiled, blas)' with_fakes --config "$(config badkernel cpu 'kernels = naive, fancy')"

# The current directory is never searched by default.
cp "$fakes/gemmhost-fake_good.so" "$work/"
out=$(cd "$work" && "$gemmhost" --list 2>&1)
if grep -qF "fake_good" <<<"$out"; then bad "current directory was searched"; else ok "current directory not searched"; fi

expect_run "a kernel without i32 still runs its f32 cases" 0 "kernel loop of plugin fake_f32_only has no i32" with_fakes --config "$(config mixed fake_f32_only)" --set run.dtype=f32,i32 --verbose

# dtype = auto: each kernel runs f32, f64, i32 where it has them, else its own dtypes, so an
# f16-only (tensor-core-like) kernel gives f16 results, not unsupported rows.
expect_run "dtype = auto with an f16-only kernel" 0 "gemmhost: 14 passed, 0 failed, 0 unsupported" with_fakes --config "$(config auto fake_f16_only)" --set run.dtype=auto
expect_in "the f16-only kernel's fastest f16" "$out" "fastest f16:"
n=$(grep -c '^[0-9]*,other,fake_f16_only,.*,loop,.*,f16,.*,pass,' "$work/auto.csv")
expect_status "the f16-only kernel passed both f16 cases" "$n" 2
if grep -q ',bf16,' "$work/auto.csv"; then bad "bf16 ran though no kernel has it"; else ok "no bf16 case: no kernel has it"; fi
out=$(GEMMHOST_PLUGIN_PATH=$fakes "$gemmhost" --config "$(config autodry fake_f16_only)" --set run.dtype=auto --dry-run 2>&1)
expect_in "--dry-run counts the cases some kernel runs" "$out" "plan: 8 cases (1 sizes x 4 dtypes (auto: f32, f64, i32, f16) x 2 transposes)"
expect_in "--dry-run shows each kernel's dtypes" "$out" "backend other (plugin fake_f16_only): 2 runs on 1 device(s): loop (f16)"
expect_run "a listed dtype the kernel lacks is still unsupported (exit 0: not named)" 0 "0 failed, 2 unsupported" with_fakes --config "$(config listed fake_f16_only)" --set run.dtype=f32
# The built-in default uses dtype = auto (only the f16 fake besides the build tree's plugins).
mkdir -p "$work/f16only" && cp "$fakes/gemmhost-fake_f16_only.so" "$work/f16only/"
out=$(cd "$work" && GEMMHOST_PLUGIN_PATH=$work/f16only "$gemmhost" --dry-run 2>&1)
expect_in "the built-in default runs the f16-only kernel's f16" "$out" "backend fake_f16_only (plugin fake_f16_only): 10 runs on 1 device(s): loop (f16)"

# Only a kernel named in `kernels` (or --kernel) that runs no case makes exit 3.
out=$(GEMMHOST_PLUGIN_PATH=$fakes "$gemmhost" --config "$(config unnamed fake_f32_only)" --set run.dtype=i32 2>&1)
expect_status "a kernel that only came with its plugin and can run no case" $? 0
expect_run "a requested kernel that can run no case" 3 "backend other: kernel loop never ran on device 0: no case ran" with_fakes --config "$(config never fake_f32_only 'kernels = loop')" --set run.dtype=i32

# ---- plugin lookup: the same plugin reached twice, and plugins named by path
plugins=$(dirname "$gemmhost")/plugins
cpu_so=$plugins/gemmhost-cpu.so
mkdir -p "$work/copy" "$work/cfgdir"
cp "$cpu_so" "$work/copy/"

# no_self_shadow NAME OUTPUT: no plugin is reported shadowed by its own file
no_self_shadow() {
  local selves
  selves=$(sed -n 's/^  NOT LOADED: \(.*\): not loaded, shadowed by \(.*\) found earlier.*/\1 \2/p' <<<"$2" |
    awk '$1 == $2')
  if [ -n "$selves" ]; then bad "$1: a plugin shadows itself: $selves"; else ok "$1: no plugin shadows itself"; fi
}

out=$(GEMMHOST_PLUGIN_PATH="$plugins:$plugins/../plugins" "$gemmhost" --list 2>&1)
expect_status "the build tree's folder, spelled twice in GEMMHOST_PLUGIN_PATH: --list" $? 0
no_self_shadow "the same folder twice" "$out"
[ "$(grep -c '^plugin cpu:' <<<"$out")" = 1 ] && ok "the same folder twice: cpu listed once" ||
  bad "the same folder twice: cpu listed $(grep -c '^plugin cpu:' <<<"$out") times"

out=$(cd "$(dirname "$gemmhost")" && GEMMHOST_PLUGIN_PATH=plugins ./"$(basename "$gemmhost")" --list 2>&1)
expect_status "GEMMHOST_PLUGIN_PATH relative to the working directory: --list" $? 0
no_self_shadow "a relative GEMMHOST_PLUGIN_PATH" "$out"

expect_run "a folder holding a copy of the cpu plugin: --list" 0 "plugin cpu: $work/copy/gemmhost-cpu.so" env GEMMHOST_PLUGIN_PATH="$work/copy" "$gemmhost" --list
expect_in "the build tree's cpu plugin is shadowed by the copy" "$out" "gemmhost-cpu.so: not loaded, shadowed by $work/copy/gemmhost-cpu.so"

printf '[run]\nsizes = 8\nrepeat = 1\nwarmup = 0\nplugin_dir = copy\noutput = %s/pdir\n[backend cpu]\n' "$work" >"$work/pdir.ini"
out=$("$gemmhost" --config "$work/pdir.ini" 2>&1)
expect_status "plugin_dir (relative to the config file) holding a copy of a plugin" $? 0
grep -q "^[0-9]*,cpu,cpu," "$work/pdir.csv" 2>/dev/null && ok "plugin_dir: the cpu backend ran" || bad "plugin_dir: no cpu rows"

# A backend by name, then one by path to the same file and to a copy: each
# loads (the user asked for that file), none is refused as shadowed.
printf '[run]\nsizes = 8\ndtype = f32\ntrans = nn\nrepeat = 1\nwarmup = 0\noutput = %s/bypath\n[backend b1]\nplugin = cpu\nkernels = naive, tiled\n[backend b2]\nplugin = %s\nkernels = naive, tiled\n[backend b3]\nplugin = ../copy/gemmhost-cpu.so\nkernels = naive, tiled\n' \
  "$work" "$cpu_so" >"$work/cfgdir/bypath.ini"
expect_run "plugins by name and by path: --dry-run" 0 "backend b2 (plugin cpu)" "$gemmhost" --config "$work/cfgdir/bypath.ini" --dry-run
expect_in "by path, relative to the config file: a copy is planned" "$out" "backend b3 (plugin cpu)"
out=$("$gemmhost" --config "$work/cfgdir/bypath.ini" 2>&1)
expect_status "plugins by name and by path: run" $? 0
[ "$(grep -c '^[0-9]*,b[123],cpu,' "$work/bypath.csv" 2>/dev/null)" = 6 ] && ok "by path: 3 backends x 2 kernels ran" ||
  { bad "by path: expected 6 rows"; sed 's/^/    | /' "$work/bypath.csv"; }

# A plugin named by path after discovery is the one a crash names.
printf '[run]\nsizes = 8, 9\nrepeat = 2\nwarmup = 0\noutput = %s/crash2\n[backend cpu]\nplugin = cpu\n[backend other]\nplugin = %s\n' \
  "$work" "$fakes/gemmhost-fake_crash_third.so" >"$work/crash2.ini"
out=$("$gemmhost" --no-isolation --config "$work/crash2.ini" 2>&1)
status=$?
if grep -q "AddressSanitizer" <<<"$out"; then
  grep -q "heap-use-after-free" <<<"$out" && bad "crash by path: use after free" || ok "crash by path: the sanitizer reports the plugin's fault (exit $status)"
else
  expect_status "crash in a plugin named by path" "$status" 139
  expect_in "the crash names the plugin named by path" "$out" "(plugin fake_crash_third, $fakes/gemmhost-fake_crash_third.so)"
fi

finish
