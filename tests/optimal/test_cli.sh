#!/bin/sh
# mmtree build with an optimal rule: exit status 3 when the search stops
# before its proof (time limit, SIGINT, SIGTERM, SIGHUP) with the best
# tree written, 0 only when complete; a second signal ends at once and
# leaves no file; options of the optimal rules are refused with the
# others; the checkpoint may not be the output file; resuming says so, a
# bad checkpoint is refused, a failed final save still writes the tree;
# a big game stopped at once writes the best one-step tree of any guess;
# --start: a tree that does not fit the search is refused naming its
# file, a finished search writes the same tree with it as without, a
# stopped one the start tree when it found nothing better; --table-size
# bounds the table and its checkpoint; --polish betters a stopped tree,
# and a signal during the polish ends it with what it bettered.
mmtree=$1
. "${0%/*}/../lib.sh"

# A tree file that verifies, of the given game.
valid_tree() {
    "$mmtree" verify "$1" >/dev/null 2>&1
}

# built FIELD ARGS...: the total or the worst case in the one-line
# summary of 'mmtree build ARGS' (the tree itself goes nowhere).
built() {
    field=$1
    shift
    "$mmtree" build "$@" -o /dev/null 2>&1 | sed -n "s/^mmtree: MM.* $field \([0-9]*\),.*/\1/p"
}

# -- options the one-step rules do not take
# (--progress they take: tests/cli/test_build_progress.sh)
for opt in "--time-limit 5" "--checkpoint $dir/c.ckpt" "--value-only" "--keep-checkpoint" \
    "--start $dir/none.mmt" "--table-size 64" "--polish 10"; do
    name=${opt%% *}
    expect 2 "$name applies to the optimal rules only" "$mmtree" build --rule knuth $opt
done
[ -e "$dir/c.ckpt" ] && fail "a refused --checkpoint was written"

# -- --table-size: the table of solved sets holds at most that much, so
# does the checkpoint saved from it; the tree is the same.  MM(4,8)
# keeps some 620,000 sets: 19 MB from a table of the default size.
expect 2 "--table-size must be 16..1048576, not '8'" "$mmtree" build --rule optimal --table-size 8
expect 0 "proven optimal" "$mmtree" build -p 4 -c 8 --rule optimal --table-size 16 \
    --checkpoint "$dir/ts.ckpt" --keep-checkpoint -o "$dir/ts.mmt"
size=$(wc -c < "$dir/ts.ckpt")
[ "$size" -le $((16 * 1048576 + 52)) ] || fail "--table-size 16: a checkpoint of $size bytes"
cmp -s "$dir/ts.mmt" "${0%/*}/../../trees/optima/mm4-8-optimal.mmt" ||
    fail "--table-size 16: not the tree of trees/optima/mm4-8-optimal.mmt"
rm -f "$dir/ts.ckpt"

# -- the checkpoint is not the output, by any name
touch "$dir/x.mmt"
ln -s x.mmt "$dir/sym.mmt"
ln "$dir/x.mmt" "$dir/hard.mmt"
ln -s missing.mmt "$dir/dangling.mmt"
mkdir "$dir/sub"
expect 2 "is the output file" "$mmtree" build --rule optimal --checkpoint "$dir/x.mmt" -o "$dir/x.mmt"
expect 2 "is the output file" "$mmtree" build --rule optimal --checkpoint "$dir/sym.mmt" -o "$dir/x.mmt"
expect 2 "is the output file" "$mmtree" build --rule optimal --checkpoint "$dir/hard.mmt" -o "$dir/x.mmt"
expect 2 "is the output file" "$mmtree" build --rule optimal --checkpoint "$dir/sub/../new.mmt" \
    -o "$dir/new.mmt"
expect 2 "is the output file" "$mmtree" build --rule optimal --checkpoint "$dir/missing.mmt" \
    -o "$dir/dangling.mmt"
[ -s "$dir/x.mmt" ] && fail "a refused run wrote x.mmt"

# -- complete: 0; stopped by the clock: 3, the best tree written
expect 0 "proven optimal" "$mmtree" build -p 3 -c 4 --rule optimal -o "$dir/p.mmt"
for rule in optimal optimal-consistent optimal-worst; do
    rm -f "$dir/t.mmt"
    expect 3 "not proven optimal" "$mmtree" build -p 4 -c 7 --rule $rule -j1 --time-limit 0.001 \
        -o "$dir/t.mmt"
    valid_tree "$dir/t.mmt" || fail "$rule --time-limit: no valid tree written"
