#!/bin/sh
# The polish of a stopped search (mmtree build --polish) on one thread
# and on two, interleaved: the seconds the summary gives for the polish
# alone, medians of REPEAT runs (default 3), and the polished total, the
# same on both or the script fails.  The search stops at once, so the
# tree polished is the best one-step rule's of any guess each time.
#   sh tests/bench_polish.sh [BUILD_DIR] [P C N]
# default MM(5,7) with N = 600 (about 20 s a run on one thread).
set -u
cd "$(dirname "$0")/.."
build=${1:-build}
p=${2:-5} c=${3:-7} n=${4:-600}
mmtree=$build/cli/mmtree
repeat=${REPEAT:-3}
[ -x "$mmtree" ] || { echo "build first: ninja -C $build" >&2; exit 2; }
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.mmt"' EXIT
status=0 t1="" t2="" want=""
i=0
while [ $i -lt "$repeat" ]; do
    for j in 1 2; do
        "$mmtree" build -p "$p" -c "$c" --rule optimal -j$j --time-limit 0.001 \
            --polish "$n" -o "$tmp.mmt" 2>"$tmp"
        secs=$(sed -n 's/^mmtree: polished: .*, \([0-9.]*\) s$/\1/p' "$tmp")
        total=$(sed -n 's/^mmtree: MM.*, total \([0-9]*\),.*/\1/p' "$tmp")
        if [ -z "$secs" ] || [ -z "$total" ]; then
            echo "FAIL: -j$j: $(cat "$tmp")"
            exit 1
        fi
        [ -n "$want" ] || want=$total
        if [ "$total" != "$want" ]; then
            echo "FAIL: -j$j polished $total, the first run $want"
            status=1
        fi
        if [ $j = 1 ]; then t1="$t1 $secs"; else t2="$t2 $secs"; fi
    done
    i=$((i + 1))
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
m1=$(median $t1) m2=$(median $t2)
echo "MM($p,$c) polished with $n: total $want"
echo "one thread: $m1 s (runs:$t1)"
echo "two threads: $m2 s (runs:$t2), $(awk -v a="$m1" -v b="$m2" 'BEGIN { printf "%.2f", a / b }')x"
exit $status
