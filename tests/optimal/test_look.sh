#!/bin/sh
# mmtree checkpoint --after: what a checkpoint has proven about a
# position and each guess there.  A finished search of MM(4,4) kept with
# --keep-checkpoint: the root's fact is the value the build printed
# (total, worst case, first guess), under each rule (the consistent-only
# search keys its sets apart, the worst-case search per depth); the
# first guess's row is exact at that total, each of its parts' values
# equals the optimum a separate search of that part finds (build
# --after), and no exact row is below the optimum; guesses alike share a
# row, which loses none of them; --json says the same;
# a path that is not a position, or a file damaged past its header, is
# refused in one line.
mmtree=$1
. "${0%/*}/../lib.sh"

# field NAME FILE: the number after NAME in a build's one-line summary.
field() {
    sed -n "s/^mmtree: MM.* $1 \([0-9]*\),.*/\1/p" "$2"
}

for rule in optimal optimal-consistent optimal-worst; do
    ck=$dir/$rule.ckpt
    "$mmtree" build -p 4 -c 4 -r $rule -j1 --checkpoint "$ck" --keep-checkpoint \
        -o "$dir/$rule.mmt" 2>"$dir/build"
    total=$(field total "$dir/build")
    worst=$(field worst "$dir/build")
    first=$(sed -n 's/.*first guess \([1-4]*\),.*/\1/p' "$dir/build")
    [ -n "$total" ] && [ -n "$first" ] || fail "$rule: no summary"
    expect 0 "" "$mmtree" checkpoint "$ck" --after ''
    within=
    [ $rule = optimal-worst ] && within=", within $worst guesses"
    has "$dir/out" "position:     the root (256 codes): total $total, worst case $worst ("
    has "$dir/out" "), guess $first$within"
done

# Guesses alike share a row: the rows and the guesses they stand for
# add up to the count, and MM(4,4)'s 1212 and 1221 (each other's image,
# their parts the same sizes) are one.
ck=$dir/optimal.ckpt
"$mmtree" checkpoint "$ck" --after '' >"$dir/root"
count=$(sed -n 's/^guesses: *\([0-9]*\) with.*/\1/p' "$dir/root")
rows=$(awk '/^  [1-4]+ / { n += 1; if (/alike\)$/) n += $(NF - 1) } END { print n }' "$dir/root")
[ -n "$count" ] && [ "$count" = "$rows" ] || fail "$count guesses, $rows on the rows"
grep -q '^  1212 .*(and [0-9]* alike)$' "$dir/root" && ! grep -q '^  1221 ' "$dir/root" ||
    fail "1212 and 1221 not on one row"
"$mmtree" checkpoint "$ck" --after '' --json | python3 -c '
import json, sys
p = json.load(sys.stdin)["position"]
assert len(p["guesses"]) == int(sys.argv[1]), len(p["guesses"])' "$count" ||
    fail "--json: not every guess"

# The optimal search's first guess, part by part.
"$mmtree" build -p 4 -c 4 -r optimal -j1 -o /dev/null 2>"$dir/build"
total=$(field total "$dir/build")
first=$(sed -n 's/.*first guess \([1-4]*\),.*/\1/p' "$dir/build")
"$mmtree" checkpoint "$ck" --after '' >"$dir/root"
row=$(grep "^  $first " "$dir/root" | sed 's/  (and [0-9]* alike)$//')
set -- $row
[ "$2" = "$total" ] || fail "the first guess's row '$row': not exact at $total"
# every exact row is a guess's value: none below the optimum, and the
# first guess's among them
exact_min=$(awk '/^  [1-4]+ +[0-9]+ / { print $2 }' "$dir/root" | sort -n | head -n 1)
[ "$exact_min" = "$total" ] || fail "the least exact row is $exact_min, not $total"
# the parts, in reply order: partition lists the replies in that order
"$mmtree" partition -p 4 -c 4 "$first" | awk '$1 ~ /^([BW]+|-)$/ && $2 > 0 { print $1 }' \
    >"$dir/replies"
shift 2
n=0
for reply in $(grep -v BBBB "$dir/replies"); do
    n=$((n + 1))
    part=$1
    shift
    codes=${part%%=*}
    value=${part#*=}
    [ "$value" = "$part" ] && { fail "part $reply of $first: no value in '$row'"; continue; }
    "$mmtree" build -p 4 -c 4 -r optimal -j1 --after "$first:$reply" >"$dir/part" 2>&1
    want=$(sed -n 's/^total: *//p' "$dir/part")
    got_codes=$(sed -n 's/^codes: *//p' "$dir/part")
    [ "$value" = "$want" ] && [ "$codes" = "$got_codes" ] ||
        fail "part $reply of $first: checkpoint $codes=$value, a search of it $got_codes=$want"
done
[ $n -ge 10 ] && [ $# -eq 0 ] || fail "$first: $n replies, $# parts left over in '$row'"
ok "the $n parts of $first"

# --json: the same figures
"$mmtree" checkpoint "$ck" --after "$first:B" --json >"$dir/json" || fail "--json"
"$mmtree" build -p 4 -c 4 -r optimal -j1 --after "$first:B" >"$dir/part" 2>&1
python3 - "$dir/json" "$(sed -n 's/^total: *//p' "$dir/part")" <<'EOF' || fail "--json"
import json, sys
d = json.load(open(sys.argv[1]))
p = d["position"]
want = int(sys.argv[2])
assert p["path"].endswith(":B") and p["fact"]["exact"], p["fact"]
assert p["fact"]["total"] == want, (p["fact"], want)
best = [g for g in p["guesses"] if g["exact"] and g["total"] == want]
assert best and all(g["total"] >= want for g in p["guesses"] if g["exact"]), p["guesses"]
for g in p["guesses"]:
    assert sum(q["codes"] for q in g["parts"]) <= p["codes"]
    parts = sum(q["fact"]["total"] if q["fact"] and not q["fact"]["within"] else 0
                for q in g["parts"])
    assert g["total"] >= p["codes"] + parts, g
print("ok: --json at", p["path"], "total", want, "guesses", len(p["guesses"]))
EOF

# -- paths that are not positions
expect 2 "--after: the game is over after $first:BBBB" "$mmtree" checkpoint "$ck" \
    --after "$first:BBBB"
expect 2 "--after: no code of MM(4,4) gives the replies" "$mmtree" checkpoint "$ck" \
    --after "$first:B,$first:W"
expect 2 "--after: path step 1" "$mmtree" checkpoint "$ck" --after 12
expect 2 "--after: path step 1" "$mmtree" checkpoint "$ck" --after "1235:B"
printf 'not a checkpoint' >"$dir/bad.ckpt"
expect 2 "bad.ckpt" "$mmtree" checkpoint "$dir/bad.ckpt" --after ''
# --after reads the header alone before the look, which checks the rest:
# a file cut short, or with a byte of its last entry changed, is refused
size=$(wc -c <"$ck")
head -c $((size - 100)) "$ck" >"$dir/cut.ckpt"
expect 2 "cut.ckpt: byte" "$mmtree" checkpoint "$dir/cut.ckpt" --after ''
python3 -c '
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[-20] ^= 1
open(sys.argv[2], "wb").write(b)' "$ck" "$dir/flip.ckpt"
expect 2 "flip.ckpt: byte .*damaged" "$mmtree" checkpoint "$dir/flip.ckpt" --after ''
exit $((fails > 0))