done

# -- the stopped search's tree is marked in every format, with the bound
# the warning gives
for out in t.txt t.xml t.mmt "t.irv -f irving"; do
    # shellcheck disable=SC2086
    "$mmtree" build -p 4 -c 7 --rule optimal -j1 --time-limit 0.001 -o "$dir/"$out \
        2>"$dir/err"
    f=$dir/${out%% *}
    lb=$(sed -n 's/.*proven lower bound \([0-9]*\)$/\1/p' "$dir/err")
    if "$mmtree" stats "$f" | grep -qx "proof: *not proven optimal, lower bound ${lb:-x}"; then
        ok "stopped, $out: marked not proven, lower bound $lb"
    else
        fail "stopped, $out: not marked with bound '$lb': $("$mmtree" stats "$f" 2>&1 | head -3)"
    fi
done

# -- checkpoints: saved when stopped, resumed (saying so), removed once
# proven unless kept; a damaged one refused
ck=$dir/c.ckpt
rm -f "$ck"
expect 3 "not proven" "$mmtree" build --rule optimal -j1 --time-limit 0.001 --checkpoint "$ck" \
    -o "$dir/t.mmt"
[ -s "$ck" ] || fail "a stopped run saved no checkpoint"
cp "$ck" "$dir/saved.ckpt"
expect 0 "resuming from '$ck': [1-9][0-9]* sets, 1 run, [0-9]*\.[0-9] s of processor time$" \
    "$mmtree" build --rule optimal -j1 --checkpoint "$ck" -o "$dir/t.mmt"
[ -e "$ck" ] && fail "a proven run left its checkpoint"
grep -q "^mmtree: processor time [0-9]*\.[0-9] s, [0-9]*\.[0-9] s with the 1 earlier run of the checkpoint$" \
    "$dir/err" || fail "the resumed run's summary gave no processor time: $(cat "$dir/err")"
cp "$dir/saved.ckpt" "$ck"
expect 0 "resuming from" "$mmtree" build --rule optimal -j1 --checkpoint "$ck" --keep-checkpoint \
    -o "$dir/t.mmt"
[ -s "$ck" ] || fail "--keep-checkpoint: removed"
printf 'x' | dd of="$ck" bs=1 seek=100 conv=notrunc 2>/dev/null
expect 2 "$ck: byte [0-9]*: error: checkpoint is damaged" "$mmtree" build --rule optimal \
    --checkpoint "$ck" -o "$dir/t.mmt"
expect 2 "checkpoint of MM(4,6) optimal, not of MM(4,6) optimal-worst" "$mmtree" build \
    --rule optimal-worst --checkpoint "$dir/saved.ckpt" -o "$dir/t.mmt"
expect 2 "not a regular file" "$mmtree" build --rule optimal --checkpoint /dev/null -o "$dir/t.mmt"

# -- --start: refused unless it fits the search, naming the file
"$mmtree" build -p 4 -c 5 --rule entropy -q -o "$dir/e45.mmt"      # 2476, inconsistent
"$mmtree" build -p 4 -c 5 --rule optimal -j1 -q -o "$dir/o45.mmt"  # 2463, worst 5
expect 2 "^$dir/e45.mmt: error: a tree of MM(4,5), not of MM(4,6)" "$mmtree" build \
    --rule optimal --start "$dir/e45.mmt"
expect 2 "^$dir/e45.mmt: error: 37 of its guesses cannot be the code" "$mmtree" build -p 4 -c 5 \
    --rule optimal-consistent --start "$dir/e45.mmt"
expect 2 "^$dir/o45.mmt: error: it needs 5 guesses, more than the depth limit 4" "$mmtree" build \
    -p 4 -c 5 --rule optimal --max-depth 4 --start "$dir/o45.mmt"
expect 2 "^$dir/o45.mmt: error: its first guess is 1123, not the fixed one 1234" "$mmtree" build \
    -p 4 -c 5 --rule optimal --first 1234 --start "$dir/o45.mmt"
expect 2 "^$dir/o45.mmt: error: path step 1: the tree guesses 1123 there" "$mmtree" build \
    -p 4 -c 5 --rule optimal --after 1234:BB --start "$dir/o45.mmt"
