#!/bin/sh
# MM(5,8), 32768 codes: the entropy tree built here (about 2 s), whose
# games played code by code ('trace --all') give stats's histogram and
# total, and 'assist --rule entropy', which stores no tree, making the
# tree's guesses against the tree's replies for a few secrets (the
# first code, the last, one of the worst case, Ville's example 87654).
#
#   sh mm58.sh MMTREE
set -u
mmtree=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

"$mmtree" build -q -p 5 -c 8 --rule entropy -o "$tmp/e58.mmt" || exit 1
want=$("$mmtree" stats --json "$tmp/e58.mmt" |
    sed 's/.*"total": \([0-9]*\).*"histogram": \[\([^]]*\)\].*/\1: \2/')
"$mmtree" trace --all --csv "$tmp/e58.mmt" >"$tmp/all" || exit 1
got=$(awk -F, 'NR > 1 { n[$2]++; t += $2; if ($2 > w) w = $2 }
               END { printf "%d:", t; for (i = 1; i <= w; i++) printf "%s %d", (i > 1 ? "," : ""), n[i] }' "$tmp/all")
echo "stats: $want; trace --all: $got"
[ "$got" = "$want" ] || { echo "FAIL: trace --all against stats" >&2; fail=1; }
[ "$(grep -c . "$tmp/all")" -eq 32769 ] || { echo "FAIL: not 32768 rows" >&2; fail=1; }

worst=$("$mmtree" trace --worst --csv "$tmp/e58.mmt" | sed -n '2s/,.*//p')
for secret in 11111 88888 87654 "$worst"; do
    "$mmtree" trace "$tmp/e58.mmt" "$secret" >"$tmp/trace"
    guesses=$(awk 'NR > 1 { print $2 }' "$tmp/trace" | tr '\n' ' ')
    awk 'NR > 1 { print $3 }' "$tmp/trace" |
        "$mmtree" assist -p 5 -c 8 --rule entropy >"$tmp/out" 2>"$tmp/err"
    status=$?
    played=$(sed -n 's/^guess [0-9]*: \([0-9]*\) .*/\1/p' "$tmp/out" | tr '\n' ' ')
    echo "$secret: tree $guesses; rule $played"
    if [ $status -ne 0 ] || [ "$played" != "$guesses" ]; then
        echo "FAIL: assist --rule entropy against the tree for $secret" >&2
        cat "$tmp/err" >&2
        fail=1
    fi
done
exit $fail
