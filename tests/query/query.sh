#!/bin/sh
# mmtree next, trace and diff --per-code as a user runs them: Knuth's
# position after 1122:B,1344:W (44 codes, guess 3526), his worked game
# against 3632, 'trace --all' against 'stats' for every rule on MM(4,6),
# the per-code diff of Knuth's and Irving's trees, and every error with
# its exit status and its one line.
#
#   sh query.sh MMTREE SOURCE-ROOT
set -u
mmtree=$1
root=$2
. "${0%/*}/../lib.sh"

# same A B WHAT: two strings are equal.
same() {
    [ "$1" = "$2" ] || fail "$3: '$1' != '$2'"
}

"$mmtree" build -q -o "$dir/knuth.txt"
"$mmtree" convert "$dir/knuth.txt" -o "$dir/knuth.mmt"

# ---- next ----
for f in "$dir/knuth.txt" "$dir/knuth.mmt" "$root/trees/knuth1976.txt"; do
    expect 0 "" "$mmtree" next "$f" 1122:B,1344:W
    has "$dir/out" "guess:     3526 (it can be the code)"
    has "$dir/out" "possible:  44 codes"
    has "$dir/out" "expected:  2.7500 guesses from here, this one included"
    has "$dir/out" "worst:     3 guesses from here"
done
# the letters of a reply in any order; the root; a leaf
expect 0 "" "$mmtree" next "$dir/knuth.txt" 1122:B,1344:W,3526:WBW
has "$dir/out" "guess:     1462 (it cannot be the code)"
has "$dir/out" "possible:  7 codes"
expect 0 "" "$mmtree" next "$dir/knuth.txt"
has "$dir/out" "guess:     1122 (it can be the code)"
has "$dir/out" "expected:  4.4761 guesses"
has "$dir/out" "worst:     5 guesses"
expect 0 "" "$mmtree" next "$dir/knuth.txt" root
has "$dir/out" "possible:  1296 codes"
expect 0 "" "$mmtree" next "$dir/knuth.txt" 1122:B,1344:W,3526:BWW,1462:BW
has "$dir/out" "guess:     3632 (the code)"
has "$dir/out" "replies:   BBBB 1"
expect 0 "" "$mmtree" next "$dir/knuth.txt" 1122:B,1344:W --codes
has "$dir/out" "codes:     3523 3525 3526 3532"
same "$(grep '^codes:' "$dir/out" | wc -w)" 45 "next --codes: 44 codes"
expect 0 "" "$mmtree" next --json --codes "$dir/knuth.txt" 1122:B,1344:W
has "$dir/out" '"path": "1122:B,1344:W", "guess": "3526", "consistent": true, "count": 44, "total": 121, "expected": 2.7500000000, "worst": 3, "histogram": [1, 9, 34]'
has "$dir/out" '{"reply": "BBBB", "count": 1}]'
has "$dir/out" '"possible": ["3523", "3525",'
"$mmtree" next "$dir/knuth.txt" 1122:B,1344:W,3526:BWW --json | grep -q '"consistent": false' ||
    fail "next --json consistent"
# errors name the step and say why
expect 2 "" "$mmtree" next "$dir/knuth.txt" 1122:B,1234:W
has "$dir/err" "path step 2: the tree guesses 1344 there, not 1234"
expect 2 "" "$mmtree" next "$dir/knuth.txt" 1122:B,1344:BBB,1335:W
has "$dir/err" "path step 3: no code still possible gives reply W to 1335"
expect 2 "" "$mmtree" next "$dir/knuth.txt" 1122:BBBB
has "$dir/err" "path step 1: reply BBBB to 1122 ends the game"
expect 2 "" "$mmtree" next "$dir/knuth.txt" 1122:B,13x4:W
has "$dir/err" "path step 2: '13x4' is not a code"
expect 2 "" "$mmtree" next "$dir/knuth.txt" 1122:BX
has "$dir/err" "path step 1: 'BX' is not a reply"
expect 2 "" "$mmtree" next "$dir/knuth.txt" 1122
has "$dir/err" "expected GUESS:REPLY"
expect 2 "" "$mmtree" next "$dir/none.txt"
has "$dir/err" "none.txt"
expect 2 "" "$mmtree" next
expect 2 "" "$mmtree" next "$dir/knuth.txt" 1122:B extra
expect 2 "" "$mmtree" next --bogus "$dir/knuth.txt"
expect 0 "" "$mmtree" next --help
has "$dir/out" "usage: mmtree next"

