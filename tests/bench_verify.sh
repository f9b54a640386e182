#!/bin/sh
# Benchmark of 'mmtree verify': a MM(4,6) tree (goal <= 10 ms)
# and a MM(5,8) tree (goal <= 1 s), each in every format the build can
# write.  Baselines in the same invocation: 'mmtree --version' (starting
# the program) and 'mmtree stats' on the same file (reading it strictly,
# which checks it, and counting; verify reads it leniently and checks it
# itself).  Prints the median of RUNS wall-clock runs in milliseconds,
# each measured around one run (so it includes the shell's fork and exec).
# Not a test: run it by hand on a quiet machine.
#
#   sh tests/bench_verify.sh [build-dir] [runs]
set -u
build=${1:-build}
runs=${2:-7}
mmtree=$build/cli/mmtree
[ -x "$mmtree" ] || { echo "no $mmtree: build first" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now_ns() { date +%s%N; }

# median_ms CMD...: run CMD $runs times, print the median in ms.
median_ms() {
    i=0
    : >"$tmp/times"
    while [ $i -lt "$runs" ]; do
        t0=$(now_ns)
        "$@" >/dev/null 2>&1
        t1=$(now_ns)
        echo $(( (t1 - t0) / 1000 )) >>"$tmp/times"
        i=$((i + 1))
    done
    sort -n "$tmp/times" | awk '{ a[NR] = $1 } END { printf "%.2f", a[int((NR + 1) / 2)] / 1000 }'
}

printf '%-10s %-6s %10s %10s %10s %10s\n' game format start_ms stats_ms verify_ms goal_ms
for game in "4 6 10" "5 8 1000"; do
    set -- $game
    p=$1 c=$2 goal=$3
    "$mmtree" build -q -p "$p" -c "$c" -f knuth -o "$tmp/t.txt" || exit 2
    for fmt in knuth xml bin; do
        f=$tmp/t.$fmt
        "$mmtree" convert "$tmp/t.txt" --format "$fmt" -o "$f" >/dev/null 2>&1 ||
            { [ $fmt = knuth ] && cp "$tmp/t.txt" "$f"; } || continue
        "$mmtree" verify "$f" >/dev/null 2>&1 || { echo "MM($p,$c) $fmt: verify fails" >&2; continue; }
        b=$(median_ms "$mmtree" --version)
        s=$(median_ms "$mmtree" stats "$f")
        v=$(median_ms "$mmtree" verify "$f")
        printf '%-10s %-6s %10s %10s %10s %10s\n' "MM($p,$c)" "$fmt" "$b" "$s" "$v" "$goal"
    done
done
