/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include "mmtree/diag.h"

#include <stdio.h>
#include <string.h>

void mm_diag_clear(mm_diag *d)
{
    if (!d)
        return;
    d->file[0] = '\0';
    d->line = d->col = 0;
    d->offset = -1;
    d->msg[0] = '\0';
}

void mm_diag_file(mm_diag *d, const char *file)
{
    if (!d)
        return;
    if (!file || strcmp(file, "-") == 0)
        file = "<stdin>";
    snprintf(d->file, sizeof d->file, "%s", file);
}

mm_status mm_diag_vset(mm_diag *d, mm_status st, const char *fmt, va_list ap)
{
    if (d)
        vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    return st;
}

mm_status mm_diag_set(mm_diag *d, mm_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mm_diag_vset(d, st, fmt, ap);
    va_end(ap);
    return st;
}

mm_status mm_diag_at(mm_diag *d, mm_status st, unsigned long line,
                     unsigned long col, const char *fmt, ...)
{
    va_list ap;
    if (d) {
        d->line = line;
        d->col = col;
        d->offset = -1;
    }
    va_start(ap, fmt);
    mm_diag_vset(d, st, fmt, ap);
    va_end(ap);
    return st;
}

mm_status mm_diag_at_offset(mm_diag *d, mm_status st, int64_t offset,
                            const char *fmt, ...)
{
    va_list ap;
    if (d) {
        d->line = d->col = 0;
        d->offset = offset;
    }
    va_start(ap, fmt);
    mm_diag_vset(d, st, fmt, ap);
    va_end(ap);
    return st;
}

void mm_diag_where(const mm_diag *d, char *buf, unsigned long size)
{
    if (!size)
        return;
    buf[0] = '\0';
    if (!d || !d->file[0])
        return;
    if (d->line)
        snprintf(buf, size, "%s:%lu:%lu: ", d->file, d->line,
                 d->col ? d->col : 1);
    else if (d->offset >= 0)
        snprintf(buf, size, "%s: byte %lld: ", d->file, (long long)d->offset);
    else
        snprintf(buf, size, "%s: ", d->file);
}

const char *mm_status_str(mm_status st)
{
    switch (st) {
    case MM_OK: return "ok";
    case MM_ERR_USAGE: return "bad usage";
    case MM_ERR_INPUT: return "bad input";
    case MM_ERR_LIMIT: return "limit exceeded";
    case MM_ERR_NOMEM: return "out of memory";
    case MM_ERR_IO: return "i/o error";
    case MM_ERR_CHECK: return "check failed";
    }
    return "unknown status";
}
