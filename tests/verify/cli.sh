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
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# expect STATUS CMD...: run CMD (output in $tmp/out, $tmp/err) and check
# its exit status.
expect() {
    want=$1
    shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" -ne "$want" ]; then
        echo "FAIL: '$*' exited $got, expected $want" >&2
        sed 's/^/  | /' "$tmp/out" "$tmp/err" | head -20 >&2
        fail=1
    fi
}

# has FILE TEXT: FILE has a line containing TEXT (fixed string).
has() {
    if ! grep -qF -- "$2" "$1"; then
        echo "FAIL: no line with '$2' in:" >&2
        sed 's/^/  | /' "$1" | head -20 >&2
        fail=1
    fi
}

# Usage and unreadable input: 2.
expect 2 "$mmtree" verify
expect 2 "$mmtree" verify --max-problems x "$knuth"
expect 2 "$mmtree" verify --bogus "$knuth"
expect 2 "$mmtree" verify "$tmp/none.txt"
has "$tmp/err" "none.txt"
printf '1296(1122: 1,16(' >"$tmp/trunc.txt"
expect 2 "$mmtree" verify "$tmp/trunc.txt"
expect 2 "$mmtree" diff "$knuth"
expect 0 "$mmtree" verify --help
expect 0 "$mmtree" diff --help

# Nothing more can run until the bracket notation can be read.
if ! "$mmtree" stats "$knuth" >/dev/null 2>&1; then
    echo "SKIP: the bracket notation cannot be read yet" >&2
    [ $fail -eq 0 ] && exit 77
    exit 1
fi
expect 2 "$mmtree" verify "$tmp/trunc.txt"
has "$tmp/err" "trunc.txt:1:"

# A valid tree: 0, and Knuth's numbers.
expect 0 "$mmtree" verify "$knuth"
has "$tmp/out" "knuth1976.txt: valid"
has "$tmp/out" "total:        5801"
has "$tmp/out" "expected:     4.4761"
has "$tmp/out" "worst:        5"
has "$tmp/out" "histogram:    1 6 62 533 694"
expect 0 "$mmtree" verify --json "$knuth"
has "$tmp/out" '"valid": true, "problems": [], "problems_total": 0'
has "$tmp/out" '"total": 5801, "expected": 4.4760802469, "worst": 5, "histogram": [1, 6, 62, 533, 694]'

# A wrong count (Knuth's own example node, 44 codes after 1122:B, 1344:W).
sed 's/44(3526:/45(3526:/' "$knuth" >"$tmp/count.txt"
expect 1 "$mmtree" verify "$tmp/count.txt"
has "$tmp/out" "count.txt:35:9: error: path 1122:B,1344:W: stated 45 codes, 44 possible (its parts add up to 44)"
has "$tmp/out" "error: path 1122:B: guess 1344 does not make the stated parts: after W stated 45, true 44"
has "$tmp/out" "count.txt: invalid, 2 problems"

# A misprinted guess, recovered by --suggest; --json carries the same.
sed 's/44(3526:/44(3516:/' "$knuth" >"$tmp/guess.txt"
expect 1 "$mmtree" verify --suggest "$tmp/guess.txt"
has "$tmp/out" "guess.txt:35:9: error: path 1122:B,1344:W: guess 3516 does not make the stated parts: after WWWW stated 1, true 0;"
has "$tmp/out" "guesses that make them: 3526 3562 3625 3652"
expect 1 "$mmtree" verify --suggest --json "$tmp/guess.txt"
has "$tmp/out" '"kind": "partition", "line": 35, "col": 9, "path": "1122:B,1344:W", "guess": "3516"'
python3 -m json.tool "$tmp/out" > /dev/null || { echo "FAIL: verify --json is not valid JSON" >&2; fail=1; }
has "$tmp/out" '"suggest": ["3526", "3562", "3625", "3652"], "suggest_total": 4'

# A false marker: 7(1462x) where every reply identifies the code.
sed '35s/7(1462)/7(1462x)/' "$knuth" >"$tmp/marker.txt"
expect 1 "$mmtree" verify "$tmp/marker.txt"
has "$tmp/out" "marker.txt:35:"
has "$tmp/out" "path 1122:B,1344:W,3526:BWW: 7(1462x) says some reply leaves 2 codes, but every reply identifies the code"

# A missing code: the root's 4-white slot emptied.
sed 's/^1296(1122: 1,16/1296(1122: 0,16/' "$knuth" >"$tmp/missing.txt"
expect 1 "$mmtree" verify "$tmp/missing.txt"
has "$tmp/out" "missing.txt:5:1: error: root: guess 1122 does not make the stated parts: after WWWW stated 0, true 1"
has "$tmp/out" "code 2211 is never found: guess 1122 replies WWWW, which has no child"

# The limit.
expect 1 "$mmtree" verify --max-problems 1 "$tmp/missing.txt"
has "$tmp/out" "... and 1 more problems (see --max-problems)"

# diff: identical, different, brief, different games.
expect 0 "$mmtree" diff "$knuth" "$knuth"
has "$tmp/out" "change: total +0, expected +0.0000, worst +0; 0 differing nodes"
"$mmtree" build -q --rule knuth -o "$tmp/k.txt" || fail=1
"$mmtree" build -q --rule irving -o "$tmp/i.txt" || fail=1
expect 0 "$mmtree" diff "$knuth" "$tmp/k.txt"
expect 1 "$mmtree" diff "$tmp/k.txt" "$tmp/i.txt"
has "$tmp/out" "A $tmp/k.txt: total 5801, expected 4.4761, worst 5"
has "$tmp/out" "B $tmp/i.txt: total 5696, expected 4.3951, worst 6"
has "$tmp/out" "change: total -105, expected -0.0810, worst +1; 1 differing node"
has "$tmp/out" "root: A 1296(1122: "
expect 1 "$mmtree" diff --brief "$tmp/k.txt" "$tmp/i.txt"
[ "$(wc -l <"$tmp/out")" -eq 3 ] || { echo "FAIL: --brief printed more than the summary" >&2; fail=1; }
# Knuth's remark: after 1122:BWW, 1213:BB the pattern 4222x separates the
# four codes (2212 4212 5212 6212) faster than the rule's 1145x.
sed '/^D = /s/4(1145x)/4(4222x)/' "$knuth" >"$tmp/better.txt"
expect 1 "$mmtree" diff "$knuth" "$tmp/better.txt"
has "$tmp/out" "path 1122:BWW,1213:BB: A 4(1145*: WW 2, W 2) B 4(4222*: BBW 1, BB 2, BBB 1); guesses below: A 10, B 9 (-1); worst below: A 3, B 3"
has "$tmp/out" "change: total -1, expected -0.0008, worst +0; 1 differing node"
"$mmtree" build -q -p 3 -c 4 -o "$tmp/small.txt" || fail=1
expect 2 "$mmtree" diff "$knuth" "$tmp/small.txt"
has "$tmp/err" "different games"

exit $fail
