#!/bin/sh
# Two builds of mmtree against each other on one exact search, in
# interleaved runs, so that a machine shared with other work loads both
# alike: for each, the median CPU seconds (user + system) and the median
# sets searched per CPU second, the rate that compares searches stopped
# by --time-limit; and whether the two searched the same sets and wrote
# the same summary (a change meant only to be faster must).
#   sh tests/bench_ab.sh [-n RUNS] MMTREE_A MMTREE_B BUILD-OPTIONS...
# e.g. sh tests/bench_ab.sh -n 5 old/cli/mmtree build/cli/mmtree \
#          -p 7 -c 4 --rule optimal --after 1112223:BBBWWW -j1
# Exit 1 when two finished searches differ.
set -u
runs=3
while getopts n: o; do
    case $o in
    n) runs=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 3 ] || { sed -n '8,10s/^# \{0,1\}//p' "$0" >&2; exit 2; }
a=$1 b=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one SIDE MMTREE OPTIONS...: a run; its CPU seconds and sets searched
# go to $tmp/SIDE, its summary (stdout, and stderr but the timings) to
# $tmp/SIDE.sum
one() {
    side=$1 bin=$2
    shift 2
    /usr/bin/time -f "cpu %U %S" -o "$tmp/time" "$bin" build "$@" >"$tmp/out" 2>&1
    cpu=$(awk '/^cpu/ { printf "%.2f", $2 + $3 }' "$tmp/time")
    sets=$(sed -n 's/.*: \([0-9]*\) sets searched.*/\1/p' "$tmp/out" | head -1)
    echo "$cpu ${sets:-0}" >>"$tmp/$side"
    grep -v "^mmtree: [0-9]\|, [0-9.]* s$" "$tmp/out" >"$tmp/$side.sum"
}
i=0
while [ $i -lt "$runs" ]; do
    # the two take turns at going first
    if [ $((i % 2)) -eq 0 ]; then
        one a "$a" "$@"
        one b "$b" "$@"
    else
        one b "$b" "$@"
        one a "$a" "$@"
    fi
    i=$((i + 1))
done

# report SIDE NAME: medians of CPU and of sets per CPU second
report() {
    sort -n "$tmp/$1" | awk -v name="$2" -v n="$runs" '
        { cpu[NR] = $1; sets = $2; rate[NR] = $1 > 0 ? $2 / $1 : 0 }
        END {
            m = int((n + 1) / 2)
            asort_rate()
            printf "%-40s %9.2f s CPU %12.0f sets/CPU-s  (%s sets, last run)\n",
                   name, cpu[m], r[m], sets
        }
        function asort_rate(   i, j, t) {
            for (i = 1; i <= n; i++) r[i] = rate[i]
            for (i = 2; i <= n; i++)
                for (j = i; j > 1 && r[j - 1] > r[j]; j--) { t = r[j]; r[j] = r[j - 1]; r[j - 1] = t }
        }'
}
echo "mmtree build $*: medians of $runs interleaved runs each"
report a "A $a"
report b "B $b"
if grep -q "sets searched" "$tmp/a.sum" && ! grep -q "stopped:" "$tmp/a.sum"; then
    if ! cmp -s "$tmp/a.sum" "$tmp/b.sum"; then
        echo "the two finished searches differ:"
        diff "$tmp/a.sum" "$tmp/b.sum"
        exit 1
    fi
    echo "same sets searched and summary"
fi
