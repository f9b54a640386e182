#!/bin/sh
# The papers' figures too slow for the test suite; not part of it.
#
#   sh tests/bench_papers.sh [BUILD_DIR]
#
# Ville 2013, Table 8: the consistent-only optima MM*(4,9), MM*(5,6),
# MM*(6,5) and MM*(5,7) (seconds to minutes each on this project's
# machine), and Table 9's conjecture checked where his table stops:
# MMe(p,c) = MM(p,c) for MM(5,4), MM(4,6), MM(4,7) and MM(5,5).  Each cell runs REPEAT times
# (default 1) and prints the median wall time; the total is checked (exit
# 1 when wrong).
set -u
cd "$(dirname "$0")/.."
build=${1:-build}
mmtree=$build/cli/mmtree
repeat=${REPEAT:-1}
[ -x "$mmtree" ] || { echo "build first: ninja -C $build" >&2; exit 2; }
status=0

# The total of a build: from the tree (through stats), or from what
# --extra-colors prints.
total_of() {
    case " $* " in
    *" --extra-colors "*) "$mmtree" build -q "$@" ;;
    *) "$mmtree" build -q "$@" | "$mmtree" stats - ;;
    esac | awk '/^total:/ {print $2}'
}

# cell WANT LABEL mmtree-build-arguments...
cell() {
    want=$1 label=$2
    shift 2
    times="" total=""
    i=0
    while [ $i -lt "$repeat" ]; do
        start=$(date +%s.%N)
        total=$(total_of "$@")
        end=$(date +%s.%N)
        times="$times $(awk -v a="$start" -v b="$end" 'BEGIN {print b - a}')"
        i=$((i + 1))
    done
    median=$(printf '%s\n' $times | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    mark=ok
    if [ "$total" != "$want" ]; then
        mark="WRONG (want $want)"
        status=1
    fi
    printf '%-10s %-44s total %7s  median %8.1f s  %s\n' "$label" "$*" "$total" "$median" "$mark"
}

echo "== Ville 2013, Table 8 (REPEAT=$repeat)"
cell 35426 "MM*(4,9)" -p 4 -c 9 --rule optimal-consistent
cell 36920 "MM*(5,6)" -p 5 -c 6 --rule optimal-consistent
cell 74140 "MM*(6,5)" -p 6 -c 5 --rule optimal-consistent
cell 86270 "MM*(5,7)" -p 5 -c 7 --rule optimal-consistent
echo "== Ville 2013, Table 9's conjecture MMe(p,c) = MM(p,c) for c >= p - 1"
cell 3954 "MMe(5,4)" -p 5 -c 4 --extra-colors 1 --rule optimal
cell 5625 "MMe(4,6)" -p 4 -c 6 --extra-colors 1 --rule optimal
cell 11228 "MMe(4,7)" -p 4 -c 7 --extra-colors 1 --rule optimal
cell 13496 "MMe(5,5)" -p 5 -c 5 --extra-colors 1 --rule optimal
exit $status
