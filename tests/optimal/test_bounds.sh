#!/bin/sh
# mmtree build --bounds-from: a search within a depth (optimal-worst,
# --max-depth) takes the facts of the optimal search's checkpoint as
# bounds.  The same trees as without, byte for byte, in fewer sets:
# MM(4,6), whose optimum (5625) needs 6 guesses, so that its facts are
# bounds only where a tree within 5 is asked for (5626, Koyama and Lai),
# and MM(4,4), whose optimum fits the least worst case.  Every file that
# is not the optimal search's checkpoint of the same codes is refused in
# one line, as are the searches it cannot bound.
mmtree=$1
. "${0%/*}/../lib.sh"

# field NAME FILE: the number after NAME in a build's summary.
field() {
    sed -n "s/^mmtree: .* $1 \([0-9]*\)[,;].*/\1/p" "$2"
}
sets() {
    sed -n 's/^mmtree: proven optimal: \([0-9]*\) sets searched.*/\1/p' "$1"
}

# same NAME ARGS...: the build of ARGS without bounds and with the
# checkpoint $ck as bounds write the same tree, proven, the second in
# fewer sets; $total and $worst are its figures.
same() {
    local name=$1 a b
    shift
    "$mmtree" build "$@" -j1 -o "$dir/$name-a.mmt" 2>"$dir/a" || fail "$name: exit $?"
    "$mmtree" build "$@" -j1 --bounds-from "$ck" -o "$dir/$name-b.mmt" 2>"$dir/b" ||
        fail "$name with bounds: exit $?"
    cmp -s "$dir/$name-a.mmt" "$dir/$name-b.mmt" || fail "$name: another tree with bounds"
    total=$(field total "$dir/b")
    worst=$(field worst "$dir/b")
    a=$(sets "$dir/a")
    b=$(sets "$dir/b")
    [ -n "$a" ] && [ -n "$b" ] && [ "$b" -lt "$a" ] ||
        fail "$name: $b sets with bounds, $a without (not proven, or not fewer)"
    has "$dir/b" "mmtree: bounds from '$ck': "
    has "$dir/b" "of the bounds' checkpoint"
    "$mmtree" verify "$dir/$name-b.mmt" >"$dir/v" || fail "$name: verify: exit $?"
    has "$dir/v" "proof:        proven optimal"
    ok "$name: total $total, worst $worst, $b sets with bounds, $a without"
}

ck=$dir/o46.ckpt
"$mmtree" build -p 4 -c 6 -r optimal -j1 --checkpoint "$ck" --keep-checkpoint \
    -o /dev/null 2>"$dir/build" || fail "MM(4,6) optimal: exit $?"
[ "$(field total "$dir/build")" = 5625 ] && [ "$(field worst "$dir/build")" = 6 ] ||
    fail "MM(4,6) optimal: not 5625 in 6"
same w46 -p 4 -c 6 -r optimal-worst
[ "$total" = 5626 ] && [ "$worst" = 5 ] || fail "MM(4,6) optimal-worst: $total in $worst"
same d46 -p 4 -c 6 -r optimal --max-depth 5
[ "$total" = 5626 ] && [ "$worst" = 5 ] || fail "MM(4,6) within 5: $total in $worst"

ck44=$dir/o44.ckpt
"$mmtree" build -p 4 -c 4 -r optimal -j1 --checkpoint "$ck44" --keep-checkpoint \
    -o /dev/null 2>"$dir/build" || fail "MM(4,4) optimal: exit $?"
t44=$(field total "$dir/build")
ck=$ck44
same w44 -p 4 -c 4 -r optimal-worst
[ "$total" = "$t44" ] || fail "MM(4,4): the optimum $t44 fits its least worst case, not $total"

# A worst-case search's checkpoint, resumed with the bounds: the same
# tree; the checkpoint is marked as counting only part of its work.
ck=$dir/o46.ckpt
"$mmtree" build -p 4 -c 6 -r optimal-worst -j1 --bounds-from "$ck" --checkpoint "$dir/w.ckpt" \
    --keep-checkpoint -o "$dir/w1.mmt" 2>/dev/null || fail "saved with bounds: exit $?"
# it holds the bounds' facts, not their time: marked so
"$mmtree" checkpoint "$dir/w.ckpt" >"$dir/info" || fail "checkpoint w.ckpt: exit $?"
has "$dir/info" "(and work it does not count)"
"$mmtree" build -p 4 -c 6 -r optimal-worst -j1 --bounds-from "$ck" --checkpoint "$dir/w.ckpt" \
    -o "$dir/w2.mmt" 2>"$dir/b" || fail "resumed with bounds: exit $?"
cmp -s "$dir/w1.mmt" "$dir/w46-a.mmt" && cmp -s "$dir/w2.mmt" "$dir/w46-a.mmt" ||
    fail "a checkpoint with bounds: another tree"
has "$dir/b" "resuming from '$dir/w.ckpt'"
has "$dir/b" "not all of the processor time counted"

# Refused: searches it cannot bound, and every other file.
expect 2 "within a depth" "$mmtree" build -p 4 -c 6 -r optimal --bounds-from "$ck" -o /dev/null
expect 2 "consistent-only" "$mmtree" build -p 4 -c 6 -r optimal-worst --consistent-only \
    --bounds-from "$ck" -o /dev/null
expect 2 "bounds-from" "$mmtree" build -p 4 -c 6 -r knuth --bounds-from "$ck" -o /dev/null
"$mmtree" build -p 4 -c 6 -r optimal-worst -j1 --checkpoint "$dir/w46.ckpt" --keep-checkpoint \
    -o /dev/null 2>/dev/null
expect 2 "w46.ckpt.*optimal-worst, not of MM(4,6) optimal" "$mmtree" build -p 4 -c 6 \
    -r optimal-worst --bounds-from "$dir/w46.ckpt" -o /dev/null
expect 2 "o44.ckpt.*MM(4,4) optimal, not of MM(4,6) optimal" "$mmtree" build -p 4 -c 6 \
    -r optimal-worst --bounds-from "$ck44" -o /dev/null
"$mmtree" build -p 4 -c 6 -r optimal --max-depth 5 -j1 --checkpoint "$dir/d5.ckpt" \
    --keep-checkpoint -o /dev/null 2>/dev/null
expect 2 "within 5 guesses, not 0" "$mmtree" build -p 4 -c 6 -r optimal-worst \
    --bounds-from "$dir/d5.ckpt" -o /dev/null
expect 2 "another position" "$mmtree" build -p 4 -c 6 -r optimal-worst --after 1123:B \
    --bounds-from "$ck"
expect 2 "nothere.ckpt" "$mmtree" build -p 4 -c 6 -r optimal-worst \
    --bounds-from "$dir/nothere.ckpt" -o /dev/null
head -c 1000 "$ck" >"$dir/cut.ckpt"
expect 2 "cut.ckpt" "$mmtree" build -p 4 -c 6 -r optimal-worst \
    --bounds-from "$dir/cut.ckpt" -o /dev/null
[ ! -e "$dir/nothere.ckpt" ] || fail "a missing bounds file was created"

[ "$fails" -eq 0 ]