"$mmtree" convert "$dir/o45.mmt" -o "$dir/bad.txt"
sed -i 's/^625(/624(/' "$dir/bad.txt"
expect 2 "^$dir/bad.txt:[0-9:]* error: " "$mmtree" build -p 4 -c 5 --rule optimal \
    --start "$dir/bad.txt"
expect 2 "cannot open\|No such file" "$mmtree" build -p 4 -c 5 --rule optimal \
    --start "$dir/none.mmt"
expect 2 "^mmtree: error: rule optimal has no ties to break" "$mmtree" build -p 4 -c 5 \
    --rule optimal --tie last --start "$dir/o45.mmt"
# finished: the tree of a run without it, byte for byte, from a worse
# start, an optimal one and one of any guess for optimal-worst
for rule in optimal optimal-worst; do
    "$mmtree" build -p 4 -c 5 --rule $rule -j1 -q -o "$dir/want.mmt"
    for s in e45 o45; do
        "$mmtree" build -p 4 -c 5 --rule $rule -j1 -q --start "$dir/$s.mmt" -o "$dir/got.mmt"
        if cmp -s "$dir/want.mmt" "$dir/got.mmt"; then
            ok "$rule --start $s: the tree of a run without it"
        else
            fail "$rule --start $s: not the tree of a run without it"
        fi
    done
done
"$mmtree" build -p 4 -c 5 --rule optimal -j1 -q --after 1123:B --start "$dir/o45.mmt" \
    >"$dir/pos.txt" || fail "--after 1123:B --start: refused"
