#!/bin/sh
# Sample the work of an exact search: solve, one at a time on one
# thread, the sets a first guess leaves, and where a set is too big for
# the cap, the sets its own heuristic best guess leaves, a level deeper.
#
#   sh trees/optima/estimate.sh [options] P C FIRST CAP [MMTREE]
#
#   P C       pegs and colours (repeated colours; -N: none)
#   FIRST     the first guess whose parts are sampled
#   CAP       seconds each set may take (mmtree build --time-limit, on
#             the clock: on a loaded machine a set gets less CPU than
#             that; the CPU column says what it got)
#   MMTREE    the mmtree binary (default build/cli/mmtree)
#
#   -r RULE   optimal (default) | optimal-consistent | optimal-worst
#   -N        the game without repeated colours (its lines say C as Cn)
#   -d DEPTH  levels to recurse below the first guess (default 2: the
#             first guess's parts, then their parts)
#   -s SPLIT  sets of more codes than SPLIT are not tried, only split
#             (default 0: try every set first, split those not proven)
#   -n NICE   niceness of the searches (default 10)
#   -a LEVEL  split the proven sets too, at levels 1..LEVEL (default 0),
#             those of at least MIN codes (to calibrate: a set's time
#             against the sum of its parts')
#   -m MIN    see -a (default 2)
#   -t        CAP is CPU seconds (ulimit -t; the search is killed, its
#             lower bound lost): for a loaded machine
#   -R FILE   resume: a set FILE (earlier output) has a line for, proven
#             or stopped, is not run again; its line is copied
#   -w        first solve the whole game (level 0, path "-"), to
#             calibrate: its time against the sum of the parts of FIRST
#
# One line per set on stdout, tab-separated: pegs, colors (Cn: no
# repeated colours), rule, level
# (1: a part of FIRST), path, codes, the guess the set was split by (or
# "-"), status (proven | stopped | split | trivial | skipped: above
# SPLIT at the last level), CPU seconds (user + system), sets searched,
# total (the optimum, or the best tree found when stopped), proven lower
# bound, peak memory in KiB.  A set is split by the guess `mmtree
# partition --best` names for the entropy rule (the consistent one with
# -r optimal-consistent); a set of one code is "trivial" (total 1, not
# run).
#
# Needs GNU time (/usr/bin/time).  What the lines say about a whole search
# (the ratio of a whole search to the sum of its first guess's parts,
# the extrapolation of the parts too big to solve) is in README.md,
# "Running on a cluster", "Planning"; trees/optima/estimate.tsv holds the
# lines it was made from, e.g. MM(5,7)'s and a calibration:
#
#   sh trees/optima/estimate.sh -t -d 1 -s 1100 5 7 11223 100
#   sh trees/optima/estimate.sh -t -w -d 1 5 6 11223 200
#
# (on a machine to spare, drop -s and raise the cap: every part is then
# tried).  Splitting a set a level deeper (-d 2) measures less than it
# seems: a set's own search is mostly the refutation of its other
# guesses (MM(5,7)'s part of 962 codes took 60 times the sum of its
# parts), so the estimate uses the first level and extrapolates.
set -eu
usage() {
    echo "usage: estimate.sh [-r RULE] [-d DEPTH] [-s SPLIT] [-n NICE] [-a LEVEL] [-m MIN] [-t] [-R FILE] [-w] [-N] P C FIRST CAP [MMTREE]" >&2
    exit 2
}
rule=optimal depth=2 split=0 niceness=10 always=0 whole=0 min=2 cpucap=0 resume=/dev/null nr=
while getopts r:d:s:n:a:m:tR:wN o; do
    case $o in
    N) nr=-n ;;
    r) rule=$OPTARG ;;
    d) depth=$OPTARG ;;
    s) split=$OPTARG ;;
    n) niceness=$OPTARG ;;
    a) always=$OPTARG ;;
    m) min=$OPTARG ;;
    w) whole=1 ;;
    t) cpucap=1 ;;
    R) resume=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 4 ] || usage
p=$1 c=$2 first=$3 cap=$4
# the colours as the lines say them
cn=$c
[ -z "$nr" ] || cn=${c}n
mm=${5:-build/cli/mmtree}
[ -x "$mm" ] || { echo "estimate.sh: $mm: no such program" >&2; exit 2; }
co=
[ "$rule" = optimal-consistent ] && co=--consistent-only
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM

# mmtree partition of the game, with ARGS.
partition() {
    "$mm" partition -p "$p" -c "$c" $nr "$@"
}

# The parts (reply, count) that GUESS leaves after PATH ('' at the root),
# the winning reply left out.
parts() {
    if [ -n "$1" ]; then
        partition --after "$1" "$2"
    else
        partition "$2"
    fi | awk -v p="$p" 'NF == 2 && $1 ~ /^(-|[BW]+)$/ && $2 + 0 > 0 && $1 != substr("BBBBBBBB", 1, p) { print $1, $2 }'
}

# The entropy rule's guess after PATH.
best() {
    partition --after "$1" --best $co |
        sed -n 's/.* entropy \([0-9a-f]*\),.*/\1/p'
}