# ---- trace ----
expect 0 "" "$mmtree" trace "$dir/knuth.txt" 3632 1111
has "$dir/out" "secret 3632: 5 guesses"
same "$(sed -n 2,6p "$dir/out" | tr -s ' ' | tr '\n' ',')" \
    " 1 1122 B, 2 1344 W, 3 3526 BWW, 4 1462 BW, 5 3632 BBBB," "Knuth's game against 3632"
has "$dir/out" "secret 1111: 4 guesses"
expect 0 "" "$mmtree" trace --json "$dir/knuth.mmt" 3632
has "$dir/out" '"games": [{"secret": "3632", "guesses": 5, "path": "1122:B,1344:W,3526:BWW,1462:BW", "steps": [{"guess": "1122", "reply": "B"}, {"guess": "1344", "reply": "W"}'
# the path of --all is the position 'next' reads, where the code is guessed
expect 0 "" "$mmtree" trace --all "$dir/knuth.txt"
has "$dir/out" "3632 5 1122:B,1344:W,3526:BWW,1462:BW"
has "$dir/out" "1122 1 root"
path=$(awk '$1 == "6665" { print $3 }' "$dir/out")
"$mmtree" next "$dir/knuth.txt" "$path" | grep -q "guess:     6665 (the code)" ||
    fail "trace --all path $path does not lead 'next' to 6665"
expect 0 "" "$mmtree" trace --all --csv "$dir/knuth.txt"
same "$(head -1 "$dir/out")" "code,guesses,path" "csv header"
same "$(grep -c . "$dir/out")" 1297 "csv rows"
has "$dir/out" "3632,5,1122:B,1344:W,3526:BWW,1462:BW"
expect 0 "" "$mmtree" trace --worst "$dir/knuth.txt"
same "$(awk 'NF == 3' "$dir/out" | wc -l | tr -d ' ')" 694 "--worst: the 694 codes of 5 guesses"
same "$(awk 'NF == 3 && $2 != 5' "$dir/out" | wc -l | tr -d ' ')" 0 "--worst: only 5"
expect 0 "" "$mmtree" trace --all --json "$dir/knuth.txt"
has "$dir/out" '"codes": 1296, "total": 5801, "expected": 4.4760802469, "worst": 5, "histogram": [1, 6, 62, 533, 694]'
has "$dir/out" '{"secret": "3632", "guesses": 5, "path": "1122:B,1344:W,3526:BWW,1462:BW"}'

