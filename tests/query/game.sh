#!/bin/sh
# mmtree assist and mmtree play driven through pipes, one line a step,
# and once each through a pseudo-terminal (script, from util-linux):
# Knuth's worked example (his 1976 paper: 1122, 1344, 3526, 1462, 3632
# find 3632), every spelling of a reply, refused replies and undo, bad
# input, the end of the input, giving up, hints, the summary of a game,
# and the errors of bad usage.
#
#   sh game.sh MMTREE SOURCE-ROOT
set -u
mmtree=$1
root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# run STATUS INPUT CMD...: feed INPUT to CMD (output in $tmp/out,
# $tmp/err) and check its exit status.
run() {
    want=$1 input=$2
    shift 2
    printf "%b" "$input" | "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" -ne "$want" ]; then
        echo "FAIL: '$*' exited $got, expected $want" >&2
        sed 's/^/  | /' "$tmp/out" "$tmp/err" | head -30 >&2
        fail=1
    fi
}

# usage STATUS CMD...: a usage error: the status and one line on stderr.
usage() {
    run "$@"
    if [ "$(grep -c . "$tmp/err")" -ne 1 ]; then
        echo "FAIL: '$*': not one line on stderr" >&2
        sed 's/^/  | /' "$tmp/err" >&2
        fail=1
    fi
}

has() {
    if ! grep -qF -- "$2" "$1"; then
        echo "FAIL: no line with '$2' in:" >&2
        sed 's/^/  | /' "$1" | head -30 >&2
        fail=1
    fi
}

# is FILE TEXT: FILE is exactly TEXT.
is() {
    printf '%s\n' "$2" >"$tmp/want"
    if ! cmp -s "$1" "$tmp/want"; then
        echo "FAIL: output differs:" >&2
        diff "$tmp/want" "$1" | sed 's/^/  | /' >&2
        fail=1
    fi
}

"$mmtree" build -q -o "$tmp/knuth.txt"
"$mmtree" convert "$tmp/knuth.txt" -o "$tmp/knuth.xml" 2>/dev/null ||
    cp "$tmp/knuth.txt" "$tmp/knuth.xml"

knuth_game='guess 1: 1122 (1296 codes possible)
guess 2: 1344 (256 codes possible)
guess 3: 3526 (44 codes possible)
guess 4: 1462 (7 codes possible; it cannot be the code)
guess 5: 3632 (the only code possible)
found 3632 in 5 guesses'

# ---- assist ----
for f in "$tmp/knuth.txt" "$tmp/knuth.xml" "$root/trees/knuth1976.txt"; do
    run 0 'B\nW\nBWW\nBW\nBBBB\n' "$mmtree" assist --tree "$f"
    is "$tmp/out" "$knuth_game"
