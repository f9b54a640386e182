#!/bin/sh
# An error in a worker rank ends the whole job, never a hang.
# - A worker rank killed with SIGKILL in the middle of MM(4,8) on 2 ranks
#   of a thread each (some 5 s of search): the job ends within 30 s, with
#   a status that is not 0 and a message (the launcher's: the killed
#   rank cannot speak, and the launcher ends rank 0; Open MPI's mpirun
#   says it on stderr, MPICH's mpiexec on stdout), and no tree
#   unless a complete one; the checkpoint it saved resumes on 2 ranks to
#   the tree of mmtree build (the published MM(4,8) optimal tree).
# - A worker rank short of memory (ulimit -v on rank 1 alone, through
#   the launcher's MPMD syntax): 200 MB of address space start MPI, but
#   not its table of solved sets (64 KB a code: 256 MB for MM(4,8)).
#   One message, naming the rank, exit 2, no tree.
# Skipped in a sanitizer build: ASan reserves terabytes of address space
# (no ulimit -v), and the search it would slow down is not what is tested.
. "${0%/*}/mpi.sh"
if [ -n "$sanitized" ]; then
    echo "a sanitizer build: skipped"
    exit 77
fi

# -- rank 1 killed once the search has saved a checkpoint
MMTREE_TEST_JOB=fault timeout 120 "$mpirun" $loud -np 2 "$mpi" -q -j 1 -p 4 -c 8 \
    -o "$dir/killed.mmt" --checkpoint "$dir/killed.ckpt" --checkpoint-every 0.2 \
    >"$dir/killed.out" 2>"$dir/killed.err" &
job=$!
saved "$dir/killed.ckpt"
sleep 0.3
worker=$(job_pids fault 1)
killed=$(date +%s)
[ -n "$worker" ] && kill -KILL $worker
wait "$job"
rc=$?
secs=$(($(date +%s) - killed))
if [ -z "$worker" ]; then
    fail "no rank 1 to kill (exit $rc): $(cat "$dir/killed.err")"
elif [ "$rc" -eq 0 ] || [ "$rc" -eq 124 ] || [ "$secs" -gt 30 ]; then
    fail "rank 1 killed: exit $rc after $secs s (want not 0, within 30 s)"
elif ! grep -qiE 'signal 9|killed' "$dir/killed.err" "$dir/killed.out"; then
    fail "rank 1 killed: no message: $(cat "$dir/killed.err")"
elif [ -e "$dir/killed.mmt" ] && ! "$mmtree" verify "$dir/killed.mmt" >/dev/null 2>&1; then
    fail "rank 1 killed: a tree left that does not verify"
else
    ok "rank 1 killed: exit $rc within $secs s, with a message, no incomplete tree"
fi
# the launcher's own processes are gone too
[ -z "$(job_pids fault)" ] || fail "rank 1 killed: processes of the job left: $(job_pids fault)"

run 2 -q -j 1 -p 4 -c 8 -o "$dir/resumed.mmt" --checkpoint "$dir/killed.ckpt"
rc=$?
if [ "$rc" -ne 0 ] ||
    ! "$mmtree" diff "$src/trees/optima/mm4-8-optimal.mmt" "$dir/resumed.mmt" |
    grep -q '; 0 differing nodes$'; then
    fail "resumed on 2 ranks: exit $rc, or not the optimal tree of mmtree build"
else
    ok "resumed on 2 ranks from the checkpoint of the killed job: the tree of mmtree build"
fi

# -- rank 1 short of memory: it says so through rank 0
err=$(timeout 120 "$mpirun" $flags -np 1 "$mpi" -q -j 1 -p 4 -c 8 -o "$dir/short.mmt" : \
      -np 1 sh -c 'ulimit -v 200000 && exec "$0" "$@"' "$mpi" -q -j 1 -p 4 -c 8 \
      -o "$dir/short.mmt" 2>&1 >/dev/null)
rc=$?
if [ "$rc" -ne 2 ] || [ -e "$dir/short.mmt" ]; then
    fail "rank 1 short of memory: exit $rc (want 2), or a tree written: $err"
elif [ "$(printf '%s\n' "$err" | grep -c 'error: ')" -ne 1 ] ||
    ! printf '%s\n' "$err" | grep -q 'error: rank 1: out of memory setting up the search$'; then
    fail "rank 1 short of memory: not one message naming rank 1: $err"
else
    ok "rank 1 short of memory: exit 2, $err"
fi

[ "$fails" -eq 0 ] || { echo "$fails failed"; exit 1; }
