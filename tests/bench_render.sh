#!/bin/sh
# Benchmark for 'mmtree render': medians of RUNS wall-clock runs
# of Knuth's MM(4,6) tree, whole and three levels deep, to SVG, with a
# baseline in the same invocation: the dot program on the DOT text mmtree
# emits for the same view.  Targets: whole tree <= 2 s, depth 3 <= 0.3 s.
#
#   sh tests/bench_render.sh [BUILD_DIR [RUNS]]     (defaults: build 5)
#
# Through the command when tree files can be written and read; until then
# through tests/render/render_game, which compiles the tree in-process and
# times the rendering call alone.  Not a test: it prints numbers.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${2:-5}
mmtree=$build/cli/mmtree
helper=$build/tests/render/render_game
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
# median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# time_runs CMD...: median wall time of RUNS runs of CMD
time_runs() {
    i=0
    while [ $i -lt "$runs" ]; do
        t0=$(now)
        "$@" >/dev/null 2>&1
        t1=$(now)
        awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'
        i=$((i + 1))
    done | median
}

if "$mmtree" build -q -p 2 -c 3 2>/dev/null | "$mmtree" stats - >/dev/null 2>&1; then
    how="mmtree render (whole process: read, lay out, render, write)"
    "$mmtree" build -q -o "$work/mm46.txt"
    render() { "$mmtree" render "$work/mm46.txt" -q "$@"; }
    full=$(time_runs render -o "$work/full.svg")
    d3=$(time_runs render -d 3 -o "$work/d3.svg")
    radial=$(time_runs render -l radial -o "$work/radial.svg")
    render -o "$work/full.dot"
    render -d 3 -o "$work/d3.dot"
else
    how="render_game (tree compiled in-process; the rendering call alone)"
    full=$("$helper" -t "$runs" "$work/full.svg" 2>/dev/null)
    d3=$("$helper" -t "$runs" -d 3 "$work/d3.svg" 2>/dev/null)
    radial=$("$helper" -t "$runs" -l radial "$work/radial.svg" 2>/dev/null)
    "$helper" "$work/full.dot" 2>/dev/null
    "$helper" -d 3 "$work/d3.dot" 2>/dev/null
fi
base_full=$(time_runs dot -Tsvg -o "$work/base-full.svg" "$work/full.dot")
base_d3=$(time_runs dot -Tsvg -o "$work/base-d3.svg" "$work/d3.dot")

nodes=$(grep -c 'class="node"' "$work/full.svg")
nodes3=$(grep -c 'class="node"' "$work/d3.svg")
echo "mmtree render benchmark, MM(4,6) knuth, median of $runs runs, via $how"
printf '%-36s %8s %8s %8s\n' view nodes mmtree "dot -Tsvg"
printf '%-36s %8s %8.3f %8.3f   (target <= 2 s)\n' "whole tree, tree layout" "$nodes" "$full" "$base_full"
printf '%-36s %8s %8.3f %8.3f   (target <= 0.3 s)\n' "--depth 3, tree layout" "$nodes3" "$d3" "$base_d3"
printf '%-36s %8s %8.3f %8s\n' "whole tree, radial layout" "$nodes" "$radial" "-"