done
# every spelling of a reply; the rule plays as its tree does
run 0 'b\n0 1\nB W W\n1,1\n4 0\n' "$mmtree" assist --tree "$tmp/knuth.txt"
is "$tmp/out" "$knuth_game"
run 0 'B\nW\nWBW\nBW\nBBBB\n' "$mmtree" assist
is "$tmp/out" "$knuth_game"
# a reply no code gives is refused (the line named), undo goes back
run 0 'B\nW\n-\nundo\nW\nBWW\nBW\nBBBB\n' "$mmtree" assist --tree "$tmp/knuth.txt"
has "$tmp/err" "<stdin>:3:1: error: no code still possible gives - to 3526: this reply or one before is wrong ('undo' takes back the last one)"
is "$tmp/out" 'guess 1: 1122 (1296 codes possible)
guess 2: 1344 (256 codes possible)
guess 3: 3526 (44 codes possible)
guess 2: 1344 (256 codes possible)
guess 3: 3526 (44 codes possible)
guess 4: 1462 (7 codes possible; it cannot be the code)
guess 5: 3632 (the only code possible)
found 3632 in 5 guesses'
# bad input: one line each, the game goes on
run 0 'BX\n5 0\n2\n1122\nBBBW\nB\nlist\nW\nBWW\nBBBB\nBW\n3 1\nBBBB\n' "$mmtree" assist
has "$tmp/err" "<stdin>:1:1: error: 'BX' is not a reply"
has "$tmp/err" "<stdin>:2:1: error: '5 0' is not a reply"
has "$tmp/err" "<stdin>:3:1: error: '2' is not a reply"
has "$tmp/err" "<stdin>:4:1: error: '1122' is not a reply"
has "$tmp/err" "<stdin>:5:1: error: 'BBBW' is not a reply: 3 black and 1 white cannot happen"
has "$tmp/err" "<stdin>:10:1: error: 1462 cannot be the code"
has "$tmp/err" "<stdin>:12:1: error: '3 1' is not a reply: 3 black and 1 white cannot happen"
[ "$(grep -c . "$tmp/err")" -eq 7 ] || { echo "FAIL: not 7 error lines" >&2; fail=1; }
has "$tmp/out" "256 codes possible: 1333 1334 1335 1336 1343"
has "$tmp/out" "... and 156 more ('list all')"
has "$tmp/out" "found 3632 in 5 guesses"
run 1 'x\nb x\n' "$mmtree" assist
has "$tmp/err" "<stdin>:1:1: error: 'x' is not a reply"
has "$tmp/err" "<stdin>:2:1: error: 'Bx' is not a reply"
run 1 'B\nW\nlist all\n' "$mmtree" assist
has "$tmp/out" "44 codes possible: 3523 3525 3526 3532"
has "$tmp/out" "stopped after 2 guesses"
run 1 '' "$mmtree" assist
is "$tmp/out" 'guess 1: 1122 (1296 codes possible)
stopped after 0 guesses'
run 1 'B\nquit\n' "$mmtree" assist
has "$tmp/out" "stopped after 1 guess"
run 1 'undo\nhelp\n' "$mmtree" assist
has "$tmp/err" "<stdin>:1:1: error: nothing to undo"
has "$tmp/out" "list all, undo, quit"
# another game and rule; an optimal rule plans its tree first
run 0 'W\nBBB\n' "$mmtree" assist -p 3 -c 4 --rule optimal
has "$tmp/out" "found"
"$mmtree" build -q -p 4 -c 6 -n --rule kooi -o "$tmp/kooi.txt"
replies=$("$mmtree" trace "$tmp/kooi.txt" 6543 | awk 'NR > 1 { printf "%s\\n", $3 }')
guesses=$("$mmtree" trace "$tmp/kooi.txt" 6543 | awk 'NR > 1 { print $2 }' | tr '\n' ' ')
run 0 "$replies" "$mmtree" assist -p 4 -c 6 -n --rule kooi
same=$(sed -n 's/^guess [0-9]*: \([0-9]*\) .*/\1/p' "$tmp/out" | tr '\n' ' ')
[ "$same" = "$guesses" ] || { echo "FAIL: kooi rule '$same', its tree '$guesses'" >&2; fail=1; }

usage 2 '' "$mmtree" assist --tree "$tmp/knuth.txt" --rule knuth
usage 2 '' "$mmtree" assist --tree "$tmp/knuth.txt" -c 7
has "$tmp/err" "is a tree of MM(4,6)"
usage 2 '' "$mmtree" assist --tree "$tmp/none.txt"
usage 2 '' "$mmtree" assist --rule bogus
usage 2 '' "$mmtree" assist -p 5 -c 8 --rule optimal
has "$tmp/err" "rule 'optimal' plans a whole tree"
usage 2 '' "$mmtree" assist -p 9
usage 2 '' "$mmtree" assist -p 5 -c 4 -n
usage 2 '' "$mmtree" assist extra
usage 2 '' "$mmtree" assist --bogus
run 0 '' "$mmtree" assist --help
has "$tmp/out" "usage: mmtree assist"

# ---- play ----
run 0 '1122\n1344\n3526\n1462\n3632\n' "$mmtree" play --secret 3632 --tree "$tmp/knuth.txt"
is "$tmp/out" 'guess 1: 1122 got B; 256 codes possible
guess 2: 1344 got W; 44 codes possible
guess 3: 3526 got BWW; 7 codes possible
guess 4: 1462 got BW; 1 code possible
guess 5: 3632 got BBBB: found in 5 guesses
guess  code   reply    left | tree  leaves  expected     cost
    1  1122   B         256 | 1122     256    4.4761  +0.0000
    2  1344   W          44 | 1344      44    4.6055  +0.0000
    3  3526   BWW         7 | 3526       7    4.7500  +0.0000
    4  1462   BW          1 | 1462       1    5.0000  +0.0000
    5  3632   BBBB    found | 3632   found    5.0000  +0.0000
