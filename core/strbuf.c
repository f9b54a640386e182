/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include "strbuf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

bool strbuf_reserve(strbuf *b, size_t n)
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

void strbuf_add(strbuf *b, const void *p, size_t n)
{
    if (!strbuf_reserve(b, n))
        return;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void strbuf_addc(strbuf *b, char c)
{
    strbuf_add(b, &c, 1);
}

void strbuf_adds(strbuf *b, const char *s)
{
    strbuf_add(b, s, strlen(s));
}

void strbuf_vaddf(strbuf *b, const char *fmt, va_list ap)
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
        strbuf_add(b, small, (size_t)n);
        return;
    }
    if (!strbuf_reserve(b, (size_t)n))
        return;
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void strbuf_addf(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    strbuf_vaddf(b, fmt, ap);
    va_end(ap);
}

void strbuf_truncate(strbuf *b, size_t len)
{
    if (len < b->len) {
        b->len = len;
        b->data[len] = '\0';
    }
}

void strbuf_release(strbuf *b)
{
    free(b->data);
    *b = (strbuf){0};
}

char *strbuf_detach(strbuf *b, size_t *len)
{
    if (b->failed || !strbuf_reserve(b, 0)) {
        strbuf_release(b);
        return NULL;
    }
    char *p = b->data;
    if (len)
        *len = b->len;
    *b = (strbuf){0};
    return p;
}
