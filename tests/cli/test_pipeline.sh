#!/bin/sh
# mmtree build | mmtree stats --json -: the defaults (Knuth's rule on
# MM(4,6)), the summary line, and a few other games, end to end through
# the knuth notation.
mmtree=$1
fails=0
check() { # label, expected substring, actual
    case "$3" in
        *"$2"*) echo "ok: $1" ;;
        *) echo "FAIL: $1: '$3' lacks '$2'"; fails=$((fails + 1)) ;;
    esac
}
out=$("$mmtree" build 2>/tmp/mm_summary.$$ | "$mmtree" stats --json -)
summary=$(cat /tmp/mm_summary.$$)
rm -f /tmp/mm_summary.$$
check "defaults: game" '"pegs": 4, "colors": 6, "repeat": true, "codes": 1296' "$out"
check "defaults: Knuth's total" '"total": 5801, "expected": 4.4760802469, "worst": 5' "$out"
check "defaults: histogram" '"histogram": [1, 6, 62, 533, 694]' "$out"
check "defaults: nodes" '"nodes": 1378, "inconsistent": 82, "first": "1122"' "$out"
check "defaults: provenance" '"rule": "knuth", "consistent_only": false' "$out"
check "summary line" 'MM(4,6) knuth: 1296 codes, first guess 1122, total 5801, expected 4.4761, worst 5' "$summary"
[ "$(printf '%s\n' "$summary" | grep -c .)" -eq 1 ] && echo "ok: one summary line" ||
    { echo "FAIL: summary is not one line: $summary"; fails=$((fails + 1)); }

out=$("$mmtree" build -q -p 4 -c 10 --no-repeat --rule entropy | "$mmtree" stats --json -)
check "Bulls and Cows" '"pegs": 4, "colors": 10, "repeat": false, "codes": 5040' "$out"
out=$("$mmtree" build -q -p 3 -c 4 --rule branch2 --consistent-only | "$mmtree" stats --json -)
check "MM(3,4) branch2 consistent (WvE: 3.219)" '"total": 206' "$out"
check "MM(3,4) provenance" '"rule": "branch2", "consistent_only": true' "$out"
out=$("$mmtree" build -q --rule naive --first 1122 | "$mmtree" stats --json -)
check "naive from 1122 (Kooi s5)" '"histogram": [1, 12, 71, 253, 588, 286, 78, 7]' "$out"
tmp=$(mktemp -d)
"$mmtree" build -q -p 2 -c 3 -o "$tmp/t.txt" && out=$("$mmtree" stats "$tmp/t.txt")
check "-o file, text stats" 'total:        24' "$out"
"$mmtree" build -q -o /dev/null && echo "ok: -o /dev/null" ||
    { echo "FAIL: -o /dev/null"; fails=$((fails + 1)); }
[ -c /dev/null ] && echo "ok: /dev/null still a device" ||
    { echo "FAIL: /dev/null replaced"; fails=$((fails + 1)); }
rm -rf "$tmp"
[ "$fails" -eq 0 ]
