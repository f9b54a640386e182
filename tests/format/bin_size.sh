#!/bin/sh
# For every one-step rule on MM(4,6) the .mmt file is smaller than
# `xz -9` of the same tree in Knuth's notation (mmtree's knuth writer; a
# Knuth-like rendering by bin_textdump while that writer is missing).
# usage: bin_size.sh MMTREE TEXTDUMP
set -u
mmtree=$1
textdump=$2
command -v xz >/dev/null 2>&1 || { echo "xz missing (xz-utils)"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
for rule in naive knuth irving entropy kooi branch2 e3; do
    "$mmtree" build -p 4 -c 6 -r "$rule" -q -o "$tmp/t.mmt" || { fail=1; continue; }
    if "$mmtree" build -p 4 -c 6 -r "$rule" -q -f knuth -o "$tmp/t.txt" 2>/dev/null; then
        text="knuth"
    else
        "$textdump" "$tmp/t.mmt" >"$tmp/t.txt" || { fail=1; continue; }
        text="knuth-like"
    fi
    bin=$(wc -c <"$tmp/t.mmt")
    xz=$(xz -9 -c "$tmp/t.txt" | wc -c)
    verdict=ok
    [ "$bin" -lt "$xz" ] || { verdict=FAIL; fail=1; }
    printf '%-8s .mmt %5d bytes   xz -9 of %s text %5d bytes (%d bytes raw)  %s\n' \
        "$rule" "$bin" "$text" "$xz" "$(wc -c <"$tmp/t.txt")" "$verdict"
done
exit $fail