the tree finds 3632 in 5 guesses; you played its guesses throughout'
# a published tree: no rule to judge guesses off it, so no cost
run 0 '1122\n1344\n3632\n' "$mmtree" play --secret 3632 --tree "$root/trees/knuth1976.txt"
has "$tmp/out" "guess  code   reply    left | tree  leaves  expected"
has "$tmp/out" "    3  3632   BBBB    found | 3526       7    4.7500"
grep -q cost "$tmp/out" && { echo "FAIL: a cost without a rule" >&2; fail=1; }
# leaving the tree: what it expected there, and what it cost
run 0 '1122\nhint\n1234\nhint\nlist\n12x4\n123\n1177\nundo\n1234\n3632\n' "$mmtree" play --secret 3632 --tree "$tmp/knuth.txt"
has "$tmp/out" "hint: the tree guesses 1344 here"
has "$tmp/out" "hint: none, the tree has no guess here: you left it at guess 2, where it guesses 1344"
has "$tmp/out" "56 codes possible: 1353 1355"
has "$tmp/out" "took back guess 2, 1234"
has "$tmp/err" "<stdin>:6:1: error: '12x4' is not a code: 'x' is not one of the 6 colours"
has "$tmp/err" "<stdin>:7:1: error: '123' is not a code: it has 3 pegs, the game 4"
has "$tmp/err" "<stdin>:8:1: error: '1177' is not a code"
# The costs, by brute force over Knuth's rule: after 1122:B (256 codes)
# his tree takes 923 guesses in all, 964 with 1234 there; after
# 1122:B,1234:BW (56 codes) his rule takes 158, 160 with 3632 there.
has "$tmp/out" "    2  1234   BW         56 | 1344      44    4.6055  +0.1602"
has "$tmp/out" "    3  3632   BBBB    found | -                       +0.0357"
has "$tmp/out" "the tree finds 3632 in 5 guesses; you left it at guess 2, where it expected 4.6055 guesses in all: you needed 3 (-1.6055)"
has "$tmp/out" "your guesses cost 0.1959 expected guesses in all against the tree's (the knuth rule making the guesses after each)"
# From the start 1234 (5803 in all, 5801 with 1122), 5566 after 1234:BW
# (977 against 910 of 252 codes), 1122 after 5566:W (182 against 173 of
# 60), then the code, one of the rule's best.
run 0 '1234\n5566\n1122\n3632\n' "$mmtree" play --secret 3632 --tree "$tmp/knuth.txt"
is "$tmp/out" 'guess 1: 1234 got BW; 252 codes possible
guess 2: 5566 got W; 60 codes possible
guess 3: 1122 got B; 10 codes possible
guess 4: 3632 got BBBB: found in 4 guesses
guess  code   reply    left | tree  leaves  expected     cost
    1  1234   BW        252 | 1122     256    4.4761  +0.0015
    2  5566   W          60 | -                       +0.2659
    3  1122   B          10 | -                       +0.1500
    4  3632   BBBB    found | -                       +0.0000
