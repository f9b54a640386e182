/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * A growable byte string, the one the library builds text and binary
 * output in.  It stays NUL-terminated (the NUL not counted in len) and
 * remembers a failed allocation, so callers add freely and test `failed`
 * once at the end.  A zeroed buf is empty and ready.
 */
#ifndef MM_CORE_STRBUF_H
#define MM_CORE_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct strbuf {
    char *data;      /* NULL until something is added */
    size_t len, cap;
    bool failed;     /* an allocation failed: data holds what fitted */
} strbuf;

/* Make room for n more bytes (and the NUL); false when out of memory. */
bool strbuf_reserve(strbuf *b, size_t n);
void strbuf_add(strbuf *b, const void *p, size_t n);
void strbuf_addc(strbuf *b, char c);
void strbuf_adds(strbuf *b, const char *s);
void strbuf_addf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(strbuf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Keep the first len bytes. */
void strbuf_truncate(strbuf *b, size_t len);
void strbuf_release(strbuf *b);
/* Hand the bytes over (malloc'd, NUL-terminated; *len without the NUL)
 * and leave b empty; NULL when an allocation failed (b is released). */
char *strbuf_detach(strbuf *b, size_t *len);

#endif
