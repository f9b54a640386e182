#!/bin/sh
# 'meson install' into a temporary DESTDIR gives the programs, the library
# (shared, with its soname, exporting only mm_ names; and static), the
# headers, mmtree.pc, the man page, bash completion, the schema and the
# published trees; then examples/knuth.c compiles with pkg-config alone
# and runs against the installed library.
#
#   sh test_install.sh BUILD-DIR SOURCE-ROOT
set -u
build=$1
src=$2
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
fail=0
no() { echo "FAIL: $*" >&2; fail=1; }

command -v pkg-config > /dev/null || { echo "SKIP: no pkg-config"; exit 77; }
DESTDIR=$dest meson install -C "$build" --no-rebuild --quiet > "$dest/install.log" 2>&1 ||
    { cat "$dest/install.log" >&2; no "meson install failed"; exit 1; }
prefix=$(meson introspect "$build" --buildoptions |
    python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"][0])')
libdir=$(meson introspect "$build" --buildoptions |
    python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="libdir"][0])')
case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac
root=$dest$prefix
lib=$dest$libdir

for f in bin/mmtree include/mmtree/mmtree.h include/mmtree/game.h include/mmtree/tree.h \
         include/mmtree/path.h include/mmtree/compile.h include/mmtree/format.h \
         include/mmtree/verify.h include/mmtree/render.h \
         share/xml/mmtree/mmtree.xsd share/mmtree/trees/knuth1976.txt \
         share/mmtree/trees/neuwirth1982.txt share/bash-completion/completions/mmtree; do
    [ -e "$root/$f" ] || no "not installed: $f"
done
[ -e "$lib/libmmtree.so.0" ] && [ -e "$lib/libmmtree.a" ] && [ -e "$lib/pkgconfig/mmtree.pc" ] ||
    no "library files missing in $libdir: $(ls "$lib" 2>&1)"
if [ -e "$build/docs/mmtree.1" ]; then
    [ -e "$root/share/man/man1/mmtree.1" ] || no "not installed: the man page"
fi
libexecdir=$(meson introspect "$build" --buildoptions |
    python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="libexecdir"][0])')
case $libexecdir in /*) ;; *) libexecdir=$prefix/$libexecdir ;; esac
[ -e "$dest$libexecdir/mmtree-render" ] || no "mmtree-render is not in $libexecdir"
[ -e "$root/bin/mmtree-render" ] && no "mmtree-render is in bindir"
# No internal header is installed.
for h in grow.h strbuf.h json.h file.h opt.h slice.h formats.h; do
    find "$root/include" -name "$h" | grep -q . && no "internal header installed: $h"
done

# The soname, and only public names exported.
so=$(readlink -f "$lib/libmmtree.so.0")
objdump -p "$so" | grep -q 'SONAME *libmmtree.so.0' || no "soname is not libmmtree.so.0"
others=$(nm -D --defined-only "$so" | awk '$3 != "" {print $3}' | grep -v '^mm_[a-z0-9_]*@@MMTREE_0$' | grep -v '^MMTREE_0$')
[ -z "$others" ] || no "exported names that are not public: $others"
nm -D --defined-only "$so" | grep -q ' mm_compile@@MMTREE_0$' || no "mm_compile is not exported (in MMTREE_0)"

# The example, with pkg-config alone.
export PKG_CONFIG_PATH=$lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest
cflags=$(pkg-config --cflags mmtree) && libs=$(pkg-config --libs mmtree) ||
    { no "pkg-config does not know mmtree"; exit 1; }
cc $cflags "$src/examples/knuth.c" $libs -o "$dest/knuth" 2> "$dest/cc.log" ||
    { cat "$dest/cc.log" >&2; no "the example does not compile"; exit 1; }
LD_LIBRARY_PATH=$lib "$dest/knuth" > "$dest/out.txt" || no "the example failed"
LD_LIBRARY_PATH=$lib ldd "$dest/knuth" | grep -q "$lib/libmmtree.so.0" ||
    no "the example does not use the installed library"
for f in knuth irving bin; do
    grep -q "^$f .*total 5801  worst 5  same tree" "$dest/out.txt" || no "example: $f: $(cat "$dest/out.txt")"
done
if [ "$(meson introspect "$build" --buildoptions | grep -c '"name": "xml", "value": "disabled"')" = 0 ]; then
    grep -q "^xml .*total 5801" "$dest/out.txt" || no "example: xml: $(cat "$dest/out.txt")"
fi
# And statically.
cc -static-libgcc $cflags "$src/examples/knuth.c" "$lib/libmmtree.a" \
    $(pkg-config --libs-only-l --static mmtree | sed 's/-lmmtree//') -o "$dest/knuth-static" \
    2> "$dest/cc.log" || { cat "$dest/cc.log" >&2; no "the example does not link statically"; }
[ -x "$dest/knuth-static" ] && { "$dest/knuth-static" | grep -q "total 5801" || no "static example"; }

# The installed mmtree runs, finds mmtree-render in libexecdir, and has a version.
"$root/bin/mmtree" --version | grep -q "^mmtree [0-9]" || no "mmtree --version"
exit $fail
