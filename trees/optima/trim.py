#!/usr/bin/env python3
# Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT
"""Trim a checkpoint of the exact search to the facts about big sets.

    python3 trees/optima/trim.py [--min-codes N] IN OUT

A checkpoint (compiler/checkpoint.md) holds the whole table of solved
sets: gigabytes after hours of a search of 15,000 codes.  Every entry is a
proven fact about one set, so any subset of them is a valid checkpoint;
the facts about the sets of at least N codes (default 64) are one entry
in thousands (MM(6,5) after 90 minutes: 34450 of 106 million, 1.1 MB)
and hold the work that is dear to do again: a search resumed from them
finds the big sets it had solved in the table and searches again only
below the sets it had not finished.  That is what a long run carries
from one machine to the next (trees/optima/progress/, and notes.md,
"Carrying a search").

IN is checked as mmtree checks it (signature, version, checksum, length,
entry size); OUT gets the same header (of version 3 or 4; version 4's
processor time too, the time of the work that found the facts kept), the
entries of at least N codes and a new count and checksum, written
atomically.  Exit status 2, with one line naming the file and the byte
offset, when IN is not a checkpoint of a version this script knows or OUT
cannot be written.
"""
import argparse
import os
import struct
import sys
import tempfile
import zlib

SIGNATURE = b"\x89MMC\r\n\x1a\n"
OLD_SIGNATURE = b"\x89MMOPT\r\n\x1a\n"
HEADERS = {3: 40, 4: 56}   # the header's length by version
ENTRY = 32
TRAILER = 12   # entry count (u64) and checksum (u32)


class Refused(Exception):
    def __init__(self, offset, what):
        super().__init__(what)
        self.offset = offset


def check(f, length):
    """The checks of checkpoint.md's "Checking order" that concern the
    file as a whole, in that order: the length, the signature, the
    version, the checksum (a first pass over the file), the length against
    the entry count, the entry size.  mmtree checks the rest, the game and
    every entry, when it loads what trim writes."""
    least = min(HEADERS.values()) + TRAILER
    if length < least:
        raise Refused(length, "truncated: %d bytes, a checkpoint has at least %d"
                      % (length, least))
    head = f.read(9)
    if head[:len(OLD_SIGNATURE)] == OLD_SIGNATURE:
        raise Refused(0, "a checkpoint of an older version (1 or 2)")
    if head[:8] != SIGNATURE:
        raise Refused(0, "not an mmtree checkpoint")
    if head[8] not in HEADERS:
        raise Refused(8, "checkpoint version %d, this script knows %s"
                      % (head[8], " and ".join(map(str, sorted(HEADERS)))))
    header = HEADERS[head[8]]
    if length < header + TRAILER:
        raise Refused(length, "truncated: %d bytes, a checkpoint of version %d has at least %d"
                      % (length, head[8], header + TRAILER))
    head += f.read(header - len(head))
    crc, at = zlib.crc32(head), header
    while at < length - 4:
        chunk = f.read(min(length - 4 - at, 1 << 20))
        if not chunk:
            raise Refused(at, "the file changed while it was read")
        crc = zlib.crc32(chunk, crc)
        at += len(chunk)
    f.seek(length - TRAILER)
    tail = f.read(TRAILER)
    if len(tail) != TRAILER:
        raise Refused(length - TRAILER, "the file changed while it was read")
    (count, check) = struct.unpack("<QI", tail)
    if crc != check:
        raise Refused(length - 4, "checksum mismatch: the file is damaged")
    if count > length // ENTRY or header + ENTRY * count + TRAILER != length:
        raise Refused(length - TRAILER, "%d entries do not fill %d bytes" % (count, length))
    if head[13] != ENTRY:
        raise Refused(13, "entry size %d, not %d" % (head[13], ENTRY))
    return head, count


def trim(f, length, min_codes):
    """The checkpoint read from f (length bytes), checked, with only its
    entries of at least min_codes codes; and the number of entries kept
    and read."""
    head, count = check(f, length)
    f.seek(len(head))
    kept = bytearray(head)
    left = count
    while left:
        chunk = f.read(ENTRY * min(left, 1 << 16))
        if not chunk or len(chunk) % ENTRY:
            raise Refused(length - TRAILER - ENTRY * left, "the file changed while it was read")
        for at, (size,) in zip(range(0, len(chunk), ENTRY),
                               struct.iter_unpack("<28xI", chunk)):
            if size >= min_codes:
                kept += chunk[at:at + ENTRY]
        left -= len(chunk) // ENTRY
    n = (len(kept) - len(head)) // ENTRY
    kept += struct.pack("<Q", n)
    kept += struct.pack("<I", zlib.crc32(kept))
    return bytes(kept), n, count


def write_atomic(path, data):
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".trim-", dir=folder)
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(fd, 0o666 & ~mask)   # as a file created by open()
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main():
    ap = argparse.ArgumentParser(
        prog="trim.py",
        description="Keep the facts about sets of at least N codes of an mmtree checkpoint.")
    ap.add_argument("--min-codes", type=int, default=64, metavar="N",
                    help="keep the entries of sets of at least N codes (default 64)")
    ap.add_argument("input", metavar="IN")
    ap.add_argument("output", metavar="OUT")
    a = ap.parse_args()
    if a.min_codes < 3:
        ap.error("--min-codes: at least 3 (a checkpoint holds no smaller set)")
    try:
        with open(a.input, "rb") as f:
            out, kept, read = trim(f, os.fstat(f.fileno()).st_size, a.min_codes)
    except OSError as e:
        print("trim.py: %s: %s" % (a.input, e.strerror), file=sys.stderr)
        return 2
    except Refused as e:
        print("trim.py: %s: byte %d: %s" % (a.input, e.offset, e), file=sys.stderr)
        return 2
    try:
        write_atomic(a.output, out)
    except OSError as e:
        print("trim.py: %s: %s" % (a.output, e.strerror), file=sys.stderr)
        return 2
    print("trim.py: %s: %d of %d entries (sets of at least %d codes), %d bytes"
          % (a.output, kept, read, a.min_codes, len(out)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
