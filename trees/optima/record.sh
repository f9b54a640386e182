#!/bin/sh
# Put a computed tree into the table of exact optima: copy it to
# trees/optima/ under its cell's name and write its line in results.tsv
# (replacing the cell's line if there is one).  Then remake the table:
# sh trees/optima/table.sh > docs/optima.md
#
#   sh trees/optima/record.sh MMTREE TREE SECONDS THREADS [LOWER]
#
# TREE is a binary tree (.mmt) that 'mmtree build --rule optimal...' wrote;
# SECONDS (one number: user + system time) and THREADS say what it took.
# A tree the search did not prove optimal is recorded as stopped, with its
# proven lower bound (the total; for optimal-worst, the worst case): from
# the tree's own provenance when it has one, else LOWER.
set -eu
[ $# -ge 4 ] || { sed -n '2,13s/^# \{0,1\}//p' "$0" >&2; exit 2; }
mmtree=$1 tree=$2 seconds=$3 threads=$4 lower=${5:-}
# number WHAT VALUE: refuse anything but one decimal number (a run's time
# taken from a file of two lines once came out as "0.00402.12")
number() {
    case $2 in
    '' | .* | *[!0-9.]* | *.*.*) echo "record.sh: $1 '$2' is not a number" >&2; exit 2 ;;
    esac
}
number seconds "$seconds"
number threads "$threads"
[ -z "$lower" ] || number lower "$lower"
dir=$(cd "$(dirname "$0")" && pwd)
json=$("$mmtree" stats --json "$tree")
"$mmtree" verify "$tree" >/dev/null

# field KEY: a number, string or array value of the one-line JSON object
field() {
    printf '%s\n' "$json" | sed -n "s/.*\"$1\": \(\"[^\"]*\"\|\[[^]]*\]\|[^,}]*\).*/\1/p" |
        tr -d '"[] '
}
pegs=$(field pegs) colors=$(field colors) rule=$(field rule)
case $(field repeat) in true) rep=r ;; *) rep=n ;; esac
case $rule in
optimal) obj=optimal ;;
optimal-consistent) obj=consistent ;;
optimal-worst) obj=worst ;;
*) echo "record.sh: $tree: rule '$rule' is not an optimal rule" >&2; exit 2 ;;
esac
[ "$(field consistent_only)" = false ] || { echo "record.sh: $tree: built with --consistent-only" >&2; exit 2; }
total=$(field total) worst=$(field worst) hist=$(field histogram) first=$(field first)
status=proven
if [ "$(field proven)" = false ] || [ -n "$lower" ]; then
    status=stopped
    if [ -z "$lower" ]; then
        if [ $obj = worst ]; then lower=$(field worst_lower_bound); else lower=$(field lower_bound); fi
    fi
    [ -n "$lower" ] || { echo "record.sh: $tree: not proven, and no lower bound given" >&2; exit 2; }
else
    if [ $obj = worst ]; then lower=$worst; else lower=$total; fi
fi
suffix=""
[ $rep = r ] || suffix=n
name=mm$pegs-$colors$suffix-$obj.mmt
cp "$tree" "$dir/$name.tmp" && mv "$dir/$name.tmp" "$dir/$name"

line=$(printf '%s\t' "$pegs" "$colors" "$rep" "$rule" "$status" "$total" "$worst" "$hist" \
    "$first" "$lower" "$seconds")
line="$line$threads"
tab=$(printf '\t')
{
    grep '^#' "$dir/results.tsv"
    {
        grep -v '^#' "$dir/results.tsv" |
            awk -F'\t' -v p="$pegs" -v c="$colors" -v r="$rep" -v u="$rule" \
                '!($1 == p && $2 == c && $3 == r && $4 == u)'
        printf '%s\n' "$line"
    } | sort -t "$tab" -k3,3r -k1,1n -k2,2n -k4,4
} > "$dir/results.tsv.tmp"
mv "$dir/results.tsv.tmp" "$dir/results.tsv"
echo "$name: $status, total $total, worst $worst"
