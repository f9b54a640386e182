/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Files: the one reader and the one atomic writer of libmmtree.
 *
 * Reading takes a regular file of known size, or a stream (standard
 * input, a pipe, a FIFO) read up to a cap; devices are refused, and a
 * FIFO is opened without waiting for a writer (no writer: it reads as
 * empty), so nothing blocks silently.  A regular file can also be read
 * a piece at a time (infile), with the same checks.
 *
 * Writing goes to a temporary file created exclusively (O_EXCL, so a
 * planted symlink is never followed) beside the target, with a short
 * name (".mmtree-XXXXXX") that fits next to any valid target name; it is
 * flushed to disk and renamed over the target, so a failed or interrupted
 * write leaves the old file untouched.  The target of a symlink is
 * replaced and the link kept; an existing file keeps its mode (and owner,
 * where allowed); a file with other hard links is rewritten in place once
 * the new contents are safely on disk, so that all its names see them.
 * Standard output ("-"), devices and FIFOs are written as they are; a
 * FIFO without a reader is an error, not a wait.  Messages name the
 * target as the caller gave it, never the temporary file.
 *
 * Temporary files are listed while they exist, so that a signal handler
 * can remove them (outfile_remove_all is async-signal-safe).
 */
#ifndef MM_CORE_FILE_H
#define MM_CORE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mmtree/diag.h"

#define FILE_REGULAR_ONLY 0x1u /* refuse streams too (checkpoints) */

/* Read the whole file ("-": standard input) into *buf (malloc'd, with a
 * NUL after the len bytes); at most max bytes, else MM_ERR_LIMIT. */
mm_status file_read(const char *path, size_t max, unsigned flags,
                    unsigned char **buf, size_t *len, mm_diag *d);

/* A regular file read a piece at a time, for files that need not be in
 * memory at once (checkpoints: gigabytes).  infile_read reads all n
 * bytes at off: a file that got shorter meanwhile is an error. */
typedef struct infile {
    int fd;
    const char *name;   /* as the caller gave it, for messages */
    uint64_t size;      /* when opened */
} infile;

mm_status infile_open(infile *f, const char *path, size_t max, mm_diag *d);
mm_status infile_read(infile *f, void *buf, size_t n, uint64_t off, mm_diag *d);
void infile_close(infile *f);

typedef struct outfile {
    const char *name;   /* as the caller gave it, for messages */
    char *target;       /* the file replaced: symlinks followed */
    char *tmp;          /* the temporary file, or NULL when in place */
    int fd;
    int slot;           /* in the list outfile_remove_all reads, or -1 */
    bool hardlinked;    /* the target has other names: copy in place */
    bool failed;        /* a write failed: commit refuses */
    int err;            /* errno of the failure */
} outfile;

/* Start writing path ("-" = standard output). */
mm_status outfile_open(outfile *f, const char *path, mm_diag *d);
mm_status outfile_write(outfile *f, const void *p, size_t n, mm_diag *d);
/* Put the file in place; on failure the old file is as it was. */
mm_status outfile_commit(outfile *f, mm_diag *d);
/* Give up: remove the temporary file.  Safe after commit, and twice. */
void outfile_abort(outfile *f);

/* Remove every temporary file still open (from a signal handler). */
void outfile_remove_all(void);

#endif
