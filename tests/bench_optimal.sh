#!/bin/sh
# Benchmark of the exact optima; not part of the test suite.
#
#   sh tests/bench_optimal.sh [BUILD_DIR] [large|huge|targets]
#
# Small cells always; "large" adds the cells of seconds to a minute
# (MM(4,7), MM*(4,7), Bulls and Cows, MM(4,8), MM(4,8) and MM(4,9) with
# their first guess fixed, MM(4,9) started from its optimal tree); "huge"
# adds the open cells (MM(5,5), MM(4,9), MM(6,4), MM(5,6)) with a time
# limit and checkpoints.
# Every cell runs REPEAT times (default 3) and the median wall time is
# shown with the sets searched and the share of candidate guesses that
# symmetry removed; the expected total is checked (exit 1 when wrong).
# Baselines (symmetry off, table off, one thread) run on small cells in the
# same invocation, so that the machine's load affects both sides alike.
# "targets" runs only the speed targets of the exact search: MM(4,9)
# optimal on both threads and on one (target 60 s), and with TARGET56=1
# MM(5,6) optimal on both threads (target 15 minutes; about an hour at
# the time of writing, so not by default).  Each runs REPEAT_TARGETS
# times (default 1).  On a loaded machine compare the user times too:
# /usr/bin/time sh tests/bench_optimal.sh build targets.
set -u
cd "$(dirname "$0")/.."
build=${1:-build}
size=${2:-small}
run=$build/tests/optimal/opt_run
repeat=${REPEAT:-3}
[ -x "$run" ] || { echo "build first: ninja -C $build" >&2; exit 2; }
status=0

# cell P C RULE WANT [options...]
cell() {
    p=$1 c=$2 rule=$3 want=$4
    shift 4
    times="" line=""
    i=0
    while [ $i -lt "$repeat" ]; do
        line=$("$run" "$p" "$c" "$rule" "$@") || { echo "FAIL: MM($p,$c) $rule $*: $line"; status=1; return; }
        t=$(printf '%s\n' "$line" | sed -n 's/.*| \([0-9.]*\) s.*/\1/p')
        times="$times $t"
        i=$((i + 1))
    done
    total=$(printf '%s\n' "$line" | sed -n 's/.*total \([0-9]*\) worst.*/\1/p')
    worst=$(printf '%s\n' "$line" | sed -n 's/.*worst \([0-9]*\) first.*/\1/p')
    nodes=$(printf '%s\n' "$line" | sed -n 's/.* nodes \([0-9]*\) .*/\1/p')
    sym=$(printf '%s\n' "$line" | sed -n 's/.*(\([0-9.]*%\) removed).*/\1/p')
    check=$(printf '%s\n' "$line" | sed -n 's/.*check \([a-z]*\) proven.*/\1/p')
    proven=$(printf '%s\n' "$line" | sed -n 's/.*proven \([01]\) lower \([0-9]*\).*/\1/p')
    lower=$(printf '%s\n' "$line" | sed -n 's/.*proven [01] lower \([0-9]*\).*/\1/p')
    median=$(printf '%s\n' $times | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    mark=ok
    [ "$proven" = 1 ] || mark="stopped, not proven: lower bound $lower"
    if { [ "$proven" = 1 ] && [ "$want" != - ] && [ "$total" != "$want" ]; } || [ "$check" != ok ]; then
        mark="WRONG (want $want)"
        status=1
    fi
    printf '%-8s %-20s %-22s total %6s worst %s  median %7s s  sets %9s  symmetry removed %6s  %s\n' \
        "MM($p,$c)" "$rule" "$*" "$total" "$worst" "$median" "$nodes" "$sym" "$mark"
}

if [ "$size" = targets ]; then
    echo "== speed targets (REPEAT_TARGETS=${REPEAT_TARGETS:=1}; wall time, median)"
    repeat=$REPEAT_TARGETS
    cell 4 9 optimal 34666 j2                # target: 60 s
    cell 4 9 optimal 34666 j1
    if [ "${TARGET56:-0}" = 1 ]; then
        cell 5 6 optimal 36721 j2            # target: 15 minutes
    fi
    exit $status
fi

echo "== small cells (REPEAT=$repeat; wall time, median)"
cell 4 6 optimal 5625
cell 4 6 optimal 5625 j1
cell 4 6 optimal 5625 value
cell 4 6 optimal 5625 cbound               # first the consistent-only optimum
cell 4 6 optimal 5625 nocache
cell 4 6 optimal-worst 5626
cell 4 6 optimal-consistent 5660
cell 3 9 optimal 3596
cell 4 5 optimal 2463
cell 6 3 optimal 2649
echo "== baselines: symmetry off (MM(3,5), MM(4,4)), against symmetry on"
cell 3 5 optimal 451
cell 3 5 optimal 451 nosym
cell 4 4 optimal 905
cell 4 4 optimal 905 nosym

if [ "$size" = large ] || [ "$size" = huge ]; then
    echo "== large cells (REPEAT_LARGE=${REPEAT_LARGE:=1})"
    repeat=$REPEAT_LARGE
    cell 5 4 optimal 3954
    cell 4 7 optimal-consistent 11362
    cell 4 7 optimal 11228
    cell 4 7 optimal 11228 j1
    cell 4 7 optimal 11228 cbound
    cell 4 10 optimal-consistent - norepeat
    cell 4 10 optimal 26274 norepeat        # Bulls and Cows: 26274 in the literature
    cell 4 8 optimal 20471                  # reported by a public solver, no paper
    # both threads: the first guess's parts shared, then the other
    # guesses (the default), against the guesses shared from the start
    # (sguesses); then with the first guess fixed, where the same is done
    # for each part after it
    cell 4 9 optimal 34666 j2
    cell 4 9 optimal 34666 j2 sguesses
    cell 4 8 optimal 20471 f1234 j2
    cell 4 8 optimal 20471 f1234 j2 sguesses
    cell 4 9 optimal 34666 f1234 j2
    cell 4 9 optimal 34666 f1234 j2 sguesses
    # the last stage of a long proof: the search started from the optimal
    # tree, where a thread that runs out of first guesses helps the other
    # one level down; on two threads and on one
    cell 4 9 optimal 34666 j2 Strees/optima/mm4-9-optimal.mmt
    cell 4 9 optimal 34666 j1 Strees/optima/mm4-9-optimal.mmt
fi
if [ "$size" = huge ]; then
    # Open cells: hours; stopped by HUGE_LIMIT seconds (default 3600) and
    # resumable from the checkpoint files left in $ckdir.
    ckdir=${CKDIR:-/tmp}
    limit=${HUGE_LIMIT:-3600}
    echo "== open cells (time limit $limit s, checkpoints in $ckdir)"
    # What this solver proved (no paper to compare with): MM(5,5) 13496
    # (as a public solver reports), MM(6,4) 17281, MM(4,9) 34666, and
    # MM(5,6) 36721 (some 50 minutes; HUGE_LIMIT=3600 and a second run
    # resuming from the checkpoint, or one run with a larger limit).
    cell 5 5 optimal 13496 "t$limit" "k$ckdir/mm55.ckpt"
    cell 6 4 optimal 17281 "t$limit" "k$ckdir/mm64.ckpt"
    cell 4 9 optimal 34666 "t$limit" "k$ckdir/mm49.ckpt"
    cell 5 6 optimal 36721 "t$limit" "k$ckdir/mm56.ckpt"
fi
exit $status