grep -q "^total: *" "$dir/pos.txt" || fail "--after 1123:B --start: $(cat "$dir/pos.txt")"
# stopped: the start tree (trees/optima's MM(4,7) optimum, which nothing
# beats), marked not proven with the bound; without it a worse tree
opt47=${0%/*}/../../trees/optima/mm4-7-optimal.mmt
expect 3 "not proven optimal: total 11228, proven lower bound" "$mmtree" build -p 4 -c 7 \
    --rule optimal -j1 --time-limit 0.001 --start "$opt47" -o "$dir/t.txt"
"$mmtree" convert "$opt47" -o "$dir/o47.txt"
if [ "$(grep -v '^#' "$dir/t.txt")" = "$(grep -v '^#' "$dir/o47.txt")" ] &&
    "$mmtree" stats "$dir/t.txt" | grep -q "^proof: *not proven optimal, lower bound"; then
    ok "stopped with --start: the start tree, marked not proven"
else
    fail "stopped with --start: not the start tree marked not proven"
fi
expect 3 "not proven optimal: total 11[3-9][0-9][0-9]," "$mmtree" build -p 4 -c 7 \
    --rule optimal -j1 --time-limit 0.001 -o "$dir/t.txt"

# -- stopped before it had a tree within --max-depth: it says so
expect 3 "warning: the tree needs [67] guesses, more than --max-depth 5: the search stopped before it had one within" \
    "$mmtree" build --rule optimal -j1 --max-depth 5 --time-limit 0.001 -o "$dir/t.mmt"

# -- --polish: the stopped tree's sub-trees solved again.  Every part of
# the root: the optimum from the stopped tree's first guess, which a
# search with it fixed proves; a finished search ignores it.
expect 2 "--polish must be 3..1048576, not '2'" "$mmtree" build --rule optimal --polish 2
expect 3 "^mmtree: polished: [0-9]* sub-trees of at most 2401 codes (or known to the search) solved again, [1-9][0-9]* bettered, [1-9][0-9]* guesses fewer" \
    "$mmtree" build -p 4 -c 7 --rule optimal -j1 --time-limit 0.001 --polish 2401 -o "$dir/p.mmt"
valid_tree "$dir/p.mmt" || fail "--polish: the tree does not verify"
first=$("$mmtree" stats "$dir/p.mmt" | sed -n 's/^first guess: *//p')
got=$("$mmtree" stats "$dir/p.mmt" | sed -n 's/^total: *//p')
want=$(built total -p 4 -c 7 --rule optimal -j1 --first "$first")
if [ -n "$got" ] && [ "$got" = "$want" ]; then
    ok "--polish 2401: $got, the optimum from $first"
else
    fail "--polish 2401: total '$got', the optimum from '$first' is '$want'"
fi
# a start tree over the depth cap is polished into it: MM(4,6)'s optimum
# (5625, 6 guesses) within 5 is 5626, the least total there
opt46=${0%/*}/../../trees/optima/mm4-6-optimal.mmt
expect 3 "^mmtree: MM(4,6) optimal: 1296 codes, first guess 1123, total 5626, expected 4.3410, worst 5" \
    "$mmtree" build --rule optimal -j1 --max-depth 5 --time-limit 0.001 --start "$opt46" \
    --polish 1296 -o "$dir/t.mmt"
"$mmtree" build -p 4 -c 5 --rule optimal -j1 --polish 625 -o "$dir/pf.mmt" 2>"$dir/err"
if cmp -s "$dir/pf.mmt" "$dir/o45.mmt" && ! grep -q polished "$dir/err"; then
    ok "--polish, finished: the same tree, no polish"
else
    fail "--polish, finished: $(cat "$dir/err")"
fi

# -- a big game stopped at once writes a tree at least as good as the
# entropy rule's of any guess (MM(4,10): 56209, the consistent one's 57717;
# worst case 8), in the rule's order: optimal-worst's has a worst case of
# at most 7 (knuth's tree, 58103)
ent=$(built total -p 4 -c 10 --rule entropy)
got=$(built total -p 4 -c 10 --rule optimal -j1 --time-limit 0.001)
if [ -n "$ent" ] && [ -n "$got" ] && [ "$got" -le "$ent" ]; then
    ok "MM(4,10) optimal stopped: total $got, entropy's $ent"
else
    fail "MM(4,10) optimal stopped: total '$got', more than entropy's '$ent'"
fi
got=$(built worst -p 4 -c 10 --rule optimal-worst -j1 --time-limit 0.001)
if [ "$got" = 7 ]; then
    ok "MM(4,10) optimal-worst stopped: worst case $got"
else
    fail "MM(4,10) optimal-worst stopped: worst case '$got', not 7"
fi

# -- optimal-worst stopped in its least-depth search writes a tree of the
# least worst case the one-step rules reach: MM(7,7)n, knuth's 8 guesses
# (irving's and entropy's trees need 9, the consistent ones' 10)
w=$(built worst -p 7 -c 7 -n --rule knuth)
got=$(built worst -p 7 -c 7 -n --rule optimal-worst -j1 --time-limit 0.001)
if [ "$w" = 8 ] && [ "$got" = 8 ]; then
    ok "MM(7,7)n optimal-worst stopped: worst $got, knuth's $w"
else
    fail "MM(7,7)n optimal-worst stopped: worst '$got', knuth's '$w' (8 wanted)"
fi

# -- signals.  A shell starts a background job with SIGINT ignored, and
# mmtree keeps an ignored signal ignored (nohup): env gives it back, and
# SIGHUP and SIGTERM too, for a test suite run under nohup.
nointr=""
env --default-signal=INT,TERM,HUP true 2>/dev/null &&
    nointr="env --default-signal=INT,TERM,HUP"
# Start a search of hours from a checkpoint of it, and wait until it
# says that it resumed: its signal handlers are set by then.
"$mmtree" build -p 5 -c 6 --rule optimal -j1 -q --time-limit 0.001 \
    --checkpoint "$dir/r56.ckpt" -o /dev/null 2>/dev/null
"$mmtree" build -p 5 -c 8 --rule optimal-worst -j1 -q --time-limit 0.001 \
    --checkpoint "$dir/r58.ckpt" -o /dev/null 2>/dev/null
# Wait (20 s at most) until the run writing "$dir/err" says that it
# resumed; saying: 60 s at most until it says $1.
saying() {
    i=0
    while ! grep -q "$1" "$dir/err" && [ $i -lt ${2:-600} ]; do
        sleep 0.1
        i=$((i + 1))
    done
}
resumed() { saying "resuming from" 200; }
start() { # game args...
    rm -f "$dir/s.mmt"
    : > "$dir/err"   # emptied here: the last run's "resuming" must not count
    cp "$dir/r$1.ckpt" "$dir/run.ckpt"
    shift
    $nointr "$mmtree" build "$@" -j1 --checkpoint "$dir/run.ckpt" -o "$dir/s.mmt" \
        2>"$dir/err" &
    pid=$!
    resumed
}
# Wait for it, 60 s at most (a stop takes a fraction of a second; a
# shared machine under load may take many times that); rc gets its exit
# status.  One that hangs says where its threads are before it is killed.
finish() {
    i=0
    while kill -0 $pid 2>/dev/null && [ $i -lt 600 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    if kill -0 $pid 2>/dev/null; then
        for task in /proc/$pid/task/*; do
            echo "$1: thread ${task##*/}: $(grep '^State' "$task/status" 2>/dev/null)," \
                "in $(cat "$task/wchan" 2>/dev/null)" >&2
        done
    fi
    kill -KILL $pid 2>/dev/null && fail "$1: still running after 60 s"
    wait $pid
    rc=$?
}
sigs="TERM HUP"
[ -n "$nointr" ] && sigs="INT $sigs"
for sig in $sigs; do
    start 56 -p 5 -c 6 --rule optimal
    kill -$sig $pid
    finish SIG$sig
    if [ $rc -ne 3 ]; then
        fail "SIG$sig: exit $rc, want 3 ($(cat "$dir/err"))"
    elif ! valid_tree "$dir/s.mmt"; then
        fail "SIG$sig: no valid tree written"
    elif ! "$mmtree" stats "$dir/s.mmt" | grep -q "^proof: *not proven optimal, lower bound"
    then
        fail "SIG$sig: the tree is not marked not proven"
    else
        ok "SIG$sig stops the search: exit 3, the tree written"
    fi
