/*
 * A growable byte string, the one the library builds text and binary
 * output in.  It stays NUL-terminated (the NUL not counted in len) and
 * remembers a failed allocation, so callers add freely and test `failed`
 * once at the end.  A zeroed buf is empty and ready.
 */
#ifndef MM_CORE_BUF_H
#define MM_CORE_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct buf {
    char *data;      /* NULL until something is added */
    size_t len, cap;
    bool failed;     /* an allocation failed: data holds what fitted */
} buf;

/* Make room for n more bytes (and the NUL); false when out of memory. */
bool buf_reserve(buf *b, size_t n);
void buf_add(buf *b, const void *p, size_t n);
void buf_addc(buf *b, char c);
void buf_adds(buf *b, const char *s);
void buf_addf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vaddf(buf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Keep the first len bytes. */
void buf_truncate(buf *b, size_t len);
void buf_release(buf *b);
/* Hand the bytes over (malloc'd, NUL-terminated; *len without the NUL)
 * and leave b empty; NULL when an allocation failed (b is released). */
char *buf_detach(buf *b, size_t *len);

#endif
