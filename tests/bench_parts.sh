#!/bin/sh
# The parts of a first guess, each solved alone (mmtree build --after,
# one thread): the work of an exact search in pieces, for planning a run
# on a cluster (README, "Running on a cluster").  Parts go smallest
# first; the first that the limit (wall seconds) stops ends the list, the
# bigger ones would take longer still.  CPU seconds are what the search
# used, whatever else the machine runs.
#   sh tests/bench_parts.sh [-b BUILD] [-t SECONDS] [-r RULE] P C GUESS
# e.g. sh tests/bench_parts.sh -t 600 5 7 11223
set -u
build=build limit=60 rule=optimal
while getopts b:t:r: o; do
    case $o in
    b) build=$OPTARG ;;
    t) limit=$OPTARG ;;
    r) rule=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || { echo "usage: $0 [-b BUILD] [-t SECONDS] [-r RULE] P C GUESS" >&2; exit 2; }
p=$1 c=$2 guess=$3
mmtree=$build/cli/mmtree
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
echo "MM($p,$c) $rule, first guess $guess: its parts alone, one thread, $limit s at most"
printf '%-8s %7s %10s %10s %10s\n' reply codes cpu-s total sets
"$mmtree" partition -p "$p" -c "$c" "$guess" |
    awk 'NR > 2 && NF == 2 && $1 ~ /^[BW-]+$/ { print $2, $1 }' |
    sort -n | while read -r n reply; do
        [ "$n" -ge 3 ] || continue
        /usr/bin/time -f "cpu %U %S" -o "$tmp" "$mmtree" build -p "$p" -c "$c" -r "$rule" \
            -j1 --after "$guess:$reply" --time-limit "$limit" > "$tmp.out" 2>&1
        cpu=$(awk '/^cpu/ { printf "%.2f", $2 + $3 }' "$tmp")
        total=$(sed -n 's/^total: *\([0-9]*\).*/\1/p' "$tmp.out" | head -1)
        sets=$(sed -n 's/.*: \([0-9]*\) sets searched.*/\1/p' "$tmp.out" | head -1)
        stopped=$(grep -c "not proven" "$tmp.out")
        rm -f "$tmp.out"
        if [ "$stopped" -gt 0 ]; then
            printf '%-8s %7s %10s %10s %10s\n' "$reply" "$n" "> $cpu" "-" "${sets:-?}"
            break
        fi
        printf '%-8s %7s %10s %10s %10s\n' "$reply" "$n" "$cpu" "${total:-?}" "${sets:-?}"
    done
