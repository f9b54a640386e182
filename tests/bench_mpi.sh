#!/bin/sh
# mmtree-mpi against mmtree build on this machine: the same tree, the wall
# and CPU time (medians of interleaved runs, so that a load that changes
# meanwhile touches every variant alike), the speed-up over build -j1
# in wall time and in the search's own seconds (its summary line's: no
# start of MPI), and what the ranks sent each other (bytes and messages,
# as the job's summary line counts them).
#   sh tests/bench_mpi.sh [BUILD [ROUNDS [P C [RULE [orders]]]]]
# Defaults: build, 5 rounds, MM(4,7) optimal.  With "orders", also once:
# the spread search with two workers in one process, units in search
# order and biggest first (sets searched, CPU).
# The load average is printed before and after: on a machine that others
# load, wall times mean little (Linux shares the CPU among sessions
# first), the CPU seconds still do, and so do wall times in a session
# given priority, as root:
#   setsid sh -c 'echo -15 > /proc/self/autogroup; sh tests/bench_mpi.sh'

set -u
build=${1:-build} rounds=${2:-5} p=${3:-4} c=${4:-7} rule=${5:-optimal} orders=${6:-}
mmtree=$build/cli/mmtree mpi=$build/mpi/mmtree-mpi run=$build/tests/optimal/opt_run
[ -x "$mpi" ] || { echo "no $mpi: build with MPI (meson -Dmpi=enabled)"; exit 77; }
flags= unbound=
if mpirun --version 2>&1 | grep -q "Open MPI"; then
    flags="-q --oversubscribe"
    unbound="--bind-to none"   # Open MPI 4 binds 1 or 2 ranks to a core each
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
game="-p $p -c $c -r $rule"

# name, command...: one run; "wall cpu search" appended to $dir/name
# (search: the seconds of the summary line, without starting MPI and
# reading the command line), the tree to $dir/name.mmt, the summary line
# to $dir/name.log
one() {
    name=$1
    shift
    /usr/bin/time -f "%e %U %S" -o "$dir/time" "$@" -o "$dir/$name.mmt" 2> "$dir/$name.log"
    search=$(sed -n 's/^mmtree[a-z-]*: MM(.*, \([0-9.]*\) s$/\1/p' "$dir/$name.log" | head -n 1)
    awk -v s="${search:-0}" '{ printf "%s %.2f %s\n", $1, $2 + $3, s }' "$dir/time" >> "$dir/$name"
}

median() { # column of file
    sort -n -k"$1" "$2" | awk -v k="$1" '{ v[NR] = $k } END { print v[int((NR + 1) / 2)] }'
}

variants="build-j1 build-j2 mpi-np1-j1 mpi-np2-j1 mpi-np1-j2"
echo "MM($p,$c) $rule: $rounds rounds on $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ "$i" -lt "$rounds" ]; do
    one build-j1 "$mmtree" build $game -j1
    one build-j2 "$mmtree" build $game -j2
    one mpi-np1-j1 mpirun $flags -np 1 "$mpi" $game -j1
    one mpi-np2-j1 mpirun $flags -np 2 "$mpi" $game -j1
    one mpi-np1-j2 mpirun $flags $unbound -np 1 "$mpi" $game -j2
    i=$((i + 1))
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
base=$(median 1 "$dir/build-j1") sbase=$(median 3 "$dir/build-j1")
printf '%-11s %7s %7s %7s %9s %8s %9s %8s %s\n' variant wall-s cpu-s search-s \
    speed-up search-up KiB-sent messages tree
for v in $variants; do
    w=$(median 1 "$dir/$v") u=$(median 2 "$dir/$v") se=$(median 3 "$dir/$v")
    kib=$(sed -n 's/.* \([0-9.]*\) KiB in [0-9]* messages.*/\1/p' "$dir/$v.log")
    msgs=$(sed -n 's/.* KiB in \([0-9]*\) messages.*/\1/p' "$dir/$v.log")
    same=$(cmp -s "$dir/$v.mmt" "$dir/build-j1.mmt" && echo same || echo DIFFERENT)
    printf '%-11s %7s %7s %7s %9s %8s %9s %8s %s\n' "$v" "$w" "$u" "$se" \
        "$(awk -v b="$base" -v w="$w" 'BEGIN { printf "%.2f", b / w }')" \
        "$(awk -v b="$sbase" -v w="$se" 'BEGIN { printf "%.2f", (w > 0 ? b / w : 0) }')" \
        "${kib:--}" "${msgs:--}" "$same"
done
grep -h "KiB in" "$dir"/mpi-np2-j1.log | sed 's/^/  /'

if [ "$orders" = orders ]; then
    echo
    echo "units in search order or biggest first (two workers in one process):"
    for order in "" biggest; do
        /usr/bin/time -f "%U" -o "$dir/time" "$run" "$p" "$c" "$rule" j1 w2 $order > "$dir/run"
        printf '  %-14s %s sets, %s CPU s\n' "${order:-search order}" \
            "$(grep -o 'nodes [0-9]*' "$dir/run" | cut -d' ' -f2)" "$(cat "$dir/time")"
    done
fi
