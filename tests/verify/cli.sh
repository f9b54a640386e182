#!/bin/sh
# 'mmtree verify' and 'mmtree diff' as a user runs them: exit statuses,
# the problem lines (place, path, stated and true values), --suggest,
# --json, and diff's differing nodes and summary.  The corrupted trees are
# trees/knuth1976.txt with one thing changed by sed.
#
#   sh cli.sh MMTREE SOURCE-ROOT
set -u
mmtree=$1
root=$2
knuth=$root/trees/knuth1976.txt
. "${0%/*}/../lib.sh"

# Usage and unreadable input: 2.
expect 2 "" "$mmtree" verify
expect 2 "" "$mmtree" verify --max-problems x "$knuth"
expect 2 "" "$mmtree" verify --bogus "$knuth"
expect 2 "" "$mmtree" verify "$dir/none.txt"
has "$dir/err" "none.txt"
printf '1296(1122: 1,16(' >"$dir/trunc.txt"
expect 2 "" "$mmtree" verify "$dir/trunc.txt"
expect 2 "" "$mmtree" diff "$knuth"
expect 0 "" "$mmtree" verify --help
expect 0 "" "$mmtree" diff --help

# Nothing more can run until the bracket notation can be read.
if ! "$mmtree" stats "$knuth" >/dev/null 2>&1; then
    echo "SKIP: the bracket notation cannot be read yet" >&2
    [ "$fails" -eq 0 ] && exit 77
    exit 1
fi
expect 2 "" "$mmtree" verify "$dir/trunc.txt"
has "$dir/err" "trunc.txt:1:"

# A valid tree: 0, and Knuth's numbers.
expect 0 "" "$mmtree" verify "$knuth"
has "$dir/out" "knuth1976.txt: valid"
has "$dir/out" "total:        5801"
has "$dir/out" "expected:     4.4761"
has "$dir/out" "worst:        5"
has "$dir/out" "histogram:    1 6 62 533 694"
expect 0 "" "$mmtree" verify --json "$knuth"
has "$dir/out" '"valid": true, "problems": [], "problems_total": 0'
has "$dir/out" '"total": 5801, "expected": 4.4760802469, "worst": 5, "histogram": [1, 6, 62, 533, 694]'

# A wrong count (Knuth's own example node, 44 codes after 1122:B, 1344:W).
sed 's/44(3526:/45(3526:/' "$knuth" >"$dir/count.txt"
expect 1 "" "$mmtree" verify "$dir/count.txt"
has "$dir/out" "count.txt:35:9: error: path 1122:B,1344:W: stated 45 codes, 44 possible (its parts add up to 44)"
has "$dir/out" "error: path 1122:B: guess 1344 does not make the stated parts: after W stated 45, true 44"
has "$dir/out" "count.txt: invalid, 2 problems"

# A misprinted guess, recovered by --suggest; --json carries the same.
sed 's/44(3526:/44(3516:/' "$knuth" >"$dir/guess.txt"
expect 1 "" "$mmtree" verify --suggest "$dir/guess.txt"
has "$dir/out" "guess.txt:35:9: error: path 1122:B,1344:W: guess 3516 does not make the stated parts: after WWWW stated 1, true 0;"
has "$dir/out" "guesses that make them: 3526 3562 3625 3652"
expect 1 "" "$mmtree" verify --suggest --json "$dir/guess.txt"
has "$dir/out" '"kind": "partition", "line": 35, "col": 9, "path": "1122:B,1344:W", "guess": "3516"'
python3 -m json.tool "$dir/out" > /dev/null || fail "verify --json is not valid JSON"
has "$dir/out" '"suggest": ["3526", "3562", "3625", "3652"], "suggest_total": 4'

# A false marker: 7(1462x) where every reply identifies the code.
sed '35s/7(1462)/7(1462x)/' "$knuth" >"$dir/marker.txt"
expect 1 "" "$mmtree" verify "$dir/marker.txt"
has "$dir/out" "marker.txt:35:"
has "$dir/out" "path 1122:B,1344:W,3526:BWW: 7(1462x) says some reply leaves 2 codes, but every reply identifies the code"

# A missing code: the root's 4-white slot emptied.
sed 's/^1296(1122: 1,16/1296(1122: 0,16/' "$knuth" >"$dir/missing.txt"
expect 1 "" "$mmtree" verify "$dir/missing.txt"
has "$dir/out" "missing.txt:5:1: error: root: guess 1122 does not make the stated parts: after WWWW stated 0, true 1"
has "$dir/out" "code 2211 is never found: guess 1122 replies WWWW, which has no child"

# The limit.
expect 1 "" "$mmtree" verify --max-problems 1 "$dir/missing.txt"
has "$dir/out" "... and 1 more problems (see --max-problems)"

# diff: identical, different, brief, different games.
expect 0 "" "$mmtree" diff "$knuth" "$knuth"
has "$dir/out" "change: total +0, expected +0.0000, worst +0; 0 differing nodes"
"$mmtree" build -q --rule knuth -o "$dir/k.txt" || fail "build --rule knuth"
"$mmtree" build -q --rule irving -o "$dir/i.txt" || fail "build --rule irving"
expect 0 "" "$mmtree" diff "$knuth" "$dir/k.txt"
expect 1 "" "$mmtree" diff "$dir/k.txt" "$dir/i.txt"
has "$dir/out" "A $dir/k.txt: total 5801, expected 4.4761, worst 5"
has "$dir/out" "B $dir/i.txt: total 5696, expected 4.3951, worst 6"
has "$dir/out" "change: total -105, expected -0.0810, worst +1; 1 differing node"
has "$dir/out" "root: A 1296(1122: "
expect 1 "" "$mmtree" diff --brief "$dir/k.txt" "$dir/i.txt"
[ "$(wc -l <"$dir/out")" -eq 3 ] || fail "--brief printed more than the summary"
# Knuth's remark: after 1122:BWW, 1213:BB the pattern 4222x separates the
# four codes (2212 4212 5212 6212) faster than the rule's 1145x.
sed '/^D = /s/4(1145x)/4(4222x)/' "$knuth" >"$dir/better.txt"
expect 1 "" "$mmtree" diff "$knuth" "$dir/better.txt"
has "$dir/out" "path 1122:BWW,1213:BB: A 4(1145*: WW 2, W 2) B 4(4222*: BBW 1, BB 2, BBB 1); guesses below: A 10, B 9 (-1); worst below: A 3, B 3"
has "$dir/out" "change: total -1, expected -0.0008, worst +0; 1 differing node"
"$mmtree" build -q -p 3 -c 4 -o "$dir/small.txt" || fail "build MM(3,4)"
expect 2 "" "$mmtree" diff "$knuth" "$dir/small.txt"
has "$dir/err" "different games"

[ "$fails" -eq 0 ]