# Solve the set after PATH (CODES codes) at LEVEL; split it if asked.
visit() {
    path=$1 n=$2 level=$3
    if [ "$n" -eq 1 ]; then
        printf '%s\t%s\t%s\t%s\t%s\t1\t-\ttrivial\t0\t0\t1\t1\t0\n' "$p" "$cn" "$rule" "$level" "$path"
        return
    fi
    rc=0
    awk -F'\t' -v p="$p" -v c="$cn" -v r="$rule" -v path="$path" '
        $1 == p && $2 == c && $3 == r && $5 == path && ($8 == "proven" || $8 == "stopped") {
            print; st = $8 == "proven" ? 10 : 11; exit } END { exit st ? st : 1 }' "$resume" || rc=$?
    if [ "$rc" -ge 10 ]; then
        [ "$path" != - ] || return 0   # the whole game is not split
        [ "$rc" -eq 10 ] && { [ "$level" -gt "$always" ] || [ "$n" -lt "$min" ]; } && return 0
        [ "$level" -ge "$depth" ] || descend "$path" "$n" "$level"
        return 0
    fi
    if [ "$split" -gt 0 ] && [ "$n" -gt "$split" ] && [ "$level" -ge "$depth" ]; then
        printf '%s\t%s\t%s\t%s\t%s\t%s\t-\tskipped\t\t\t\t\t\n' "$p" "$cn" "$rule" "$level" "$path" "$n"
        return 0
    fi
    if [ "$split" -eq 0 ] || [ "$n" -le "$split" ] || [ "$level" -ge "$depth" ]; then
        rc=0
        if [ "$path" = - ]; then set -- -o /dev/null; else set -- --after "$path"; fi
        limit=$cap
        [ "$cpucap" -eq 0 ] || limit=$((cap * 1000))
        /usr/bin/time -f 'TIME %U %S %M' -o "$tmp/time" sh -c \
            '[ "$1" -eq 0 ] || ulimit -t "$2"; shift 2; exec "$@"' sh "$cpucap" "$cap" \
            nice -n "$niceness" "$mm" build -r "$rule" -p "$p" -c "$c" $nr "$@" -j1 \
            --time-limit "$limit" >"$tmp/out" 2>"$tmp/err" || rc=$?
        # killed at the CPU cap: stopped, with no bound
        if [ "$cpucap" -ne 0 ] && [ "$rc" -gt 128 ]; then rc=3; fi
        if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
            echo "estimate.sh: $path: mmtree exited with $rc:" >&2
            cat "$tmp/err" >&2
            exit 2
        fi
        awk -v p="$p" -v c="$cn" -v rule="$rule" -v level="$level" -v path="$path" \
            -v n="$n" -v rc="$rc" '
            FILENAME ~ /time$/ && $1 == "TIME" { cpu = $2 + $3; mem = $4 }
            FILENAME ~ /out$/ && $1 == "total:" { total = $2 }
            FILENAME ~ /err$/ && / codes, first guess / {
                for (i = 1; i < NF; i++) if ($i == "total") total = $(i + 1)
                sub(/,$/, "", total)
            }
            FILENAME ~ /err$/ && / sets searched/ {
                for (i = 1; i < NF; i++) if ($(i + 1) == "sets") sets = $i
                sub(/:$/, "", sets)
            }
            FILENAME ~ /err$/ && /proven lower bound/ {
                # the number after the words: an optimal-worst line goes
                # on with "; worst case W, at least L"
                for (i = 1; i + 2 <= NF; i++)
                    if ($i == "lower" && $(i + 1) == "bound") lower = $(i + 2)
                sub(/[,;]$/, "", lower)
            }
            END {
                if (rc == 0) lower = total
                printf "%s\t%s\t%s\t%s\t%s\t%s\t-\t%s\t%.2f\t%s\t%s\t%s\t%s\n", p, c, rule,
                    level, path, n, rc == 0 ? "proven" : "stopped", cpu, sets, total, lower, mem
            }' "$tmp/time" "$tmp/out" "$tmp/err"
        [ "$path" != - ] || return 0
        [ "$rc" -eq 0 ] && { [ "$level" -gt "$always" ] || [ "$n" -lt "$min" ]; } && return 0
        [ "$level" -ge "$depth" ] || descend "$path" "$n" "$level"
        return 0
    fi
    descend "$path" "$n" "$level"
}

descend() {
    dpath=$1 dn=$2 dlevel=$3
    g=$(best "$dpath")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\tsplit\t\t\t\t\t\n' "$p" "$cn" "$rule" "$dlevel" "$dpath" "$dn" "$g"
    # each set in a subshell: sh has no local variables
    parts "$dpath" "$g" >"$tmp/parts.$dlevel.$(echo "$dpath" | tr ':,' '._')"
    while read -r reply k; do
        (visit "$dpath,$g:$reply" "$k" $((dlevel + 1))) || exit 2
    done <"$tmp/parts.$dlevel.$(echo "$dpath" | tr ':,' '._')"
}

game=$(partition "$first")   # a bad game or guess ends here (set -e)
ncodes=$(echo "$game" | sed -n '1s/.*: \([0-9]*\) codes$/\1/p')
[ "$whole" -eq 0 ] || (visit - "$ncodes" 0) || exit 2
parts "" "$first" >"$tmp/parts.0"
while read -r reply k; do
    (visit "$first:$reply" "$k" 1) || exit 2
done <"$tmp/parts.0"
