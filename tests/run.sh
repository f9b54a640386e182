#!/bin/sh
# The whole test suite: install what is missing, build, test; then the same
# with AddressSanitizer and UndefinedBehaviorSanitizer.  Exit 0 when all
# tests pass.  Results: build/meson-logs/testlog.json and build-san/...
set -u
cd "$(dirname "$0")/.."
sh tests/deps.sh || exit 2
status=0
setup() { # dir, options...
    dir=$1; shift
    if [ -f "$dir/build.ninja" ]; then
        meson setup --reconfigure "$dir" "$@" >/dev/null
    else
        meson setup "$dir" "$@" >/dev/null
    fi
}
setup build || exit 2
ninja -C build || exit 2
meson test -C build --print-errorlogs || status=1

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS="suppressions=$(pwd)/tests/lsan.supp:print_suppressions=0"
setup build-san -Dbuildtype=debugoptimized -Db_sanitize=address,undefined \
      -Db_lundef=false || exit 2
ninja -C build-san || exit 2
meson test -C build-san --print-errorlogs --timeout-multiplier 4 || status=1

# With clang: the libFuzzer targets (tests/fuzz), with the same sanitizers,
# fuzzed for a short while from their seed corpora.
if command -v clang > /dev/null 2>&1; then
    if [ -f build-fuzz/build.ninja ]; then
        meson setup --reconfigure build-fuzz > /dev/null || exit 2
    else
        CC=clang meson setup build-fuzz -Dbuildtype=debugoptimized \
            -Db_sanitize=address,undefined -Db_lundef=false > /dev/null || exit 2
    fi
    ninja -C build-fuzz || exit 2
    sh tests/fuzz/smoke.sh build-fuzz 10 || status=1
fi
exit $status
