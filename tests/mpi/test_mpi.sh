#!/bin/sh
# mmtree-mpi on 2 and 3 ranks of this machine (3 with sets expanded down
# to 100 codes) writes the tree of mmtree build, byte for byte in the
# binary format: MM(4,6), MM(5,4), MM(3,7) and MM(4,7) for the three
# optimal rules.  A job killed with SIGKILL and resumed from its
# checkpoint on another number of ranks writes the same tree; a time
# limit stops the whole job with a valid tree marked not proven, a true
# lower bound and exit 3, and its stderr holds progress lines in build's
# format and one summary line, from rank 0 alone (a proven job's lines
# end at 100.0% done); errors end the job with one message, exit 2,
# before any search.  --start: the tree of mmtree build when the search
# ends, the start tree when it stops (MM(4,8)'s optimum, which nothing
# beats), a start tree of another game refused.
# Skipped (77) where MPI is not installed.  In a sanitizer build ($3 =
# sanitized) MM(4,7) is left out (the small games take the same paths),
# and leaks are not looked for: Open MPI's plugins leave allocations
# that LeakSanitizer cannot even name; tests/optimal/test_spread checks
# the spread search for leaks in one process.  Every option of
# mmtree-mpi --help is in its man page ($4: the source root).
. "${0%/*}/mpi.sh"

# Progress lines are build's (cli/progress.c): time, bounds, the share of
# the work done, the time left, the first guess, the sets searched.
progress='^mmtree: [0-9]+ s: total [0-9]+\.\.[0-9]+, [0-9]+\.[0-9]% done(, about [0-9.]+ (s|min|h) left)?(, first guess [1-9]+)?, [0-9]+ sets$'
# log: along its progress lines the lower bound, the share done never fall
rising() {
    grep -E "$progress" "$1" | sed 's/.* total \([0-9]*\)\.\.[0-9]*, \([0-9.]*\)% done.*/\1 \2/' |
        awk 'NR > 1 && ($1 < lo || $2 < share) { bad = 1 } { lo = $1; share = $2 }
             END { exit bad }'
}

# p c rule [ranks...]: the tree of every run is build's
same() {
    p=$1 c=$2 rule=$3
    shift 3
    "$mmtree" build -q -p "$p" -c "$c" -r "$rule" -o "$dir/want.mmt" ||
        { fail "mmtree build -p $p -c $c -r $rule"; return; }
    for np in "$@"; do
        # on 3 ranks rank 0 expands sets down to 100 codes: deep units
        split=
        [ "$np" -eq 3 ] && split="--split 100"
        run "$np" -q -p "$p" -c "$c" -r "$rule" $split -o "$dir/got.mmt"
        rc=$?
        if [ "$rc" -ne 0 ]; then
            fail "MM($p,$c) $rule on $np ranks: exit $rc"
        elif ! cmp -s "$dir/want.mmt" "$dir/got.mmt"; then
            fail "MM($p,$c) $rule on $np ranks: not the tree of mmtree build"
        else
            ok "MM($p,$c) $rule on $np ranks: the tree of mmtree build"
        fi
    done
}

# -- killed (SIGKILL, as a scheduler does) once it has saved, resumed
# on another number of ranks: every process of the job, found by a mark
# in its environment (Open MPI gives each rank a process group of its
# own, MPICH's helpers a session of their own).
killed() {
    MMTREE_TEST_JOB=killed "$mpirun" $flags -np 2 "$mpi" -q -p 4 -c 7 -o "$dir/killed.mmt" \
        --checkpoint "$dir/mm47.ckpt" --checkpoint-every 0.05 &
    job=$!
    saved "$dir/mm47.ckpt"
    sleep 0.1
    job_pids killed | xargs -r kill -KILL 2>/dev/null
    wait "$job" 2>/dev/null
    if [ -e "$dir/killed.mmt" ]; then
        fail "the job ended before it was killed"
    elif [ ! -s "$dir/mm47.ckpt" ]; then
        fail "no checkpoint before the kill"
    elif [ "$(od -An -tu4 -j48 -N8 "$dir/mm47.ckpt" | tr -s ' ')" != " 1 1" ]; then
        # rank 0's time only: 1 run, the flag PARTIAL (checkpoint.md)
        fail "the checkpoint's runs and time flags: $(od -An -tu4 -j48 -N8 "$dir/mm47.ckpt")"
    else
        run 3 -q -p 4 -c 7 -o "$dir/resumed.mmt" --checkpoint "$dir/mm47.ckpt"
        rc=$?
        if [ "$rc" -ne 0 ] || ! cmp -s "$dir/mm47.mmt" "$dir/resumed.mmt"; then
            fail "killed on 2 ranks, resumed on 3: exit $rc, or not the tree of mmtree build"
        else
            ok "killed on 2 ranks, resumed on 3: the tree of mmtree build"
        fi
    fi
}

