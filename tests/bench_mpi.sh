#!/bin/sh
# mmtree-mpi against mmtree build on this machine: the same tree, the wall
# and CPU time (medians of interleaved runs, so that a load that changes
# meanwhile touches every variant alike), the bytes the ranks sent.
#   sh tests/bench_mpi.sh [BUILD [ROUNDS [P C [RULE [worst]]]]]
# Defaults: build, 5 rounds, MM(4,7) optimal.  Also, once: the spread
# search with two workers in one process, units in search order and
# biggest first (sets searched, CPU); with "worst", the combination too
# slow for tests/mpi/test_mpi.sh (MM(4,7) optimal-worst on 2 and 3 ranks).
# On a machine that others load, wall times mean little (Linux shares the
# CPU among sessions first): the CPU seconds still do, and so do wall
# times in a session given priority, as root:
#   setsid sh -c 'echo -15 > /proc/self/autogroup; sh tests/bench_mpi.sh'

set -u
build=${1:-build} rounds=${2:-5} p=${3:-4} c=${4:-7} rule=${5:-optimal} worst=${6:-}
mmtree=$build/cli/mmtree mpi=$build/mpi/mmtree-mpi run=$build/tests/optimal/opt_run
[ -x "$mpi" ] || { echo "no $mpi: build with MPI (meson -Dmpi=enabled)"; exit 77; }
flags=
if mpirun --version 2>&1 | grep -q "Open MPI"; then
    flags="-q --oversubscribe"
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
game="-p $p -c $c -r $rule"

# name, command...: one run; "wall cpu" appended to $dir/name, the tree
# to $dir/name.mmt, the summary line to $dir/name.log
one() {
    name=$1
    shift
    /usr/bin/time -f "%e %U %S" -o "$dir/time" "$@" -o "$dir/$name.mmt" 2> "$dir/$name.log"
    awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$dir/time" >> "$dir/$name"
}

median() { # column of file
    sort -n -k"$1" "$2" | awk -v k="$1" '{ v[NR] = $k } END { print v[int((NR + 1) / 2)] }'
}

variants="build-j1 build-j2 mpi-np1-j1 mpi-np2-j1 mpi-np1-j2"
echo "MM($p,$c) $rule: $rounds rounds on $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ "$i" -lt "$rounds" ]; do
    one build-j1 "$mmtree" build -q $game -j1
    one build-j2 "$mmtree" build -q $game -j2
    one mpi-np1-j1 mpirun $flags -np 1 "$mpi" $game -j1
    one mpi-np2-j1 mpirun $flags -np 2 "$mpi" $game -j1
    one mpi-np1-j2 mpirun $flags -np 1 "$mpi" $game -j2
    i=$((i + 1))
done
base=$(median 1 "$dir/build-j1")
printf '%-12s %9s %9s %9s %12s %s\n' variant wall-s cpu-s speed-up bytes-sent tree
for v in $variants; do
    w=$(median 1 "$dir/$v") u=$(median 2 "$dir/$v")
    bytes=$(sed -n 's/.* \([0-9.]*\) KiB in.*/\1 KiB/p' "$dir/$v.log")
    same=$(cmp -s "$dir/$v.mmt" "$dir/build-j1.mmt" && echo same || echo DIFFERENT)
    printf '%-12s %9s %9s %9s %12s %s\n' "$v" "$w" "$u" \
        "$(awk -v b="$base" -v w="$w" 'BEGIN { printf "%.2f", b / w }')" "${bytes:--}" "$same"
done
grep -h "mmtree-mpi:" "$dir"/mpi-np2-j1.log | sed 's/^/  /'

echo
echo "units in search order or biggest first (two workers in one process):"
for order in "" biggest; do
    /usr/bin/time -f "%U" -o "$dir/time" "$run" "$p" "$c" "$rule" j1 w2 $order > "$dir/run"
    printf '  %-14s %s sets, %s CPU s\n' "${order:-search order}" \
        "$(grep -o 'nodes [0-9]*' "$dir/run" | cut -d' ' -f2)" "$(cat "$dir/time")"
done

if [ "$worst" = worst ]; then
    echo
    echo "MM(4,7) optimal-worst (too slow for the test suite):"
    "$mmtree" build -q -p 4 -c 7 -r optimal-worst -o "$dir/w.mmt"
    for np in 2 3; do
        mpirun $flags -np "$np" "$mpi" -q -p 4 -c 7 -r optimal-worst -o "$dir/wm.mmt"
        cmp -s "$dir/w.mmt" "$dir/wm.mmt" && echo "  $np ranks: the tree of mmtree build" ||
            echo "  $np ranks: DIFFERENT"
    done
fi
