#!/bin/sh
# mmtree checkpoint: checks a checkpoint whole and says what it holds; with
# --min-codes N -o OUT it keeps the facts about sets of at least N codes, a
# file mmtree resumes from to the same tree; a file that is not a sound
# checkpoint is refused (exit 2, one line with the byte offset) with
# nothing written.
#
#   sh checkpoint.sh SOURCE-ROOT MMTREE
set -u
root=$1 mmtree=$2
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*" >&2; fail=1; }

# entries FILE [MIN]: the entry count, or the entries below MIN codes
# (the entries start after a header of 56 bytes, 40 in version 3), read
# here from the layout compiler/checkpoint.md gives, not by mmtree
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

# json FILE EXPR: EXPR (Python, over the object j) of a --json output
json() {
    python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"
}

# patch FILE OFFSET BYTES...: write the bytes (decimal) at OFFSET and set
# the checksum right, so that the check behind it is reached
patch() {
    python3 - "$@" <<'EOF'
import struct, sys, zlib
d = bytearray(open(sys.argv[1], "rb").read())
off = int(sys.argv[2])
for i, b in enumerate(sys.argv[3:]):
    d[off + i] = int(b)
d[-4:] = struct.pack("<I", zlib.crc32(bytes(d[:-4])))
open(sys.argv[1], "wb").write(bytes(d))
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

# What it holds: every entry counted once, by size, the game and rule.
"$mmtree" checkpoint --json "$tmp/full.ckpt" >"$tmp/full.json" ||
    no "mmtree checkpoint refused a sound checkpoint"
[ "$(json "$tmp/full.json" 'j["facts"]')" = "$all" ] &&
    [ "$(json "$tmp/full.json" 'sum(s["facts"] for s in j["sizes"])')" = "$all" ] &&
    [ "$(json "$tmp/full.json" 'sum(s["facts"] for s in j["sizes"] if s["min"] >= 64)')" = \
      "$(( all - $(entries "$tmp/full.ckpt" 64) ))" ] ||
    no "the facts counted are not the file's $all: $(cat "$tmp/full.json")"
[ "$(json "$tmp/full.json" '(j["pegs"], j["colors"], j["repeat"], j["rule"], j["whole_game"], j["runs"], j["max_depth"])')" = \
  "(4, 6, True, 'optimal', True, 1, 0)" ] || no "the header read as $(cat "$tmp/full.json")"
"$mmtree" checkpoint "$tmp/full.ckpt" >"$tmp/full.txt" &&
    grep -q "^game: *MM(4,6)$" "$tmp/full.txt" &&
    grep -q "^search: *optimal, from the whole game$" "$tmp/full.txt" &&
    grep -q "^facts: *$all (" "$tmp/full.txt" || no "the text: $(cat "$tmp/full.txt")"

# Trimmed to the sets of 64 codes and more: fewer entries, none smaller.
"$mmtree" checkpoint --min-codes 64 -o "$tmp/big.ckpt" "$tmp/full.ckpt" >"$tmp/out" ||
    no "trimming failed"
big=$(entries "$tmp/big.ckpt")
[ "$big" -gt 0 ] && [ "$big" -lt "$all" ] || no "kept $big of $all entries"
[ "$(entries "$tmp/big.ckpt" 64)" = 0 ] || no "an entry of fewer than 64 codes was kept"
grep -q "^written: *$big facts about sets of 64 codes or more, to $tmp/big.ckpt$" "$tmp/out" ||
    no "it did not say what it kept: $(cat "$tmp/out")"

# The search resumes from it (a copy: a proven search removes its
# checkpoint) and writes the same tree.
cp "$tmp/big.ckpt" "$tmp/run.ckpt"
"$mmtree" build -p 4 -c 6 --rule optimal -j1 --checkpoint "$tmp/run.ckpt" \
    -o "$tmp/resumed.mmt" 2>"$tmp/err" || no "the resumed search failed: $(cat "$tmp/err")"
grep -q "resuming from '$tmp/run.ckpt': $big sets" "$tmp/err" ||
    no "the search did not resume from the trimmed file: $(cat "$tmp/err")"
cmp -s "$tmp/full.mmt" "$tmp/resumed.mmt" || no "the resumed search wrote another tree"

# Without --min-codes (3 codes, the least a checkpoint holds) nothing goes:
# the same bytes.  In place, the file is replaced whole.
"$mmtree" checkpoint -o "$tmp/same.ckpt" "$tmp/full.ckpt" >/dev/null &&
    cmp -s "$tmp/full.ckpt" "$tmp/same.ckpt" || no "-o alone changed the checkpoint"
"$mmtree" checkpoint -m 64 -o "$tmp/same.ckpt" "$tmp/same.ckpt" >/dev/null &&
    cmp -s "$tmp/big.ckpt" "$tmp/same.ckpt" || no "trimming in place differs"

# Version 3 (no time) is read, and written as version 4 whose time says
# it leaves runs out; the search resumes from it.
v3 "$tmp/full.ckpt" "$tmp/full3.ckpt"
"$mmtree" checkpoint -m 64 -o "$tmp/big3.ckpt" "$tmp/full3.ckpt" >/dev/null 2>"$tmp/err" ||
    no "version 3 refused: $(cat "$tmp/err")"
[ "$(entries "$tmp/big3.ckpt")" = "$big" ] &&
    [ "$(od -An -tu1 -j8 -N1 "$tmp/big3.ckpt" | tr -d ' ')" = 4 ] &&
    [ "$(od -An -tu1 -j52 -N1 "$tmp/big3.ckpt" | tr -d ' ')" = 1 ] ||
    no "version 3: kept $(entries "$tmp/big3.ckpt") entries, not $big, or not as version 4, partial"
"$mmtree" build -p 4 -c 6 --rule optimal -j1 --checkpoint "$tmp/big3.ckpt" \
    -o "$tmp/resumed3.mmt" 2>"$tmp/err" || no "resumed from version 3: $(cat "$tmp/err")"
grep -q "resuming from '$tmp/big3.ckpt': $big sets (not all of the processor time counted" \
    "$tmp/err" && cmp -s "$tmp/full.mmt" "$tmp/resumed3.mmt" ||
    no "resumed from the trimmed version 3: $(cat "$tmp/err")"

# A search from a position, within a depth, consistent-only: said so.
"$mmtree" build -p 4 -c 6 --rule optimal-consistent --max-depth 5 --after 1122:W -q \
    --checkpoint "$tmp/pos.ckpt" --keep-checkpoint >/dev/null || no "the search after 1122:W failed"
"$mmtree" checkpoint --json "$tmp/pos.ckpt" >"$tmp/pos.json" &&
    [ "$(json "$tmp/pos.json" '(j["rule"], j["whole_game"], j["max_depth"])')" = \
      "('optimal-consistent', False, 5)" ] || no "a position's: $(cat "$tmp/pos.json")"

# refused WHAT FILE OFFSET: mmtree says so, at that byte, and writes nothing
refused() {
    rm -f "$tmp/out.ckpt"
    "$mmtree" checkpoint -m 64 -o "$tmp/out.ckpt" "$2" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ "$rc" = 2 ] || no "$1: exit status $rc, not 2"
    [ "$(wc -l <"$tmp/err")" = 1 ] && [ ! -s "$tmp/out" ] || no "$1: not one line: $(cat "$tmp/err")"
    grep -q "^$2: byte $3: error: " "$tmp/err" || no "$1: $(cat "$tmp/err")"
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
# the checks a search makes against itself, here against the header's game
cp "$tmp/full.ckpt" "$tmp/g.ckpt" && patch "$tmp/g.ckpt" 9 9
refused "a game of 9 pegs" "$tmp/g.ckpt" 9
cp "$tmp/full.ckpt" "$tmp/r.ckpt" && patch "$tmp/r.ckpt" 12 3
refused "rule 3" "$tmp/r.ckpt" 12
cp "$tmp/full.ckpt" "$tmp/c.ckpt" && patch "$tmp/c.ckpt" 16 1
refused "a key check" "$tmp/c.ckpt" 16
cp "$tmp/full.ckpt" "$tmp/n.ckpt" && patch "$tmp/n.ckpt" 84 17 5
refused "an entry of 1297 codes" "$tmp/n.ckpt" 84
"$mmtree" checkpoint -m 64 -o "$tmp/no/such/dir.ckpt" "$tmp/full.ckpt" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "$tmp/no/such/dir.ckpt" "$tmp/err" ||
    no "an output that cannot be written: $(cat "$tmp/err")"
"$mmtree" checkpoint "$tmp/none.ckpt" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "$tmp/none.ckpt" "$tmp/err" || no "a missing input: $(cat "$tmp/err")"
"$mmtree" checkpoint -m 64 "$tmp/full.ckpt" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q -- "give -o" "$tmp/err" || no "--min-codes without -o: $(cat "$tmp/err")"
[ -z "$(find "$tmp" -name '.mmtree-*')" ] || no "a temporary file was left behind"

# The progress an open cell of the table carries (trees/optima/progress/,
# notes.md "Carrying a search"): each file a sound checkpoint of the game
# and rule its name says, from the whole game, beside the cell's tree.
carried=0
for f in "$root"/trees/optima/progress/*.ckpt; do
    [ -e "$f" ] || continue
    carried=$((carried + 1))
    name=$(basename "$f" .ckpt)
    "$mmtree" checkpoint --json "$f" >"$tmp/p.json" 2>"$tmp/err" ||
        { no "$name: $(cat "$tmp/err")"; continue; }
    got=$(json "$tmp/p.json" '("mm%d-%d%s-%s" % (j["pegs"], j["colors"], "" if j["repeat"] else "n",
        {"optimal": "optimal", "optimal-consistent": "consistent", "optimal-worst": "worst"}[j["rule"]])
        + ("" if j["whole_game"] and j["facts"] > 0 and j["max_depth"] == 0 else " (not carried)"))')
    [ "$got" = "$name" ] || no "progress/$name.ckpt holds $got"
    [ -f "$root/trees/optima/$name.mmt" ] || no "progress/$name.ckpt has no tree beside it"
done

[ "$fail" = 0 ] && echo "checkpoint: $big of $all facts kept, resumed to the same tree (version 3 too); 11 refusals; $carried carried checkpoints"
exit "$fail"