for rule in optimal optimal-consistent optimal-worst; do
    same 4 6 "$rule" 2 3
    same 5 4 "$rule" 2 3
    same 3 7 "$rule" 2 3
done
if [ -z "$sanitized" ]; then
    same 4 7 optimal-consistent 2 3
    same 4 7 optimal-worst 2 3
    same 4 7 optimal 2 3
    cp "$dir/want.mmt" "$dir/mm47.mmt"
    killed
    # a proven job's progress: its last line is at the optimum, all done
    run 2 -p 4 -c 7 -o "$dir/progress.mmt" --progress 0.5 2>"$dir/progress.err"
    rc=$?
    last=$(grep -E "$progress" "$dir/progress.err" | tail -n 1)
    if [ "$rc" -ne 0 ] || ! rising "$dir/progress.err" ||
        ! printf '%s\n' "$last" | grep -q ': total 11228\.\.11228, 100\.0% done, first guess 1123, '; then
        fail "progress of MM(4,7) on 2 ranks: exit $rc, or not build's lines to 100%: $(cat "$dir/progress.err")"
    else
        ok "progress of MM(4,7) on 2 ranks: build's lines, the last $last"
    fi
fi

# -- a time limit stops every rank: a valid tree marked not proven, with
# a lower bound at most the optimum (34666 for MM(4,9), which takes
# half a minute on two ranks) and at most its total, exit 3; on stderr
# build's progress lines a second apart and a last one, from rank 0
# alone (at most 4 in 2.5 s, their times rising, bound and share never
# falling), and one summary line.
run 3 -p 4 -c 9 -o "$dir/stopped.mmt" --time-limit 2.5 --progress 1 2>"$dir/stopped.err"
rc=$?
"$mmtree" stats --json "$dir/stopped.mmt" >"$dir/stopped.json" 2>&1
lower=$(sed -n 's/.*"lower_bound": \([0-9]*\).*/\1/p' "$dir/stopped.json")
total=$(sed -n 's/.*"total": \([0-9]*\).*/\1/p' "$dir/stopped.json")
if [ "$rc" -ne 3 ] || ! "$mmtree" verify "$dir/stopped.mmt" >/dev/null 2>&1; then
    fail "--time-limit 2.5: exit $rc (want 3), or no valid tree"
elif ! grep -q '"proven": false' "$dir/stopped.json" || [ -z "$lower" ] ||
    [ "$lower" -eq 0 ] || [ "$lower" -gt 34666 ] || [ "$lower" -gt "$total" ]; then
    fail "--time-limit 2.5: not marked not proven with a lower bound: $(cat "$dir/stopped.json")"
else
    ok "--time-limit 2.5: exit 3, a valid tree, not proven, lower bound $lower"
