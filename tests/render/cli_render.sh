#!/bin/sh
# 'mmtree render' end to end.  Usage: cli_render.sh MMTREE GOLDEN_DIR WORK_DIR
# Usage errors run always; the rest needs tree files, so it is skipped
# (exit 77) while 'mmtree build | mmtree stats -' does not work yet.  In a
# build without Graphviz only the HTML pages are tested.
set -u
mmtree=$1 golden=$2 work=$3/cli-render
rm -rf "$work" && mkdir -p "$work" || exit 1
. "${0%/*}/../lib.sh"
# one_line WHAT: the last command's stderr ($dir/err) is one line
one_line() {
    [ "$(grep -c . "$dir/err")" -eq 1 ] || fail "$1: not one line on stderr: $(cat "$dir/err")"
}

expect 0 "" "$mmtree" render --help
grep -q "usage: mmtree render" "$dir/out" || fail "--help prints no usage"
expect 2 "unknown output format '.jpg'" "$mmtree" render t.txt -o "$work/x.jpg"
expect 2 "cannot tell the format of" "$mmtree" render t.txt -o "$work/x"
expect 2 "unknown layout 'spiral'" "$mmtree" render t.txt -o "$work/x.svg" --layout spiral
expect 2 "unknown format 'gif'" "$mmtree" render t.txt -o - --format gif
expect 2 "depth must be 1..64" "$mmtree" render t.txt -o "$work/x.svg" --depth 0
expect 2 "no output" "$mmtree" render t.txt
expect 2 "cannot open" "$mmtree" render "$work/missing.txt" -o "$work/x.svg"
[ -e "$work/x.jpg" ] || [ -e "$work/x.svg" ] && fail "an output file was left behind"

if ! "$mmtree" build -q -p 2 -c 3 2>/dev/null | "$mmtree" stats - >/dev/null 2>&1; then
    echo "tree files cannot be written and read yet: skipping the rest" >&2
    [ "$fails" -eq 0 ] && exit 77
    exit 1
fi

"$mmtree" build -q -p 2 -c 3 -o "$work/mm23.txt" || fail "build MM(2,3)"
"$mmtree" build -q -o "$work/mm46.txt" || fail "build MM(4,6)"

# HTML: one page, the tree as data, whatever the extension's case of .htm.
expect 0 "" "$mmtree" render "$work/mm46.txt" -o "$work/t.html" -P 1122:B,1344:W
grep -q '"path": "1122:B,1344:W"' "$work/t.html" || fail "t.html lacks its path"
"$mmtree" render "$work/mm46.txt" -o - --format html | cmp -s - "$work/t.html" &&
    fail "the page of another path is the same"
expect 0 "" "$mmtree" render "$work/mm46.txt" -o "$work/t.htm"
[ "$(grep -c 'id="mmtree-data"' "$work/t.htm")" -eq 1 ] || fail "t.htm: no data"
expect 2 "the tree guesses 1122 there, not 1123" "$mmtree" render "$work/mm46.txt" -o "$work/p.html" -P 1123:B
[ -e "$work/p.html" ] && fail "p.html written after a bad path"

# Without Graphviz, drawings fail and point to HTML; the rest needs it.
if "$mmtree" render "$work/mm23.txt" -o "$work/x.dot" 2>"$work/err"; then :; else
    grep -q "built without Graphviz: it cannot draw dot; it can write the tree as a page" \
        "$work/err" || fail "no Graphviz: $(cat "$work/err")"
    echo "mmtree was built without Graphviz: skipping the drawings" >&2
    [ "$fails" -eq 0 ]
fi


# The DOT text through a file is the golden one.
expect 0 "" "$mmtree" render "$work/mm23.txt" -o "$work/mm23.dot"
cmp -s "$work/mm23.dot" "$golden/mm23-knuth.dot" || fail "mm23.dot differs from the golden file"
expect 0 "" "$mmtree" render "$work/mm46.txt" -o "$work/path.dot" -d 2 -P 1122:B,1344:W
cmp -s "$work/path.dot" "$golden/mm46-knuth-path.dot" || fail "path.dot differs from the golden file"
"$mmtree" render "$work/mm23.txt" -o - --format dot | cmp -s - "$golden/mm23-knuth.dot" ||
    fail "-o - --format dot differs from the golden file"

# SVG: well-formed, one group per node and per edge (MM(4,6): 1378 nodes,
# 82 of them guesses that cannot be the code).
count() { grep -o "$1" "$2" | wc -l | tr -d ' '; }
expect 0 "" "$mmtree" render "$work/mm46.txt" -o "$work/full.svg"
xmllint --noout --nonet "$work/full.svg" || fail "full.svg is not well-formed XML"
[ "$(count '<g id="node[0-9]*" class="node">' "$work/full.svg")" -eq 1378 ] || fail "full.svg: node count"
[ "$(count '<g id="edge[0-9]*" class="edge">' "$work/full.svg")" -eq 1377 ] || fail "full.svg: edge count"
[ "$(count 'stroke-dasharray' "$work/full.svg")" -eq 82 ] || fail "full.svg: dashed count"
expect 0 "" "$mmtree" render "$work/mm46.txt" -o "$work/d3.svg" --depth 3 --layout radial
xmllint --noout --nonet "$work/d3.svg" || fail "d3.svg is not well-formed XML"
[ "$(count 'class="node"' "$work/d3.svg")" -eq 120 ] || fail "d3.svg: node count"

