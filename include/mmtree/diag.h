/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Status codes and diagnostics shared by every part of libmmtree.
 *
 * The library never prints and never exits: a failing function returns an
 * mm_status and, when the caller passed an mm_diag, fills it with the place
 * of the problem (file, line:col or byte offset) and a one-line message.
 * Only the command turns that into "file:line:col: error: message" and an
 * exit status.
 */
#ifndef MMTREE_DIAG_H
#define MMTREE_DIAG_H

#include <stdarg.h>
#include <stdint.h>

/* What libmmtree exports: everything else in it is hidden. */
#if defined(__GNUC__)
#define MM_EXPORT __attribute__((visibility("default")))
#else
#define MM_EXPORT
#endif

typedef enum mm_status {
    MM_OK = 0,
    MM_ERR_USAGE,   /* a bad argument: unknown rule, p or c out of range */
    MM_ERR_INPUT,   /* malformed or inconsistent input data */
    MM_ERR_LIMIT,   /* input or game beyond what mmtree supports */
    MM_ERR_NOMEM,   /* an allocation failed */
    MM_ERR_IO,      /* reading or writing a file failed */
    MM_ERR_CHECK,   /* a check ran and found problems (verify, diff) */
} mm_status;

enum { MM_DIAG_FILE_MAX = 256, MM_DIAG_MSG_MAX = 512 };

typedef struct mm_diag {
    char file[MM_DIAG_FILE_MAX]; /* "" when the problem has no file */
    unsigned long line;          /* 1-based; 0 when not known */
    unsigned long col;           /* 1-based; 0 when not known */
    int64_t offset;              /* byte offset for binary input; -1 if none */
    char msg[MM_DIAG_MSG_MAX];   /* lowercase, no final full stop */
} mm_diag;

/* Reset to "no problem, no place". */
MM_EXPORT void mm_diag_clear(mm_diag *d);

/* Name the file later messages refer to (NULL or "-" = standard input). */
MM_EXPORT void mm_diag_file(mm_diag *d, const char *file);

/* Record a message (printf-style) and return st, so callers can write
 * "return mm_diag_set(d, MM_ERR_INPUT, ...)". d may be NULL. */
MM_EXPORT mm_status mm_diag_set(mm_diag *d, mm_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
MM_EXPORT mm_status mm_diag_at(mm_diag *d, mm_status st, unsigned long line,
                     unsigned long col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
MM_EXPORT mm_status mm_diag_at_offset(mm_diag *d, mm_status st, int64_t offset,
                            const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
MM_EXPORT mm_status mm_diag_vset(mm_diag *d, mm_status st, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

/* Format "file:line:col: " (or "file: byte N: " or "file: ") into buf. */
MM_EXPORT void mm_diag_where(const mm_diag *d, char *buf, unsigned long size);

MM_EXPORT const char *mm_status_str(mm_status st);

#endif