done
# Two signals: the second ends mmtree at once, with no file left behind.
# MM(5,8) optimal-worst spends most of a second on the one-step rules'
# trees after a stop, or half a minute before it goes on to the search:
# the second signal comes then.  (Should it come after the tree is
# written, that tree must be whole.)
start 58 -p 5 -c 8 --rule optimal-worst
kill -TERM $pid
sleep 0.2
kill -TERM $pid
finish "two signals"
leftover=$(ls -A "$dir" | grep '^\.mmtree-')
if [ -n "$leftover" ]; then
    fail "two signals: exit $rc, temporary files left: $(cd "$dir" && ls -l $leftover)"
elif [ $rc -eq 143 ] && [ ! -e "$dir/s.mmt" ]; then
    ok "two signals: ended by the second, nothing written"
elif [ $rc -eq 3 ] && valid_tree "$dir/s.mmt"; then
    ok "two signals: the first finished the tree before the second came"
else
    fail "two signals: exit $rc, file $(ls -l "$dir/s.mmt" 2>&1)"
fi

# A signal during the polish ends it, the tree written with the
# sub-trees bettered by then: after a stop by the clock, the first
# signal; after a stop by a signal, the second.  MM(5,6)'s polish of
# every part of its first guess is a search of minutes.
polish_stop() { # what
    if [ $rc -ne 3 ] || ! valid_tree "$dir/s.mmt" ||
        ! grep -q "^mmtree: polished: .*; stopped, the rest as it was$" "$dir/err"; then
        fail "$1: exit $rc, $(grep -v '^mmtree: [0-9.]* [ms]' "$dir/err")"
    else
        ok "$1: exit 3, $(grep "^mmtree: polished" "$dir/err")"
    fi
}
start 56 -p 5 -c 6 --rule optimal --time-limit 0.2 --polish 7775 --progress 0.05
saying ": polishing"
kill -TERM $pid
finish "a signal during the polish"
polish_stop "a signal during the polish"
start 56 -p 5 -c 6 --rule optimal --polish 7775 --progress 0.05
kill -TERM $pid
saying ": polishing"
kill -TERM $pid
finish "a second signal during the polish"
polish_stop "a second signal during the polish"

# The final save fails (its directory is gone): the tree is written all
# the same, the failure said, exit 3.  The directory goes once the run
# has said that it resumed, so after its start.
mkdir "$dir/gone"
"$mmtree" build -p 5 -c 6 --rule optimal -j1 -q --time-limit 0.001 \
    --checkpoint "$dir/gone/c.ckpt" -o "$dir/s.mmt" 2>/dev/null
rm -f "$dir/s.mmt"
: > "$dir/err"
"$mmtree" build -p 5 -c 6 --rule optimal -j1 --checkpoint "$dir/gone/c.ckpt" \
    -o "$dir/s.mmt" 2>"$dir/err" &
pid=$!
resumed
rm -rf "$dir/gone"
kill -TERM $pid
finish "a failed save"
if [ $rc -ne 3 ] || ! valid_tree "$dir/s.mmt" || ! grep -q "cannot write" "$dir/err"; then
    fail "a failed save: exit $rc, $(cat "$dir/err")"
else
    ok "a failed final save: exit 3, the tree written, $(grep "cannot" "$dir/err")"
fi
[ "$fails" -eq 0 ]
