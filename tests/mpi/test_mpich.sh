#!/bin/sh
# mmtree-mpi built against MPICH where Open MPI is meson's default:
# -Dmpi_pkg=mpich in a build directory of its own ($2, kept between
# runs), only mmtree and mmtree-mpi built.  On 2 ranks of MPICH's
# launcher it writes the tree of mmtree build, byte for byte, for MM(4,6)
# and the three optimal rules.  Skipped (77) without MPICH (pkg-config
# mpich, mpiexec.hydra), with -Dmpi=disabled, in a sanitizer build (the
# MPI suite runs there already), or where this build is MPICH's already.
#   test_mpich.sh SOURCE-ROOT BUILD-DIR SKIP-REASON
src=$1 bdir=$2 skip=${3:-}
if [ -n "$skip" ]; then
    echo "$skip: skipped"
    exit 77
fi
if ! pkg-config --exists mpich || ! command -v mpiexec.hydra >/dev/null 2>&1; then
    echo "no MPICH (pkg-config mpich, mpiexec.hydra): skipped"
    exit 77
fi
if [ -f "$bdir/build.ninja" ]; then
    meson setup --reconfigure "$bdir" "$src" -Dmpi_pkg=mpich -Dmpi=enabled >/dev/null
else
    meson setup "$bdir" "$src" -Dmpi_pkg=mpich -Dmpi=enabled >/dev/null
fi || { echo "FAIL: meson setup -Dmpi_pkg=mpich"; exit 1; }
ninja -C "$bdir" mpi/mmtree-mpi cli/mmtree >"$bdir/ninja.log" 2>&1 ||
    { cat "$bdir/ninja.log"; echo "FAIL: building against MPICH"; exit 1; }
if ! ldd "$bdir/mpi/mmtree-mpi" | grep -q libmpich; then
    echo "FAIL: $bdir/mpi/mmtree-mpi is not linked against MPICH"
    exit 1
fi

set -- "$bdir/cli/mmtree" "$bdir/mpi/mmtree-mpi" "" "$src" mpiexec.hydra
. "${0%/*}/mpi.sh"
for rule in optimal optimal-consistent optimal-worst; do
    "$mmtree" build -q -p 4 -c 6 -r "$rule" -o "$dir/want.mmt" ||
        { fail "mmtree build -p 4 -c 6 -r $rule"; continue; }
    err=$(run 2 -q -p 4 -c 6 -r "$rule" -o "$dir/got.mmt" 2>&1)
    rc=$?
    if [ "$rc" -ne 0 ] || [ -n "$err" ]; then
        fail "MM(4,6) $rule on 2 MPICH ranks: exit $rc, stderr: $err"
    elif ! cmp -s "$dir/want.mmt" "$dir/got.mmt"; then
        fail "MM(4,6) $rule on 2 MPICH ranks: not the tree of mmtree build"
    else
        ok "MM(4,6) $rule on 2 MPICH ranks: the tree of mmtree build"
    fi
done
[ "$fails" -eq 0 ] || { echo "$fails failed"; exit 1; }