# Every rule on MM(4,6): the games played code by code give stats's
# histogram, and their total.
for rule in naive knuth irving entropy kooi branch2 e3; do
    for co in "" --consistent-only; do
        "$mmtree" build -q --rule $rule $co -o "$dir/t.mmt"
        want=$("$mmtree" stats --json "$dir/t.mmt" | sed 's/.*"total": \([0-9]*\).*"histogram": \[\([^]]*\)\].*/\1: \2/')
        "$mmtree" trace --all "$dir/t.mmt" >"$dir/all"
        got=$(awk 'NF == 3 { n[$2]++; t += $2; if ($2 > w) w = $2 }
                   END { printf "%d:", t; for (i = 1; i <= w; i++) printf "%s %d", (i > 1 ? "," : ""), n[i] }' "$dir/all")
        same "$got" "$want" "trace --all against stats, $rule $co"
        same "$(tail -1 "$dir/all" | sed 's/.*total \([0-9]*\).*histogram \(.*\)/\1: \2/' | tr ' ' ',' | sed 's/:,/: /; s/,/, /g')" \
            "$want" "trace --all summary, $rule $co"
    done
done
# The optimal rules, from the trees stored in trees/optima (an exact
# search takes minutes): Koyama and Lai's 5625 (one code in 6 guesses)
# and 5626 within 5, and 5660 for consistent guesses only (proven by
# mmtree; trees/optima/results.tsv).
for kind in optimal:5625 worst:5626 consistent:5660; do
    f="$root/trees/optima/mm4-6-${kind%:*}.mmt"
    want=$("$mmtree" stats --json "$f" | sed 's/.*"total": \([0-9]*\).*"histogram": \[\([^]]*\)\].*/\1: \2/')
    "$mmtree" trace --all "$f" >"$dir/all"
    got=$(awk 'NF == 3 { n[$2]++; t += $2; if ($2 > w) w = $2 }
               END { printf "%d:", t; for (i = 1; i <= w; i++) printf "%s %d", (i > 1 ? "," : ""), n[i] }' "$dir/all")
    same "$got" "$want" "trace --all against stats, $f"
    same "${got%%:*}" "${kind#*:}" "trace --all total, $f"
done
same "$(awk '$2 == 6' "$dir/all" | wc -l | tr -d ' ')" 11 "optimal-consistent: 11 codes in 6 guesses"

expect 2 "" "$mmtree" trace "$dir/knuth.txt" 3672
has "$dir/err" "'3672' is not a code: '7' is not one of the 6 colours"
expect 2 "" "$mmtree" trace "$dir/knuth.txt" 123
has "$dir/err" "'123' is not a code: it has 3 pegs, the game 4"
expect 2 "" "$mmtree" trace "$dir/knuth.txt" 3632 -
has "$dir/err" "'-' is not a code: it has 1 peg, the game 4"
expect 2 "" "$mmtree" trace "$dir/knuth.txt"
expect 2 "" "$mmtree" trace "$dir/knuth.txt" --all 1122
expect 2 "" "$mmtree" trace "$dir/knuth.txt" 1122 --csv
expect 2 "" "$mmtree" trace "$dir/knuth.txt" --all --csv --json
expect 2 "" "$mmtree" trace "$dir/none.txt" --all
expect 2 "" "$mmtree" trace --bogus
expect 0 "" "$mmtree" trace --help
has "$dir/out" "usage: mmtree trace"

# ---- diff --per-code ----
"$mmtree" build -q --rule irving -o "$dir/irving.txt"
expect 1 "" "$mmtree" diff --per-code "$dir/knuth.txt" "$dir/irving.txt"
has "$dir/out" "change: total -105, expected -0.0810, worst +1; 616 codes differ"
has "$dir/out" "A              1       6      62     533     694       0"
has "$dir/out" "B              1      10      54     645     583       3"
has "$dir/out" "change        +0      +4      -8    +112    -111      +3"
# each line is a code whose count differs, the two counts agreeing with trace
line=$(grep '^[1-6]*: A' "$dir/out" | head -1)
c=$(echo "$line" | cut -d: -f1)
a=$("$mmtree" trace "$dir/knuth.txt" "$c" | sed -n 's/.*: \([0-9]*\) guess.*/\1/p')
b=$("$mmtree" trace "$dir/irving.txt" "$c" | sed -n 's/.*: \([0-9]*\) guess.*/\1/p')
same "$line" "$c: A $a, B $b ($(printf '%+d' $((b - a))))" "per-code line against trace"
expect 0 "" "$mmtree" diff --per-code "$dir/knuth.txt" "$dir/knuth.mmt"
has "$dir/out" "0 codes differ"
expect 1 "" "$mmtree" diff --per-code --brief --json "$dir/knuth.txt" "$dir/irving.txt"
has "$dir/out" '"codes_differing": 616, "change": {"total": -105, "expected": -0.0810185185, "worst": 1, "histogram": [0, 4, -8, 112, -111, 3]}}'
expect 1 "" "$mmtree" diff --per-code --json "$dir/knuth.txt" "$dir/irving.txt"
has "$dir/out" '"changes": [{"code": "'
expect 1 "" "$mmtree" diff --json "$dir/knuth.txt" "$dir/irving.txt"
has "$dir/out" '"nodes_differing": 1, "differences": [{"path": "", "kind": "guess", "a": {"guess": "1122", "count": 1296, "consistent": true, "total": 5801, "worst": 5}, "b": {"guess": "1123"'
has "$dir/out" '"change": {"total": -105, "expected": -0.0810185185, "worst": 1}}'
expect 0 "" "$mmtree" diff --json "$dir/knuth.txt" "$dir/knuth.mmt"
has "$dir/out" '"nodes_differing": 0, "differences": []'
"$mmtree" build -q -p 3 -c 4 -o "$dir/small.txt"
expect 2 "" "$mmtree" diff --per-code "$dir/knuth.txt" "$dir/small.txt"
has "$dir/err" "different games"
expect 2 "" "$mmtree" diff --per-code "$dir/knuth.txt" "$dir/none.txt"

# ---- README: the help text of each command, as it is ----
for cmd in next trace play assist diff; do
    awk -v s="<details><summary><code>mmtree $cmd --help</code></summary>" '
        $0 == s { on = 1; next }
        on && /^```text$/ { in_block = 1; next }
        in_block && /^```$/ { exit }
        in_block' "$root/README.md" >"$dir/readme-help"
    "$mmtree" "$cmd" --help >"$dir/help"
    if ! cmp -s "$dir/readme-help" "$dir/help"; then
        fail "README: the help of '$cmd' is not 'mmtree $cmd --help':"
        diff "$dir/help" "$dir/readme-help" | head -10 | sed 's/^/  | /'
    fi
done

[ "$fails" -eq 0 ]
