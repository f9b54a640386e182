#!/bin/sh
# trees/optima/estimate.sh: with -w its whole game is the value the
# table holds, and a first guess's parts add up to the whole: their
# codes are the game's but the winning one, and, every first guess being
# the same up to symmetry in a game without repeated colours, their
# totals and one guess a code are the game's total.  -N plays the game
# without repeated colours and says so in the colours column.
#
#   sh estimate.sh SOURCE-ROOT MMTREE
set -u
root=$1 mmtree=$2
est="$root/trees/optima/estimate.sh"
results="$root/trees/optima/results.tsv"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*" >&2; fail=1; }

# table P C R: the optimum results.tsv holds for MM(P,C), R = r or n
table() {
    awk -F'\t' -v p="$1" -v c="$2" -v r="$3" \
        '$1 == p && $2 == c && $3 == r && $4 == "optimal" && $5 == "proven" { print $6 }' "$results"
}

sh "$est" -N -w -d 1 4 5 1234 60 "$mmtree" >"$tmp/n" 2>"$tmp/err" ||
    no "estimate.sh -N failed: $(cat "$tmp/err")"
awk -F'\t' -v want="$(table 4 5 n)" '
    $2 != "5n" { print "FAIL: colours " $2 ", not 5n: " $0; bad = 1 }
    $8 != "proven" { print "FAIL: not proven: " $0; bad = 1 }
    $4 == 0 { whole = $11; codes = $6; n0++ }
    $4 == 1 { sum += $11; size += $6; n1++ }
    END {
        if (n0 != 1 || n1 < 2) { print "FAIL: " n0 " whole-game lines, " n1 " parts"; exit 1 }
        if (whole != want) { print "FAIL: whole game " whole ", results.tsv " want; bad = 1 }
        if (size != codes - 1) { print "FAIL: parts of " size " codes in a game of " codes; bad = 1 }
        if (codes + sum != whole) { print "FAIL: " codes " + parts " sum " != " whole; bad = 1 }
        exit bad
    }' "$tmp/n" || fail=1

# The game with repeated colours: its own codes and value.
sh "$est" -w -d 1 3 4 112 60 "$mmtree" >"$tmp/r" 2>"$tmp/err" ||
    no "estimate.sh failed: $(cat "$tmp/err")"
awk -F'\t' -v want="$(table 3 4 r)" '
    $2 != "4" { print "FAIL: colours " $2 ", not 4: " $0; bad = 1 }
    $4 == 0 { whole = $11; codes = $6 }
    END {
        if (codes != 64 || whole != want) { print "FAIL: whole game " codes " codes, " whole ", results.tsv " want; bad = 1 }
        exit bad
    }' "$tmp/r" || fail=1

# A resume (-R) copies the lines of its own game and runs nothing
# again; from the lines of the other game it runs every set.
sh "$est" -N -w -d 1 -R "$tmp/n" 4 5 1234 60 "$mmtree" >"$tmp/again" 2>"$tmp/err" ||
    no "estimate.sh -N -R failed: $(cat "$tmp/err")"
cmp -s "$tmp/n" "$tmp/again" || no "a resume from its own lines wrote other lines: $(diff "$tmp/n" "$tmp/again")"
sh "$est" -N -w -d 1 -R "$tmp/r" 3 4 123 60 "$mmtree" >"$tmp/nr" 2>"$tmp/err" ||
    no "estimate.sh -N -R failed: $(cat "$tmp/err")"
awk -F'\t' '$4 == 0 && $6 != 24 { print "FAIL: MM(3,4)n taken for MM(3,4): " $0; bad = 1 }
    $4 == 0 { n0++ } END { if (n0 != 1) { print "FAIL: no whole game of MM(3,4)n"; bad = 1 } exit bad }' \
    "$tmp/nr" || fail=1
[ "$fail" = 0 ] && echo "estimate.sh: whole games and their parts agree"
exit "$fail"
