#!/bin/sh
# usage: convert.sh MMTREE
#
# 'mmtree convert': knuth -> irving -> knuth gives the same bytes, through
# files and through pipes; the output format follows --format, then the
# extension of -o; named sub-trees as in Knuth's Figure 1; bad input exits
# 2 with one line and leaves an existing output file alone.
set -u
mmtree=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
status=0
fail() { echo "FAIL: $*"; status=1; }

"$mmtree" build -q -o "$tmp/k.txt" || fail "build"
"$mmtree" convert "$tmp/k.txt" --format irving -o "$tmp/i.out" || fail "to irving"
grep -q '^# mmtree pegs=4 colors=6 repeat=yes notation=irving$' "$tmp/i.out" || fail "irving header"
"$mmtree" convert "$tmp/i.out" -o "$tmp/k2.txt" || fail "back to knuth"
cmp -s "$tmp/k.txt" "$tmp/k2.txt" || fail "knuth -> irving -> knuth changed the text"
"$mmtree" convert - < "$tmp/i.out" | "$mmtree" convert - -f irving | cmp -s - "$tmp/i.out" ||
    fail "pipes"
"$mmtree" build -q | "$mmtree" stats --json - | grep -q '"codes": 1296, "total": 5801' ||
    fail "build | stats --json -"

# Knuth's Figure 1, root line (D. E. Knuth, "The Computer as Master Mind", 1976).
"$mmtree" convert "$tmp/k.txt" --name-subtrees 20 --line-width 200 -o "$tmp/n.txt" || fail "names"
sed -n 3p "$tmp/n.txt" | grep -qx '1296(1122: 1,16(1213: 0,0,0,0,0;1,4(1415),3(1145),0;1,3(4115),3(1145);0,1;0),96A,256B,256C;0,36D,208E,256F;4(1213),32G,114H;0,20I;1)' ||
    fail "figure 1 root line: $(sed -n 3p "$tmp/n.txt")"
"$mmtree" stats "$tmp/n.txt" | grep -q '^total: *5801$' || fail "named file reads"

# Bad input: exit 2, one line with the place, the old output kept.
printf '# mmtree pegs=4 colors=6 repeat=yes\n1296(1122: 1,16x)\n' > "$tmp/bad.txt"
cp "$tmp/k.txt" "$tmp/keep.txt"
"$mmtree" convert "$tmp/bad.txt" -o "$tmp/keep.txt" 2> "$tmp/err"
[ $? -eq 2 ] || fail "bad input: exit status"
[ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q "^$tmp/bad.txt:2:14: error: " "$tmp/err" ||
    fail "bad input: message $(cat "$tmp/err")"
cmp -s "$tmp/k.txt" "$tmp/keep.txt" || fail "bad input destroyed the old output"
ls "$tmp" | grep -q tmp && fail "a temporary file was left behind"

# Output names: the extension in any case says the format; an unknown one
# is an error for build and convert unless --format is given, and then
# nothing is written.
mkdir "$tmp/o"
"$mmtree" convert "$tmp/k.txt" -o "$tmp/o/a.TXT" && head -n 1 "$tmp/o/a.TXT" |
    grep -q 'notation=knuth$' || fail ".TXT is knuth"
"$mmtree" convert "$tmp/k.txt" -o "$tmp/o/a.Xml" && head -c 5 "$tmp/o/a.Xml" | grep -q '^<?xml' ||
    fail ".Xml is xml"
"$mmtree" convert "$tmp/k.txt" -o "$tmp/o/a.MMT" && head -c 4 "$tmp/o/a.MMT" | grep -q 'MMT' ||
    fail ".MMT is bin"
for cmd in "convert $tmp/k.txt" "build -q"; do
    for name in t.json t.mmt.xz; do
        # shellcheck disable=SC2086
        "$mmtree" $cmd -o "$tmp/o/$name" 2> "$tmp/err"
        rc=$?
        [ $rc -eq 2 ] || fail "$cmd -o $name: exit status $rc"
        grep -qx "mmtree ${cmd%% *}: error: cannot tell the format of '$tmp/o/$name' from its extension '.${name##*.}' (.txt, .xml, .mmt): give --format" "$tmp/err" ||
            fail "$cmd -o $name: message $(cat "$tmp/err")"
        [ -e "$tmp/o/$name" ] && fail "$cmd -o $name: a file was written"
        # shellcheck disable=SC2086
        "$mmtree" $cmd -o "$tmp/o/$name" --format xml && head -c 5 "$tmp/o/$name" |
            grep -q '^<?xml' || fail "$cmd -o $name --format xml"
        rm -f "$tmp/o/$name"
    done
done
[ "$(ls "$tmp/o" | wc -l)" -eq 3 ] || fail "stray files: $(ls "$tmp/o")"

"$mmtree" convert --help | grep -q '^usage: mmtree convert' || fail "--help"
"$mmtree" convert "$tmp/k.txt" --format yaml > /dev/null 2>&1
[ $? -eq 2 ] || fail "unknown format: exit status"
"$mmtree" convert > /dev/null 2>&1
[ $? -eq 2 ] || fail "no input: exit status"
[ $status -eq 0 ] && echo "ok"
exit $status