# PNG: signature, then IHDR.
expect 0 "" "$mmtree" render "$work/mm46.txt" -o "$work/d2.png" -d 2
[ "$(head -c 16 "$work/d2.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a0000000d49484452 ] ||
    fail "d2.png: no PNG signature and IHDR"

# A budget collapses the tree and says so.
expect 0 "drew 3 levels (120 nodes)" "$mmtree" render "$work/mm46.txt" -o "$work/b.svg" -m 683
one_line "-m 683"
expect 0 "" "$mmtree" render "$work/mm46.txt" -o "$work/b.svg" -m 683 -q

# The whole MM(4,6) tree is some 34,000 points wide: PNG and PDF draw 3
# levels and say so, within their largest page; Graphviz says nothing.
expect 0 "more than 3 levels would not fit a png page (16000 pixels a side): drew 3 levels" \
    "$mmtree" render "$work/mm46.txt" -o "$work/whole.png"
one_line "whole.png"
png_w=$(od -An -tu1 -j16 -N4 "$work/whole.png" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
[ "$png_w" -le 16000 ] && [ "$png_w" -gt 5000 ] || fail "whole.png is $png_w pixels wide"
expect 0 "more than 3 levels would not fit a pdf page (14400 points a side)" \
    "$mmtree" render "$work/mm46.txt" -o "$work/whole.pdf"
one_line "whole.pdf"
pdf_w=$(grep -a -o '/MediaBox \[ [0-9]* [0-9]* [0-9]*' "$work/whole.pdf" | head -1 | awk '{ print $5 }')
[ -n "$pdf_w" ] && [ "$pdf_w" -le 14400 ] && [ "$pdf_w" -gt 5000 ] || fail "whole.pdf is $pdf_w points wide"
expect 0 "" "$mmtree" render "$work/mm46.txt" -o "$work/whole.png" -q
[ -s "$dir/err" ] && fail "whole.png -q: $(cat "$dir/err")"

# Left to right; one code's path in red; tooltips.
expect 0 "" "$mmtree" render "$work/mm46.txt" -o "$work/lr.dot" -d 3 --rankdir LR
grep -q "rankdir=LR" "$work/lr.dot" || fail "lr.dot: no rankdir=LR"
expect 2 "unknown rankdir 'XY'" "$mmtree" render "$work/mm46.txt" -o "$work/lr.dot" -r XY
expect 2 "rankdir LR is for the tree layout" "$mmtree" render "$work/mm46.txt" -o "$work/lr.svg" -r LR -l radial
expect 0 "" "$mmtree" render "$work/mm46.txt" -o "$work/hl.svg" --highlight 3632
[ "$(count 'stroke="#d62728"' "$work/hl.svg")" -ge 9 ] || fail "hl.svg: the path of 3632 is not red"
grep -q '<a xlink:title="1122:B,1344:W: guess 3526, 44 codes, E=2.75 max=3">' "$work/hl.svg" ||
    fail "hl.svg: no tooltip for 1122:B,1344:W"
expect 2 "--highlight 36x2: '36x2' is not a code" "$mmtree" render "$work/mm46.txt" -o "$work/hl.svg" -H 36x2
expect 2 "1111 does not reach the start of the drawing" "$mmtree" render "$work/mm46.txt" -o "$work/hl.svg" -H 1111 -P 1122:B
expect 0 "" "$mmtree" render "$work/mm46.txt" -o "$work/hl.html" -H 3632
grep -q '"highlight": "3632"' "$work/hl.html" || fail "hl.html: no highlight"

# More than 20000 nodes: refused (at once) unless forced; an output that
# cannot be written fails before the layout, which would take minutes.
big=$golden/../mm58-entropy.mmt
expect 2 "the drawing would have 34824 nodes: Graphviz takes minutes" "$mmtree" render "$big" -o "$work/big.svg" -m 0
grep -q -- "--force" "$dir/err" || fail "the refusal does not name --force"
expect 2 "cannot write" "$mmtree" render "$big" -o "$work/no/such/big.svg" -m 0 --force

# Bad input: a path not in the tree, an unwritable output.
expect 2 "the tree guesses 1344 there, not 1345" "$mmtree" render "$work/mm46.txt" -o "$work/p.svg" -P 1122:B,1345:W
expect 2 "is not a reply" "$mmtree" render "$work/mm46.txt" -o "$work/p.svg" -P 1122:Q
expect 2 "ends the game" "$mmtree" render "$work/mm46.txt" -o "$work/p.svg" -P 1122:BBBB
[ -e "$work/p.svg" ] && fail "p.svg written after a bad path"
expect 2 "cannot write" "$mmtree" render "$work/mm46.txt" -o "$work/no/such/dir.svg"
[ "$fails" -eq 0 ]
