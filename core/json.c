/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include "json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

size_t utf8_seq(const unsigned char *s, size_t len)
{
    unsigned c = s[0];
    size_t n;
    unsigned min;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, min = 0x10000;
    else
        return 0;
    if (len < n)
        return 0;
    unsigned cp = c & (0x7F >> n);
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

void json_escape(strbuf *b, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        unsigned c = p[i];
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            size_t j = i;
            while (j < len && p[j] >= 0x20 && p[j] < 0x80 && p[j] != '"' && p[j] != '\\')
                j++;
            strbuf_add(b, s + i, j - i);
            i = j;
            continue;
        }
        switch (c) {
        case '"': strbuf_adds(b, "\\\""); break;
        case '\\': strbuf_adds(b, "\\\\"); break;
        case '\n': strbuf_adds(b, "\\n"); break;
        case '\t': strbuf_adds(b, "\\t"); break;
        case '\r': strbuf_adds(b, "\\r"); break;
        default:
            if (c < 0x20) {
                strbuf_addf(b, "\\u%04x", c);
            } else {
                size_t n = utf8_seq(p + i, len - i);
                if (n) {
                    strbuf_add(b, s + i, n);
                    i += n;
                    continue;
                }
                strbuf_adds(b, "\\ufffd");
            }
        }
        i++;
    }
}

void json_init(json_writer *j, strbuf *out)
{
    *j = (json_writer){.out = out};
    j->first[0] = true;
}

/* Before a value: the comma that separates it from the one before. */
static void item(json_writer *j)
{
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    if (!j->first[j->depth])
        strbuf_adds(j->out, ", ");
    j->first[j->depth] = false;
}

static void open_(json_writer *j, char c)
{
    item(j);
    strbuf_addc(j->out, c);
    if (j->depth + 1 < JSON_MAX_DEPTH)
        j->depth++;
    else
        j->out->failed = true;
    j->first[j->depth] = true;
}

static void close_(json_writer *j, char c)
{
    if (j->depth > 0)
        j->depth--;
    strbuf_addc(j->out, c);
}

void json_object_begin(json_writer *j) { open_(j, '{'); }
void json_object_end(json_writer *j) { close_(j, '}'); }
void json_array_begin(json_writer *j) { open_(j, '['); }
void json_array_end(json_writer *j) { close_(j, ']'); }

void json_key(json_writer *j, const char *key)
{
    item(j);
    strbuf_addc(j->out, '"');
    json_escape(j->out, key, strlen(key));
    strbuf_adds(j->out, "\": ");
    j->after_key = true;
}

void json_strn(json_writer *j, const char *s, size_t len)
{
    item(j);
    strbuf_addc(j->out, '"');
    json_escape(j->out, s, len);
    strbuf_addc(j->out, '"');
}

void json_str(json_writer *j, const char *s)
{
    json_strn(j, s, strlen(s));
}

void json_uint(json_writer *j, uint64_t v)
{
    item(j);
    strbuf_addf(j->out, "%llu", (unsigned long long)v);
}

void json_int(json_writer *j, int64_t v)
{
    item(j);
    strbuf_addf(j->out, "%lld", (long long)v);
}

void json_double(json_writer *j, double v, int decimals)
{
    item(j);
    if (isfinite(v))
        strbuf_addf(j->out, "%.*f", decimals, v);
    else
        strbuf_adds(j->out, "null");
}

void json_bool(json_writer *j, bool v)
{
    item(j);
    strbuf_adds(j->out, v ? "true" : "false");
}

void json_null(json_writer *j)
{
    item(j);
    strbuf_adds(j->out, "null");
}
