#!/bin/sh
# trees/optima/trim.py keeps the entries of a checkpoint whose sets have
# at least N codes: mmtree resumes from what it writes and builds the same
# tree, and a file that is not a sound checkpoint is refused (exit 2, one
# line with the byte offset) with nothing written.
#
#   sh trim.sh SOURCE-ROOT MMTREE
set -u
root=$1 mmtree=$2
trim="$root/trees/optima/trim.py"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*" >&2; fail=1; }

# entries FILE [MIN]: the entry count, or the entries below MIN codes
# (the entries start after a header of 56 bytes, 40 in version 3)
entries() {
    python3 - "$@" <<'EOF'
import struct, sys
d = open(sys.argv[1], "rb").read()
(n,) = struct.unpack_from("<Q", d, len(d) - 12)
at = 40 if d[8] == 3 else 56
if len(sys.argv) > 2:
    n = sum(1 for (s,) in struct.iter_unpack("<28xI", d[at:at + 32 * n]) if s < int(sys.argv[2]))
print(n)
EOF
}

# v3 IN OUT: IN (version 4) as version 3 would have saved it: no time
v3() {
    python3 - "$@" <<'EOF'
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
d = d[:8] + b"\x03" + d[9:40] + d[56:-4]
open(sys.argv[2], "wb").write(d + struct.pack("<I", zlib.crc32(d)))
EOF
}

# A whole search of MM(4,6), its checkpoint kept.
"$mmtree" build -p 4 -c 6 --rule optimal -j1 -q --checkpoint "$tmp/full.ckpt" \
    --keep-checkpoint -o "$tmp/full.mmt" || no "the search of MM(4,6) failed"
all=$(entries "$tmp/full.ckpt")

# Trimmed to the sets of 64 codes and more: fewer entries, none smaller.
python3 "$trim" --min-codes 64 "$tmp/full.ckpt" "$tmp/big.ckpt" 2>"$tmp/err" ||
    no "trim.py failed: $(cat "$tmp/err")"
big=$(entries "$tmp/big.ckpt")
[ "$big" -gt 0 ] && [ "$big" -lt "$all" ] || no "kept $big of $all entries"
[ "$(entries "$tmp/big.ckpt" 64)" = 0 ] || no "an entry of fewer than 64 codes was kept"
grep -q "$big of $all entries (sets of at least 64 codes)" "$tmp/err" ||
    no "trim.py did not say what it kept: $(cat "$tmp/err")"

# The search resumes from it and writes the same tree.
"$mmtree" build -p 4 -c 6 --rule optimal -j1 --checkpoint "$tmp/big.ckpt" \
    -o "$tmp/resumed.mmt" 2>"$tmp/err" || no "the resumed search failed: $(cat "$tmp/err")"
grep -q "resuming from '$tmp/big.ckpt': $big sets" "$tmp/err" ||
    no "the search did not resume from the trimmed file: $(cat "$tmp/err")"
cmp -s "$tmp/full.mmt" "$tmp/resumed.mmt" || no "the resumed search wrote another tree"

# At 3 codes (the least a checkpoint holds) nothing goes: the same bytes.
python3 "$trim" --min-codes 3 "$tmp/full.ckpt" "$tmp/same.ckpt" 2>/dev/null &&
    cmp -s "$tmp/full.ckpt" "$tmp/same.ckpt" || no "--min-codes 3 changed the checkpoint"

# Version 3 (no time) is trimmed too, into version 3, and resumed from.
v3 "$tmp/full.ckpt" "$tmp/full3.ckpt"
python3 "$trim" --min-codes 64 "$tmp/full3.ckpt" "$tmp/big3.ckpt" 2>"$tmp/err" ||
    no "trim.py failed on version 3: $(cat "$tmp/err")"
[ "$(entries "$tmp/big3.ckpt")" = "$big" ] && [ "$(entries "$tmp/big3.ckpt" 64)" = 0 ] &&
    [ "$(od -An -tu1 -j8 -N1 "$tmp/big3.ckpt" | tr -d ' ')" = 3 ] ||
    no "version 3: kept $(entries "$tmp/big3.ckpt") entries, not $big, or not as version 3"
"$mmtree" build -p 4 -c 6 --rule optimal -j1 --checkpoint "$tmp/big3.ckpt" \
    -o "$tmp/resumed3.mmt" 2>"$tmp/err" || no "resumed from version 3: $(cat "$tmp/err")"
partial="(not all of the processor time counted"
grep -q "resuming from '$tmp/big3.ckpt': $big sets $partial" "$tmp/err" &&
    cmp -s "$tmp/full.mmt" "$tmp/resumed3.mmt" ||
    no "resumed from the trimmed version 3: $(cat "$tmp/err")"

# refused WHAT FILE OFFSET: trim.py says so, at that byte, and writes nothing
refused() {
    rm -f "$tmp/out.ckpt"
    python3 "$trim" "$2" "$tmp/out.ckpt" 2>"$tmp/err"
    rc=$?
    [ "$rc" = 2 ] || no "$1: exit status $rc, not 2"
    [ "$(wc -l <"$tmp/err")" = 1 ] || no "$1: not one line: $(cat "$tmp/err")"
    grep -q "^trim.py: $2: byte $3: " "$tmp/err" || no "$1: $(cat "$tmp/err")"
    [ ! -e "$tmp/out.ckpt" ] || no "$1: an output was written"
}
size=$(wc -c <"$tmp/full.ckpt")
head -c 30 "$tmp/full.ckpt" >"$tmp/short.ckpt"
refused "a truncated file" "$tmp/short.ckpt" 30
head -c $((size - 32)) "$tmp/full.ckpt" >"$tmp/cut.ckpt"
refused "a file cut by one entry" "$tmp/cut.ckpt" $((size - 36))
cp "$tmp/full.ckpt" "$tmp/flip.ckpt"
printf 'x' | dd of="$tmp/flip.ckpt" bs=1 seek=100 conv=notrunc 2>/dev/null
refused "a damaged entry" "$tmp/flip.ckpt" $((size - 4))
refused "a tree" "$tmp/full.mmt" 0
printf '\211MMOPT\r\n\032\n%052d' 0 >"$tmp/old.ckpt"
refused "a checkpoint of version 2" "$tmp/old.ckpt" 0
cp "$tmp/full.ckpt" "$tmp/v5.ckpt"
printf '\005' | dd of="$tmp/v5.ckpt" bs=1 seek=8 conv=notrunc 2>/dev/null
refused "version 5" "$tmp/v5.ckpt" 8
head -c 60 "$tmp/full.ckpt" >"$tmp/short4.ckpt"
refused "version 4 cut in its header" "$tmp/short4.ckpt" 60
python3 "$trim" "$tmp/full.ckpt" "$tmp/no/such/dir.ckpt" 2>"$tmp/err"
[ $? = 2 ] && grep -q "^trim.py: $tmp/no/such/dir.ckpt: " "$tmp/err" ||
    no "an output that cannot be written: $(cat "$tmp/err")"
python3 "$trim" "$tmp/none.ckpt" "$tmp/out.ckpt" 2>"$tmp/err"
[ $? = 2 ] && grep -q "^trim.py: $tmp/none.ckpt: " "$tmp/err" ||
    no "a missing input: $(cat "$tmp/err")"
[ -z "$(find "$tmp" -name '.trim-*')" ] || no "a temporary file was left behind"

[ "$fail" = 0 ] && echo "trim.py: $big of $all entries kept, resumed to the same tree (version 3 too); 9 refusals"
exit "$fail"
