#!/bin/sh
# mmtree build --after, --extra-colors and --max-depth: the numbers of a
# position's tree, Ville's MMe, a depth cap on the optimal rules.
mmtree=$1
. "${0%/*}/../lib.sh"
field() { printf '%s\n' "$1" | sed -n "s/^$2: *//p"; }

# Knuth 1976, D: after 1122 BWW, 1213 BB his rule guesses 1145 (4 codes,
# 10 guesses from there); Neuwirth 1982 Table 7: after 1123 (3,0) the
# optimum from Irving's 6213 is 58, two more than his appendix's part J
out=$("$mmtree" build -q --after 1122:BWW,1213:BB) || fail "after: exit $?"
[ "$(field "$out" codes)" = 4 ] && [ "$(field "$out" "first guess")" = 1145 ] &&
    [ "$(field "$out" total)" = 10 ] && [ "$(field "$out" histogram)" = "0 2 2" ] ||
    fail "after 1122:BWW,1213:BB: $out"
out=$("$mmtree" build -q --rule optimal --after 1123:BBB --first 6213)
[ "$(field "$out" total)" = 58 ] || fail "Irving's 6213: $out"
# Ville 2013, Table 9: MMe(4,2) = 40 (MM(4,2): 44)
out=$("$mmtree" build -q -p 4 -c 2 --extra-colors 1 --rule optimal)
[ "$(field "$out" total)" = 40 ] && [ "$(field "$out" position)" = "3333:-" ] ||
    fail "MMe(4,2): $out"
# Koyama and Lai: 5626 within five guesses
out=$("$mmtree" build -q --rule optimal --max-depth 5 | "$mmtree" stats -)
[ "$(field "$out" total)" = 5626 ] && [ "$(field "$out" worst)" = 5 ] ||
    fail "--max-depth 5: $out"

expect 2 "needs more than 4 guesses" "$mmtree" build -q --rule optimal --max-depth 4
expect 2 "can be the code needs more than 5" "$mmtree" build -q --rule optimal-consistent --max-depth 5
expect 2 "optimal rules only" "$mmtree" build --max-depth 5
expect 2 "writes no tree" "$mmtree" build --after 1122:B -o x.txt
expect 2 "the game is over after 1122:BBBB" "$mmtree" build --after 1122:BBBB
expect 2 "no code of MM(4,6) gives the replies 1122:WWWW,1111:B" "$mmtree" build --after 1122:WWWW,1111:B
expect 2 "do not go together" "$mmtree" build --after 1122:B --extra-colors 1
expect 2 "needs 4 of them" "$mmtree" build -n --extra-colors 3
expect 2 "make more than 16" "$mmtree" build -c 15 --extra-colors 2
[ "$fails" -eq 0 ]
