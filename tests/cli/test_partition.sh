#!/bin/sh
# mmtree partition and build --tie-break: Kooi's Table 1 and Neuwirth's
# Table 2 row for 6R through the command, its JSON, and bad usage.
mmtree=$1
. "${0%/*}/../lib.sh"

# Kooi 2005, Table 1, the column of AABC (1123): the (0,0) part has 81
# codes, (0,2) 222, (1,1) 230; 14 parts, the largest 276.
out=$("$mmtree" partition 1111 1112 1122 1123 1234) || fail "partition: exit $?"
row() { printf '%s\n' "$out" | awk -v r="$1" '$1 == r { $1 = ""; print substr($0, 2) }'; }
[ "$(row -)" = "625 256 256 81 16" ] || fail "row '-': $(row -)"
[ "$(row WW)" = "0 61 96 222 312" ] || fail "row WW: $(row WW)"
[ "$(row BW)" = "0 156 208 230 252" ] || fail "row BW: $(row BW)"
[ "$(row parts)" = "5 11 13 14 14" ] || fail "parts: $(row parts)"
[ "$(row largest)" = "625 317 256 276 312" ] || fail "largest: $(row largest)"
[ "$(row entropy)" = "1.4984 2.6934 2.8851 3.0437 3.0567" ] || fail "entropy: $(row entropy)"
[ "$(row branch2)" = "4.4507 2.9487 2.7665 2.4091 2.5929" ] || fail "branch2: $(row branch2)"

# A large game: branch2's profile and the partitions' shapes are counted
# by classes of codes (colours the set cannot tell apart), so MM(6,8)
# (262144 codes) answers in a second where scoring every code took
# hours.  The profile of 112233 is the 56 x 90 codes of its pattern, of
# 111111 the 8 of one colour, of 123456 the 8!/2! with six colours; the
# root's shapes are the 11 partitions of 6 pegs by colour.
json=$("$mmtree" partition -p 6 -c 8 112233 111111 123456 --shapes --json)
profiles=$(printf '%s' "$json" | grep -o '"profile": [0-9]*' | tr -dc '0-9 \n' | tr '\n' ' ')
[ "$profiles" = " 5040  8  20160 " ] || fail "MM(6,8) profiles: $profiles"
printf '%s' "$json" | grep -q '"shapes": 11' || fail "MM(6,8) shapes: $json"

# Knuth 1976: after 1122 B, 1344 W, 3526 BWW seven codes; every rule but
# naive and e3 picks his 1462
out=$("$mmtree" partition --after 1122:B,1344:W,3526:BWW --best)
printf '%s\n' "$out" | grep -q "^MM(4,6) after 1122:B,1344:W,3526:BWW: 7 codes$" ||
    fail "after: $out"
printf '%s\n' "$out" | grep -q "knuth 1462, irving 1462, entropy 1462, kooi 1462" ||
    fail "best: $out"

# Neuwirth 1982, Table 2, 6R: 3.8472 and 4 from C0, 4.0093 and 5 from C1
json=$("$mmtree" partition --bounds --json)
for kv in '"answers": 14' '"total": 4986' '"worst": 4' '"step_total": 5196' '"step_worst": 5' \
          '"step_total_guess": "1123"'; do
    printf '%s' "$json" | grep -q "$kv" || fail "bounds json lacks $kv: $json"
done
# Kooi 2005, s5: after AABB (1,0) the guesses make 34 different partitions
"$mmtree" partition --after 1122:B --shapes | grep -q ": 34$" || fail "shapes"

# --tie-break: Kooi's last-code most parts, 5667 (first: 5668)
total() { "$mmtree" stats --json - | sed 's/.*"total": \([0-9]*\).*/\1/'; }
t=$("$mmtree" build -q --rule kooi --tie-break last | total)
[ "$t" = 5667 ] || fail "kooi --tie-break last: $t"
t=$("$mmtree" build -q -c 7 --rule e3 --tie-break inconsistent-first | total)
[ "$t" = 11421 ] || fail "e3 7R inconsistent-first: $t"

expect 2 "give a guess" "$mmtree" partition
expect 2 "'1177' is not a code" "$mmtree" partition 1177
expect 2 "no code of MM(4,6) gives the replies 1122:WWWW,1111:B" "$mmtree" partition --after 1122:WWWW,1111:B,1234:- 1234
expect 2 "'BBBW' is not a reply" "$mmtree" partition --after 1122:BBBW 1234
expect 2 "the game is over after 1122:BBBB" "$mmtree" partition --after 1122:BBBB 1234
expect 2 "unknown tie-break 'middle'" "$mmtree" build --tie-break middle
expect 2 "rule naive has no ties" "$mmtree" build --rule naive --tie-break last
expect 2 "rule optimal has no ties" "$mmtree" build --rule optimal --tie-break last
"$mmtree" partition --help | grep -q "usage: mmtree partition" || fail "partition --help"
[ "$fails" -eq 0 ]
