#!/bin/sh
# How mmtree reads and writes files (core/file.c), as a user meets it:
# writes are atomic and leave no temporary file, through a symlink the
# target is replaced and the link kept, an existing file keeps its mode and
# its hard links, a failure leaves the old file as it was, FIFOs and
# devices never block, lost output on stdout is an error.
#
#   sh test_files.sh MMTREE
set -u
mmtree=$1
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; umount "$tmp/small" 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*" >&2; fail=1; }

cd "$tmp" || exit 1
"$mmtree" build -q -o knuth.txt || no "build"
"$mmtree" build -q -r irving -o irving.txt || no "build irving"

# A symlink: the target is replaced, the link stays a link.
cp knuth.txt real.txt
ln -s real.txt link.txt
"$mmtree" convert irving.txt -o link.txt || no "write through a symlink"
[ -L link.txt ] || no "the symlink was replaced by a file"
cmp -s real.txt irving.txt || no "the symlink's target was not written"

# A dangling symlink: the file is created where it points.
ln -s made.txt dangling.txt
"$mmtree" convert knuth.txt -o dangling.txt || no "write through a dangling symlink"
[ -L dangling.txt ] && cmp -s made.txt knuth.txt || no "dangling symlink not followed"

# The mode of an existing file is kept.
cp knuth.txt mode.txt
chmod 640 mode.txt
"$mmtree" convert irving.txt -o mode.txt || no "write mode.txt"
[ "$(stat -c %a mode.txt)" = 640 ] || no "mode became $(stat -c %a mode.txt)"

# A hard link is not split: both names see the new tree.
cp knuth.txt one.txt
ln one.txt two.txt
"$mmtree" convert irving.txt -o one.txt || no "write a hard-linked file"
cmp -s two.txt irving.txt || no "the hard link was split"
[ "$(stat -c %h one.txt)" = 2 ] || no "one.txt has $(stat -c %h one.txt) links"

# A long name (250 characters) works: the temporary name is short.
long=$(printf 'x%.0s' $(seq 246)).txt
"$mmtree" convert knuth.txt -o "$long" || no "a 250-character name"

# A failure leaves the old file untouched, and no temporary file.
mkdir ro && cp knuth.txt ro/t.txt && chmod 555 ro
if ! touch ro/probe 2>/dev/null; then
    "$mmtree" convert irving.txt -o ro/t.txt 2>err.txt && no "wrote into a read-only folder"
    cmp -s ro/t.txt knuth.txt || no "read-only folder: the old file changed"
    grep -q "cannot write 'ro/t.txt'" err.txt || no "read-only folder: $(cat err.txt)"
    grep -q mmtree- err.txt && no "the message names the temporary file: $(cat err.txt)"
else
    rm -f ro/probe    # root ignores the mode: nothing to test here
fi
"$mmtree" convert knuth.txt -o /dev/full 2>err.txt && no "/dev/full accepted"
grep -q "No space left" err.txt || no "/dev/full: $(cat err.txt)"

# A full file system (a small tmpfs, where root may mount one).
mkdir small
if mount -t tmpfs -o size=8k tmpfs small 2>/dev/null; then
    printf 'old\n' > small/t.xml
    "$mmtree" convert knuth.txt -o small/t.xml 2>err.txt && no "full file system accepted"
    [ "$(cat small/t.xml)" = old ] || no "full file system: the old file changed"
    [ -z "$(ls -A small | grep -v '^t.xml$')" ] || no "full file system: left $(ls -A small)"
    umount small
fi

# Interrupted writes leave the old file or the new one, never a part,
# and never a temporary file.
"$mmtree" build -q -p 5 -c 8 -r knuth -o big.mmt || no "build MM(5,8)"
# XML is the slowest to write, so an interrupt lands inside the write.
ext=xml
[ "${MMTREE_HAVE_XML:-1}" = 0 ] && ext=txt
for delay in 0.01 0.03 0.05 0.08 0.12; do
    cp knuth.txt out.$ext
    "$mmtree" convert big.mmt -o out.$ext & pid=$!
    sleep $delay
    kill -TERM $pid 2>/dev/null
    wait $pid
    cmp -s out.$ext knuth.txt || "$mmtree" stats out.$ext > /dev/null ||
        no "interrupted after $delay s: out.$ext is damaged"
done
leftover=$(ls -A | grep '^\.mmtree-')
[ -z "$leftover" ] || no "temporary files left: $leftover"

# FIFOs and devices never block.
mkfifo fifo
timeout 10 "$mmtree" convert knuth.txt -o fifo 2>err.txt
[ $? = 2 ] || no "write to a FIFO without a reader"
grep -q "cannot write 'fifo': nothing reads from it" err.txt || no "fifo: $(cat err.txt)"
timeout 10 "$mmtree" stats fifo 2>err.txt
[ $? = 2 ] || no "read a FIFO without a writer"
timeout 10 "$mmtree" stats /dev/zero 2>err.txt
[ $? = 2 ] || no "stats /dev/zero"
grep -q "is a device" err.txt || no "/dev/zero: $(cat err.txt)"
"$mmtree" stats . 2>err.txt && no "stats of a folder"
grep -q "is a directory" err.txt || no "folder: $(cat err.txt)"
# Streams are fine: standard input, a pipe.
"$mmtree" build -q | "$mmtree" stats - > /dev/null || no "stats of a pipe"

# Lost output on standard output is an error, for every command.
for cmd in "stats knuth.txt" "verify knuth.txt" "diff knuth.txt knuth.txt" "--help" \
           "build -q" "convert knuth.txt"; do
    # shellcheck disable=SC2086
    "$mmtree" $cmd > /dev/full 2>err.txt
    [ $? = 2 ] || no "'$cmd > /dev/full' did not fail"
    grep -q "standard output" err.txt || no "'$cmd > /dev/full': $(cat err.txt)"
done

# Messages are one line, whatever the arguments hold.
"$mmtree" build --first "$(printf '11\n2')" 2>err.txt
[ "$(wc -l < err.txt)" = 1 ] || no "a newline in an argument split the message: $(cat err.txt)"
grep -qF "'11\\n2'" err.txt || no "the newline is not escaped: $(cat err.txt)"
"$mmtree" stats "$(printf 'bad\033[31mname')" 2>err.txt
grep -qF 'bad\x1b[31mname' err.txt || no "the escape is not escaped: $(cat -v err.txt)"

exit $fail
