#!/bin/sh
# Benchmark of 'mmtree assist --rule R' on MM(5,8) (32768 codes), which
# stores no tree and computes each guess from the codes still possible
# (goal: every guess within a second).  For each one-step rule: the first
# guess alone (input ended at once), the slowest second guess (the
# median of a game of one reply, over every reply to the first guess:
# the sets are largest there), and a whole game, of the first code of
# the rule's worst case.  Baseline in the same invocation: the same
# whole game played from the stored tree ('assist --tree'), which
# computes nothing.  Medians of RUNS wall-clock runs in milliseconds,
# each around one run (fork and exec included).  With 'huge', the
# entropy rule on MM(6,9) (531441 codes) too, whose tree is not built:
# its first guess, and its second after a few replies, one run each.
# Not a test: run it by hand on a quiet machine.
#
#   sh tests/bench_query.sh [build-dir] [runs] [huge]
set -u
build=${1:-build}
runs=${2:-5}
huge=${3:-}
mmtree=$build/cli/mmtree
[ -x "$mmtree" ] || { echo "no $mmtree: build first" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now_ns() { date +%s%N; }

# median_ms INPUT CMD...: feed INPUT to CMD $runs times, print the median.
median_ms() {
    input=$1
    shift
    i=0
    : >"$tmp/times"
    while [ $i -lt "$runs" ]; do
        t0=$(now_ns)
        printf '%b' "$input" | "$@" >/dev/null 2>&1
        t1=$(now_ns)
        echo $(( (t1 - t0) / 1000 )) >>"$tmp/times"
        i=$((i + 1))
    done
    sort -n "$tmp/times" | awk '{ a[NR] = $1 } END { printf "%.1f", a[int((NR + 1) / 2)] / 1000 }'
}

# game P C RULE: the rule's slowest second guess and a whole game.
game() {
    p=$1 c=$2 rule=$3
    "$mmtree" build -q -p "$p" -c "$c" --rule "$rule" -o "$tmp/t.mmt" || exit 2
    first=$(median_ms '' "$mmtree" assist -p "$p" -c "$c" --rule "$rule")
    slow=0 slow_reply=
    for r in $("$mmtree" next --json "$tmp/t.mmt" | tr '{' '\n' |
               sed -n 's/.*"reply": "\([^"]*\)".*/\1/p'); do
        [ "$r" = "$(printf '%*s' "$p" '' | tr ' ' B)" ] && continue
        t=$(median_ms "$r\n" "$mmtree" assist -p "$p" -c "$c" --rule "$rule")
        if awk "BEGIN { exit !($t > $slow) }"; then slow=$t slow_reply=$r; fi
    done
    worst=$("$mmtree" trace --worst --csv "$tmp/t.mmt" | sed -n '2s/,.*//p')
    replies=$("$mmtree" trace "$tmp/t.mmt" "$worst" | awk 'NR > 1 { printf "%s\\n", $3 }')
    n=$("$mmtree" trace "$tmp/t.mmt" "$worst" | sed -n 's/.*: \([0-9]*\) guess.*/\1/p')
    whole=$(median_ms "$replies" "$mmtree" assist -p "$p" -c "$c" --rule "$rule")
    tree=$(median_ms "$replies" "$mmtree" assist --tree "$tmp/t.mmt")
    printf '%-8s %-8s %9s %14s %-6s %9s %3s %9s\n' "MM($p,$c)" "$rule" "$first" "$slow" \
        "$slow_reply" "$whole" "$n" "$tree"
}

printf '%-8s %-8s %9s %14s %-6s %9s %3s %9s\n' game rule first_ms second_max_ms reply \
    game_ms n tree_ms
for rule in naive knuth irving entropy kooi branch2 e3; do
    game 5 8 $rule
done
if [ "$huge" = huge ]; then
    runs=1
    printf '%-8s %-8s %9s' "MM(6,9)" entropy "$(median_ms '' "$mmtree" assist -p 6 -c 9 -r entropy)"
    for r in - W WW WWW B BW BWW BB; do
        printf ' %s:%s' "$r" "$(median_ms "$r\n" "$mmtree" assist -p 6 -c 9 -r entropy)"
    done
    echo
fi
exit 0
