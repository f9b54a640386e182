#!/bin/sh
# usage: provenance.sh MMTREE
#
# What stats, verify and convert show of a tree's provenance: an unproven
# tree says "not proven optimal, lower bound N" in all four formats, its
# JSON (stats and verify) parses with python3 -m json.tool and says
# "proven": false and "lower_bound": N; a one-step tree's JSON has no
# "proven" key.
set -u
mmtree=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
status=0
fail() { echo "FAIL: $*"; status=1; }

cat > "$tmp/u.txt" <<'EOF'
# mmtree pegs=2 colors=3 repeat=yes notation=knuth
# rule: optimal-worst first=11 max-depth=5
# proof: unproven lower-bound=22 worst-lower-bound=3
9(11: 0,0,4(22x);0,4(12);1)
EOF
"$mmtree" convert "$tmp/u.txt" -f irving -o "$tmp/u.irv" || fail "to irving"
"$mmtree" convert "$tmp/u.irv" -o "$tmp/u.xml" || fail "to xml"
"$mmtree" convert "$tmp/u.xml" -o "$tmp/u.mmt" || fail "to bin"
"$mmtree" convert "$tmp/u.mmt" -o "$tmp/u2.txt" || fail "back to knuth"
cmp -s "$tmp/u.txt" "$tmp/u2.txt" || fail "knuth -> irving -> xml -> bin -> knuth: $(diff "$tmp/u.txt" "$tmp/u2.txt")"

for f in u.txt u.irv u.xml u.mmt; do
    "$mmtree" stats "$tmp/$f" > "$tmp/out" || fail "stats $f"
    grep -qx 'rule:         optimal-worst, first guess 11, max depth 5' "$tmp/out" ||
        fail "stats $f: rule line: $(grep rule "$tmp/out")"
    grep -qx 'proof:        not proven optimal, lower bound 22 (worst case at least 3)' "$tmp/out" ||
        fail "stats $f: proof line: $(grep proof "$tmp/out")"
    "$mmtree" verify "$tmp/$f" > "$tmp/out" || fail "verify $f"
    grep -q 'not proven optimal, lower bound 22' "$tmp/out" || fail "verify $f: no proof line"
done

if ! command -v python3 > /dev/null 2>&1; then
    echo "SKIP: the JSON checks need python3"
    [ $status -eq 0 ] && exit 77
    exit $status
fi
# json FILE KEY: the value of a top-level key, or "absent".
json() {
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(json.dumps(d[sys.argv[2]]) if sys.argv[2] in d else "absent")' "$1" "$2"
}
for f in u.txt u.mmt; do
    for cmd in stats verify; do
        "$mmtree" $cmd --json "$tmp/$f" > "$tmp/j" || fail "$cmd --json $f"
        python3 -m json.tool "$tmp/j" > /dev/null || fail "$cmd --json $f: not JSON"
        [ "$(json "$tmp/j" proven)" = false ] || fail "$cmd --json $f: proven"
        [ "$(json "$tmp/j" lower_bound)" = 22 ] || fail "$cmd --json $f: lower_bound"
        [ "$(json "$tmp/j" worst_lower_bound)" = 3 ] || fail "$cmd --json $f: worst_lower_bound"
    done
done
sed 's/^# proof: .*/# proof: proven/' "$tmp/u.txt" > "$tmp/p.txt"
"$mmtree" stats "$tmp/p.txt" | grep -qx 'proof:        proven optimal' || fail "proven: text"
"$mmtree" stats --json "$tmp/p.txt" > "$tmp/j" && python3 -m json.tool "$tmp/j" > /dev/null &&
    [ "$(json "$tmp/j" proven)" = true ] && [ "$(json "$tmp/j" lower_bound)" = absent ] ||
    fail "proven: JSON"
"$mmtree" build -q -o "$tmp/k.mmt" || fail "build"
for cmd in stats verify; do
    "$mmtree" $cmd --json "$tmp/k.mmt" > "$tmp/j" && python3 -m json.tool "$tmp/j" > /dev/null ||
        fail "$cmd --json of a one-step tree: not JSON"
    [ "$(json "$tmp/j" proven)" = absent ] || fail "$cmd --json of a one-step tree says proven"
    [ "$(json "$tmp/j" rule)" = '"knuth"' ] || fail "$cmd --json of a one-step tree: rule"
done
[ $status -eq 0 ] && echo "ok"
exit $status
