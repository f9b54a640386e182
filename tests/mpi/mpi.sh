# The MPI tests' common part: sourced with the arguments meson passes
# (mmtree, mmtree-mpi or empty, "sanitized" or empty, the source root,
# the launcher: mpirun, or MPICH's mpiexec.hydra; why mmtree-mpi was not
# built).  Skips (77) without mmtree-mpi or its launcher; sets $mmtree,
# $mpi, $sanitized, $src, $mpirun and its $flags (with $loud, the
# launcher's own messages too), $dir, fail and ok (tests/lib.sh); run and
# job_pids.
mmtree=$1 mpi=${2:-} sanitized=${3:-} src=${4:-} mpirun=${5:-mpirun} why=${6:-}
if [ -z "$mpi" ] || [ ! -x "$mpi" ]; then
    echo "mmtree-mpi was not built (${why:-no MPI library found}): skipped"
    exit 77
fi
if ! command -v "$mpirun" >/dev/null 2>&1; then
    echo "no $mpirun on PATH: skipped"
    exit 77
fi
flags= loud=
if "$mpirun" --version 2>&1 | grep -q "Open MPI"; then
    # more ranks than cores (this is a test), and none of mpirun's notes
    # on an exit status that is not 0: the messages are the job's
    loud=--oversubscribe
    flags="-q $loud"
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
if [ -n "$sanitized" ]; then
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
fi
. "${0%/*}/../lib.sh"

# ranks, args...: mmtree-mpi on that many ranks, never more than 5 minutes
run() {
    np=$1
    shift
    timeout 300 "$mpirun" $flags -np "$np" "$mpi" "$@"
}

# ID [RANK]: the processes of the job started with MMTREE_TEST_JOB=ID in
# its environment (the launcher, its helpers and the ranks: both
# launchers pass the environment on), or of its rank RANK alone
job_pids() {
    set -- "$1" "${2:-}" "$(grep -lzx "MMTREE_TEST_JOB=$1" /proc/[0-9]*/environ 2>/dev/null)"
    [ -n "$3" ] || return 0
    if [ -n "$2" ]; then
        set -- "$1" "$2" "$(grep -lzxE "(OMPI_COMM_WORLD_RANK|PMI_RANK)=$2" $3 2>/dev/null)"
    fi
    for e in $3; do
        e=${e#/proc/}
        echo "${e%/environ}"
    done
}

# saved FILE: wait up to 30 s until the job has written FILE (a
# checkpoint), so that what follows hits a search under way.
saved() {
    i=0
    while [ ! -s "$1" ] && [ "$i" -lt 300 ]; do
        sleep 0.1
        i=$((i + 1))
    done
}
