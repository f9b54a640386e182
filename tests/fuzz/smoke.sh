#!/bin/sh
# usage: smoke.sh BUILDDIR [SECONDS]
#
# Fuzz every libFuzzer binary of BUILDDIR/tests/fuzz (built only with
# clang) for SECONDS (default 10), starting from its seed corpus and
# dictionary.  New inputs go to a temporary directory; an input that
# fails is kept as BUILDDIR/fuzz-artifacts/NAME-crash-... and the log
# tail is shown.  Exit 0 when every target ran clean, or none was built.
set -u
build=$1
secs=${2:-10}
src=$(cd "$(dirname "$0")" && pwd)
status=0
ran=0
for bin in "$build"/tests/fuzz/fuzz_*; do
    [ -f "$bin" ] && [ -x "$bin" ] || continue
    name=${bin##*/fuzz_}
    corpus=$src/corpus/$name
    if [ ! -d "$corpus" ]; then
        echo "smoke: no seed corpus $corpus"
        status=1
        continue
    fi
    dict=""
    [ -f "$src/$name.dict" ] && dict="-dict=$src/$name.dict"
    work=$(mktemp -d) || exit 2
    mkdir -p "$build/fuzz-artifacts"
    echo "smoke: fuzzing $name for ${secs}s"
    # shellcheck disable=SC2086
    if "$bin" -max_total_time="$secs" -timeout=30 -rss_limit_mb=3072 -max_len=8192 \
        -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$name-" \
        $dict "$work" "$corpus" > "$work.log" 2>&1; then
        grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "$work.log"
    else
        tail -n 40 "$work.log"
        echo "smoke: $name FAILED"
        status=1
    fi
    rm -rf "$work" "$work.log"
    ran=$((ran + 1))
done
[ "$ran" -gt 0 ] || echo "smoke: no libFuzzer binary in $build/tests/fuzz (needs clang)"
exit $status