fi
summary="^mmtree-mpi: MM(4,9) optimal: .*, not proven optimal, lower bound $lower; 3 ranks "
lines=$(grep -c '' "$dir/stopped.err")
np=$(grep -cE "$progress" "$dir/stopped.err")
ns=$(grep -c "$summary" "$dir/stopped.err")
if [ "$np" -lt 1 ] || [ "$np" -gt 4 ] || [ "$ns" -ne 1 ] || [ "$lines" -ne $((np + ns)) ] ||
    ! grep -E "$progress" "$dir/stopped.err" | cut -d' ' -f2 | sort -c -n ||
    ! rising "$dir/stopped.err" ||
    [ "$(tail -n 1 "$dir/stopped.err" | grep -c "$summary")" -ne 1 ]; then
    fail "stderr of a stopped job: not build's progress lines, then one summary line: $(cat "$dir/stopped.err")"
else
    ok "stderr of a stopped job: $np progress line(s) from rank 0 in build's format, then one summary line"
fi

# -- --start: the optimum as the start tree.  A finished job writes the
# tree of mmtree build; a stopped one the start tree, not proven.
"$mmtree" build -q -p 4 -c 6 -o "$dir/want.mmt" -r optimal
run 2 -q -p 4 -c 6 --start "$dir/want.mmt" -o "$dir/got.mmt"
rc=$?
if [ "$rc" -ne 0 ] || ! cmp -s "$dir/want.mmt" "$dir/got.mmt"; then
    fail "MM(4,6) --start on 2 ranks: exit $rc, or not the tree of mmtree build"
else
    ok "MM(4,6) --start on 2 ranks: the tree of mmtree build"
fi
if [ -n "$src" ]; then
    run 2 -q -p 4 -c 8 -j1 --time-limit 1 --start "$src/trees/optima/mm4-8-optimal.mmt" \
        -o "$dir/started.mmt" 2>/dev/null
    rc=$?
    "$mmtree" stats --json "$dir/started.mmt" >"$dir/started.json" 2>&1
    if [ "$rc" -ne 3 ] || ! grep -q '"total": 20471,' "$dir/started.json" ||
        ! grep -q '"proven": false' "$dir/started.json"; then
        fail "MM(4,8) --start, stopped: exit $rc, $(cat "$dir/started.json")"
    else
        ok "MM(4,8) --start, stopped: exit 3, the start tree (20471), not proven"
    fi
fi

# status, pattern, ranks, args...: one message from the job, not a rank's each
expect() {
    want=$1 pat=$2 np=$3
    shift 3
    err=$(run "$np" "$@" 2>&1 >/dev/null)
    got=$?
    if [ "$got" -ne "$want" ]; then
        fail "mmtree-mpi $*: exit $got, want $want ($err)"
    elif [ "$(printf '%s\n' "$err" | grep -c "error: .*$pat")" -ne 1 ]; then
        fail "mmtree-mpi $*: not one message with '$pat': $err"
    else
        ok "mmtree-mpi $* on $np ranks -> $got"
    fi
}
expect 2 "--pegs" 3 -p 9
expect 2 "not an optimal rule" 2 -r knuth
expect 2 "checkpoint" 3 -p 4 -c 6 -o "$dir/x.mmt" --checkpoint "$dir/want.mmt"
expect 2 "unknown option '--bogus'" 2 --bogus
expect 2 "--progress" 2 --progress soon
expect 2 "a tree of MM(4,6), not of MM(4,5)" 2 -p 4 -c 5 --start "$dir/want.mmt"
# before the search (a minute of CPU for MM(4,9)), not after it: no
# checkpoint is saved
expect 2 "cannot write '$dir/no/x.mmt'" 3 -p 4 -c 9 -o "$dir/no/x.mmt" \
    --checkpoint "$dir/never.ckpt" --checkpoint-every 0.01
[ -e "$dir/never.ckpt" ] && fail "an output file it cannot write, found after the search"

# -- the man page documents every option of --help
if [ -n "$src" ]; then
    for opt in $("$mpi" --help | grep -E '^ {1,6}(-[A-Za-z], +)?--[a-z]' |
                 grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
        grep -qF -- "*$opt*" "$src/docs/mmtree-mpi.1.scd" ||
            fail "docs/mmtree-mpi.1.scd: $opt is not documented"
    done
fi

[ "$fails" -eq 0 ] || { echo "$fails failed"; exit 1; }
