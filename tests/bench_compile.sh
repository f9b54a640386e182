#!/bin/sh
# Benchmark of `mmtree build` (issue 2): median wall time and peak memory
# per case over RUNS runs, each case next to a baseline run in the same
# invocation (--no-symmetry --no-prune --threads 1: every code scored in
# full at every node, one core), so the ratio holds on a noisy machine.
#
#   sh tests/bench_compile.sh [build-dir]      RUNS=5 by default
#
# Not a test: timings depend on the machine; the figures go into the
# closing notes of the issues.
set -eu
B=${1:-build}
MM=$B/cli/mmtree
RUNS=${RUNS:-5}
[ -x "$MM" ] || { echo "build first: $MM missing" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (Debian package 'time')" >&2; exit 2; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'),"\
     "$(awk '{print "load " $1}' /proc/loadavg), $(date -u +%Y-%m-%d)"
echo "mmtree: $($MM --version)"

# run ARGS...: RUNS runs; prints "median_s peak_MiB"
run() {
    i=0
    : > /tmp/mm_bench.$$
    while [ $i -lt "$RUNS" ]; do
        /usr/bin/time -f "%e %M" -o /tmp/mm_bench_one.$$ "$MM" build -q -o /dev/null "$@"
        cat /tmp/mm_bench_one.$$ >> /tmp/mm_bench.$$
        i=$((i + 1))
    done
    sort -n /tmp/mm_bench.$$ | awk -v n="$RUNS" '
        { t[NR] = $1; if ($2 > m) m = $2 }
        END { printf "%.3f %.1f", t[int((n + 1) / 2)], m / 1024 }'
    rm -f /tmp/mm_bench.$$ /tmp/mm_bench_one.$$
}

printf '%-34s %10s %9s %12s %9s %7s\n' case median_s peak_MiB baseline_s base_MiB ratio
bench() { # label, base runs, args...
    label=$1 bruns=$2
    shift 2
    set -- $(run "$@") "$@"
    t=$1 m=$2
    shift 2
    saved=$RUNS
    RUNS=$bruns
    set -- $(run --no-symmetry --no-prune --threads 1 "$@")
    RUNS=$saved
    printf '%-34s %10s %9s %12s %9s %7.1f\n' "$label" "$t" "$m" "$1" "$2" \
        "$(echo "$1 $t" | awk '{ print ($2 > 0 ? $1 / $2 : 0) }')"
}

for r in naive knuth irving entropy kooi branch2 e3; do
    bench "MM(4,6) $r" "$RUNS" --rule "$r"
done
bench "MM(4,6) knuth consistent-only" "$RUNS" --rule knuth --consistent-only
bench "MM(4,10) no repeat (B&C) entropy" "$RUNS" -p 4 -c 10 -n --rule entropy
bench "MM(5,8) entropy" 1 -p 5 -c 8 --rule entropy
bench "MM(5,8) knuth" 1 -p 5 -c 8 --rule knuth