the tree finds 3632 in 5 guesses; you left it at guess 1, where it expected 4.4761 guesses in all: you needed 4 (-0.4761)
your guesses cost 0.4174 expected guesses in all against the tree'"'"'s (the knuth rule making the guesses after each)'
# A position of more than 2401 codes is not judged (its tree would take
# seconds to build), and the sum says so.
run 1 '12345\nquit\n' "$mmtree" play --secret 87654 --tree "$root/tests/render/mm58-entropy.mmt"
has "$tmp/out" "    1  12345  WW       7070 | 11234    2387    5.4890        ?"
has "$tmp/out" "your guesses cost 0.0000 expected guesses in all against the tree's (the entropy rule making the guesses after each), not counting 1 made where more than 2401 codes were possible"
# An optimal tree: 1234 first costs Koyama and Lai's 5673 - 5625.
run 1 '1234\nquit\n' "$mmtree" play --secret 3632 --tree "$root/trees/optima/mm4-6-optimal.mmt"
has "$tmp/out" "    1  1234   BW        252 | 1123     222    4.3403  +0.0370"
# a rule, giving up, the end of the input, a seed
run 1 '1111\nhint\ngive up\n' "$mmtree" play --secret 6543 --rule entropy
has "$tmp/out" "hint: rule entropy guesses 2234 here"
has "$tmp/out" "you gave up after 1 guess: the code was 6543"
has "$tmp/out" "guess  code   reply    left | entropy  leaves"
has "$tmp/out" "    1  1111   -         625 | 1234        312"
run 1 '1122\n' "$mmtree" play --seed 7
has "$tmp/out" "the input ended after 1 guess: the code was "
code=$(sed -n 's/.*the code was //p' "$tmp/out")
run 1 '' "$mmtree" play --seed 7
has "$tmp/out" "the code was $code"
run 0 "$code\n" "$mmtree" play --seed 7 --rule naive
has "$tmp/out" "found in 1 guess"
run 1 'quit\n' "$mmtree" play -p 4 -c 10 -n --secret 0129
is "$tmp/out" 'you gave up after 0 guesses: the code was 0129'
run 1 'quit\n' "$mmtree" play --secret 3632 --tree "$tmp/knuth.txt"
is "$tmp/out" 'you gave up after 0 guesses: the code was 3632
the tree finds 3632 in 5 guesses'
usage 2 '' "$mmtree" play --secret 0a9b
usage 2 '' "$mmtree" play --secret 1234 --seed 3
usage 2 '' "$mmtree" play --seed -1
usage 2 '' "$mmtree" play --tree "$tmp/knuth.txt" -p 5
usage 2 '' "$mmtree" play --tree "$tmp/knuth.txt" --rule irving
usage 2 '' "$mmtree" play --rule optimal-worst -p 5 -c 8
usage 2 '' "$mmtree" play --bogus
run 0 '' "$mmtree" play --help
has "$tmp/out" "usage: mmtree play"

# ---- on a terminal: prompts ----
if command -v script >/dev/null 2>&1; then
    printf 'B\nW\nbww\nBX\n1 1\nBBBB\n' |
        script -qec "'$mmtree' assist --tree '$tmp/knuth.txt'" /dev/null >"$tmp/tty" 2>&1
    [ $? -eq 0 ] || { echo "FAIL: assist on a terminal: exit status" >&2; fail=1; }
    tr -d '\r' <"$tmp/tty" >"$tmp/out"
    # the terminal echoes the input as it comes: where is not fixed
    has "$tmp/out" "guess 2: 1344 (256 codes possible)"
    has "$tmp/out" "mmtree: error: 'BX' is not a reply"
    has "$tmp/out" "found 3632 in 5 guesses"
    [ "$(grep -o 'reply> ' "$tmp/out" | wc -l)" -eq 6 ] ||
        { echo "FAIL: assist on a terminal: not 6 prompts" >&2; fail=1; }
    printf '1122\nhint\nquit\n' |
        script -qec "'$mmtree' play --secret 3632 --tree '$tmp/knuth.txt'" /dev/null >"$tmp/tty" 2>&1
    [ $? -eq 1 ] || { echo "FAIL: play on a terminal: exit status" >&2; fail=1; }
    tr -d '\r' <"$tmp/tty" >"$tmp/out"
    has "$tmp/out" "MM(4,6): find the code of 4 pegs in colours 1-6 ('help' lists the commands)"
    has "$tmp/out" "guess 1: 1122 got B; 256 codes possible"
    has "$tmp/out" "hint: the tree guesses 1344 here"
    has "$tmp/out" "you gave up after 1 guess: the code was 3632"
    [ "$(grep -o 'guess 1> ' "$tmp/out" | wc -l)" -eq 1 ] &&
        [ "$(grep -o 'guess 2> ' "$tmp/out" | wc -l)" -eq 2 ] ||
        { echo "FAIL: play on a terminal: prompts" >&2; fail=1; }
else
    echo "SKIP: no 'script' for the terminal tests" >&2
fi

exit $fail
