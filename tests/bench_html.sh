#!/bin/sh
# Benchmark for the HTML view: the page of the MM(5,8) entropy tree
# (32768 codes, 34,824 nodes; tests/render/mm58-entropy.mmt) in headless
# Chromium, medians of RUNS runs, with a baseline in the same invocation:
# Chromium on an empty page, which is the browser's own start-up.
# Target: the page opens within 3 s.  Not a test: it prints numbers.
#
#   sh tests/bench_html.sh [BUILD_DIR [RUNS]]     (defaults: build 5)
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${2:-5}
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || { echo "chromium is not installed (tests/deps.sh)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# dump URL: the DOM of URL after its scripts ran, in a fresh profile
dump() {
    rm -rf "$work/profile"
    "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$work/profile" --dump-dom "$1" 2>/dev/null
}
# time_runs URL: median wall time of RUNS dumps; the page's own times
# (data-load-ms: from its script's start to the tree shown) in $work/ms
time_runs() {
    : >"$work/ms"
    i=0
    while [ $i -lt "$runs" ]; do
        t0=$(now)
        dump "$1" >"$work/dom"
        t1=$(now)
        sed -n 's/.*data-load-ms="\([0-9]*\)".*/\1/p' "$work/dom" >>"$work/ms"
        awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'
        i=$((i + 1))
    done | median
}

"$build/cli/mmtree" render tests/render/mm58-entropy.mmt -o "$work/mm58.html"
echo '<!DOCTYPE html><html><body></body></html>' >"$work/empty.html"
bytes=$(wc -c <"$work/mm58.html")
base=$(time_runs "file://$work/empty.html")
page=$(time_runs "file://$work/mm58.html#code=64738")
script=$(median <"$work/ms")
echo "HTML view benchmark, MM(5,8) entropy, median of $runs runs"
printf 'page size          %8d bytes, %.2f bytes a code\n' "$bytes" "$(echo "$bytes" | awk '{ print $1 / 32768 }')"
printf 'chromium, empty    %8.3f s\n' "$base"
printf 'chromium, the page %8.3f s   (target <= 3 s; #code=64738 opens 8 levels)\n' "$page"
printf "the page's script  %8.3f s   (decode, summary, rows, search)\n" "$(echo "$script" | awk '{ print $1 / 1000 }')"
