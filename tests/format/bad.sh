#!/bin/sh
# usage: bad.sh MMTREE DIR
#
# Every bad bracket file - the *.txt of DIR and a few generated here that
# are too big to keep - must make 'mmtree stats' exit with status 2 and
# print exactly one line, "FILE:LINE:COL: error: ...".  A crash or a
# sanitizer report gives another status and fails the test.
set -u
mmtree=$1
dir=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

hdr='# mmtree pegs=4 colors=6 repeat=yes'
# A million nested full forms (8 MB).
{ echo "$hdr"; yes '1(1111:' | head -n 1000000 | tr -d '\n'; echo; } > "$tmp/deep_nesting.txt"
# A million open brackets.
{ echo "$hdr"; yes '1(' | head -n 1000000 | tr -d '\n'; echo; } > "$tmp/open_brackets.txt"
# A count of 100000 digits.
{ echo "$hdr"; yes 9 | head -n 100000 | tr -d '\n'; echo '(1122x)'; } > "$tmp/long_number.txt"

status=0
count=0
for f in "$dir"/*.txt "$tmp"/*.txt; do
    count=$((count + 1))
    "$mmtree" stats "$f" > /dev/null 2> "$tmp/err"
    rc=$?
    lines=$(wc -l < "$tmp/err")
    msg=$(head -n 1 "$tmp/err")
    case $msg in
    "$f":[0-9]*:[0-9]*": error: "?*) placed=yes ;;
    *) placed=no ;;
    esac
    if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] || [ $placed = no ]; then
        echo "FAIL $f: exit $rc, $lines lines: $msg"
        status=1
    else
        echo "ok   $msg"
    fi
done
[ "$count" -ge 20 ] || { echo "FAIL: only $count files"; status=1; }
exit $status
