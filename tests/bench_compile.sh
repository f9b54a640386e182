#!/bin/sh
# Benchmark of `mmtree build`: the median wall time of the whole
# process (start-up, compile, write the tree in knuth notation to
# /dev/null) over RUNS runs, measured by hyperfine without a shell, and the
# peak resident memory of one run (/usr/bin/time).  Each case runs next to
# a baseline in the same invocation: the same build with
# --no-symmetry --no-prune --threads 1 (every code scored in full at every
# node, one core), so the ratio holds on a noisy machine.
#
#   sh tests/bench_compile.sh [build-dir]      RUNS=11 by default
#
# Not a test: timings depend on the machine; the figures go into the
# closing notes of the issues.
set -eu
B=${1:-build}
MM=$B/cli/mmtree
RUNS=${RUNS:-11}
[ -x "$MM" ] || { echo "build first: $MM missing" >&2; exit 2; }
for tool in hyperfine /usr/bin/time; do
    command -v $tool >/dev/null ||
        { echo "needs $tool (Debian packages hyperfine, time)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'),"\
     "$(awk '{print "load " $1}' /proc/loadavg), $(date -u +%Y-%m-%d)"
echo "mmtree: $($MM --version); medians of $RUNS runs (baselines of MM(5,8): 3)"

# peak MiB of one run of: mmtree build ARGS
peak() {
    /usr/bin/time -f "%M" -o "$tmp/mem" "$MM" build -q -o /dev/null "$@"
    awk '{ printf "%.1f", $1 / 1024 }' "$tmp/mem"
}

printf '%-34s %10s %9s %12s %9s %7s\n' case median_s peak_MiB baseline_s base_MiB ratio
bench() { # label, baseline runs, args...
    label=$1 bruns=$2
    shift 2
    hyperfine -N -w 1 -r "$RUNS" --export-csv "$tmp/a.csv" \
        "$MM build -q -o /dev/null $*" >/dev/null 2>&1
    hyperfine -N -r "$bruns" --export-csv "$tmp/b.csv" \
        "$MM build -q -o /dev/null --no-symmetry --no-prune --threads 1 $*" >/dev/null 2>&1
    t=$(awk -F, 'NR == 2 { print $4 }' "$tmp/a.csv")
    bt=$(awk -F, 'NR == 2 { print $4 }' "$tmp/b.csv")
    m=$(peak "$@")
    bm=$(peak --no-symmetry --no-prune --threads 1 "$@")
    printf '%-34s %10.4f %9s %12.4f %9s %7.1f\n' "$label" "$t" "$m" "$bt" "$bm" \
        "$(echo "$bt $t" | awk '{ print ($2 > 0 ? $1 / $2 : 0) }')"
}

for r in naive knuth irving entropy kooi branch2 e3; do
    bench "MM(4,6) $r" "$RUNS" --rule "$r"
done
bench "MM(4,6) knuth consistent-only" "$RUNS" --rule knuth --consistent-only
bench "MM(4,10) no repeat (B&C) entropy" "$RUNS" -p 4 -c 10 -n --rule entropy
bench "MM(5,8) entropy" 3 -p 5 -c 8 --rule entropy
bench "MM(5,8) knuth" 3 -p 5 -c 8 --rule knuth
