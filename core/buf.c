#include "buf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

bool buf_reserve(buf *b, size_t n)
{
    if (b->failed)
        return false;
    char *p = n < SIZE_MAX - 1 - b->len ? grow_array(b->data, &b->cap, b->len + n + 1, 256, 1)
                                        : NULL;
    if (!p) {
        b->failed = true;
        return false;
    }
    b->data = p;
    return true;
}

void buf_add(buf *b, const void *p, size_t n)
{
    if (!buf_reserve(b, n))
        return;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void buf_addc(buf *b, char c)
{
    buf_add(b, &c, 1);
}

void buf_adds(buf *b, const char *s)
{
    buf_add(b, s, strlen(s));
}

void buf_vaddf(buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    char small[128];
    int n = vsnprintf(small, sizeof small, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        b->failed = true;
        return;
    }
    if ((size_t)n < sizeof small) {
        buf_add(b, small, (size_t)n);
        return;
    }
    if (!buf_reserve(b, (size_t)n))
        return;
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void buf_addf(buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_vaddf(b, fmt, ap);
    va_end(ap);
}

void buf_truncate(buf *b, size_t len)
{
    if (len < b->len) {
        b->len = len;
        b->data[len] = '\0';
    }
}

void buf_release(buf *b)
{
    free(b->data);
    *b = (buf){0};
}

char *buf_detach(buf *b, size_t *len)
{
    if (b->failed || !buf_reserve(b, 0)) {
        buf_release(b);
        return NULL;
    }
    char *p = b->data;
    if (len)
        *len = b->len;
    *b = (buf){0};
    return p;
}
