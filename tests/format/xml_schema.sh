#!/bin/sh
# xmllint accepts, against schemas/mmtree.xsd, every XML file mmtree
# writes: each one-step rule on MM(3,4), MM(4,6), 4N, Bulls and Cows and
# MM(5,6) (with stats, as `build` writes them), rule options, and the
# hand-made documents of tests/format/good (which mmtree must read too).
# usage: xml_schema.sh MMTREE SOURCE_ROOT
set -u
mmtree=$1
root=$2
command -v xmllint >/dev/null 2>&1 || { echo "xmllint missing (libxml2-utils)"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
validate() {
    n=$((n + 1))
    if ! xmllint --noout --schema "$root/schemas/mmtree.xsd" "$1" 2>"$tmp/err"; then
        echo "FAIL: xmllint rejects $2:"
        head -n 5 "$tmp/err"
        fail=1
    fi
}
for game in "-p 3 -c 4" "-p 4 -c 6" "-p 4 -c 4 -n" "-p 4 -c 10 -n" "-p 5 -c 6"; do
    for rule in naive knuth irving entropy kooi branch2 e3; do
        # shellcheck disable=SC2086
        if ! "$mmtree" build $game -r "$rule" -q -o "$tmp/t.xml"; then
            echo "FAIL: mmtree build $game -r $rule"
            fail=1
            continue
        fi
        validate "$tmp/t.xml" "build $game -r $rule"
    done
done
"$mmtree" build -p 3 -c 5 -r knuth --consistent-only --first 123 -q -f xml -o "$tmp/o.xml" &&
    validate "$tmp/o.xml" "build --consistent-only --first 123" ||
    { echo "FAIL: build with options"; fail=1; }
grep -q 'consistent-only="true" first="123"' "$tmp/o.xml" ||
    { echo "FAIL: rule options not written"; fail=1; }
for f in "$root"/tests/format/good/*.xml; do
    validate "$f" "$f"
    "$mmtree" stats "$f" >/dev/null || { echo "FAIL: mmtree cannot read $f"; fail=1; }
done
echo "$n documents validated"
exit $fail
