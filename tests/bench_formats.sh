#!/bin/sh
# Benchmark (not a registered test): time reading and checking the MM(5,8)
# tree of Knuth's rule (32768 codes) in each format with `mmtree stats`
# (which reads strictly: parse, then the full check against the game).
# Prints the median wall time of RUNS runs, the file size and the peak RSS.
#   sh tests/bench_formats.sh [BUILD_DIR|MMTREE [RUNS]]
set -u
mmtree=${1:-build}
[ -d "$mmtree" ] && mmtree=$mmtree/cli/mmtree   # a build directory, as the other benches take
runs=${2:-7}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

now_ns() { date +%s%N; }
case $(now_ns) in *N) echo "needs GNU date (%N)" >&2; exit 1 ;; esac

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

peak_rss() { # KiB of the largest resident set of "$@"
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1
    else
        echo "?"
    fi
}

echo "building MM(5,8) with Knuth's rule..."
"$mmtree" build -p 5 -c 8 -r knuth -q -o "$tmp/t.mmt" || exit 1
"$mmtree" build -p 5 -c 8 -r knuth -q -o "$tmp/t.xml" || exit 1
files="$tmp/t.mmt $tmp/t.xml"
# Knuth's notation once the bracket reader and writer exist.
if "$mmtree" build -p 5 -c 8 -r knuth -q -f knuth -o "$tmp/t.txt" 2>/dev/null &&
    "$mmtree" stats "$tmp/t.txt" >/dev/null 2>&1; then
    files="$files $tmp/t.txt"
else
    echo "(knuth notation skipped: no bracket reader/writer yet)"
fi

printf '%-8s %10s %12s %12s\n' format bytes "median ms" "peak RSS KiB"
for f in $files; do
    "$mmtree" stats "$f" >/dev/null || { echo "cannot read $f" >&2; exit 1; }
    i=0
    : >"$tmp/times"
    while [ "$i" -lt "$runs" ]; do
        t0=$(now_ns)
        "$mmtree" stats "$f" >/dev/null
        t1=$(now_ns)
        echo $(((t1 - t0) / 1000)) >>"$tmp/times"
        i=$((i + 1))
    done
    us=$(median <"$tmp/times")
    printf '%-8s %10d %9d.%01d %12s\n' "${f##*.}" "$(wc -c <"$f")" $((us / 1000)) \
        $((us % 1000 / 100)) "$(peak_rss "$mmtree" stats "$f")"
done
