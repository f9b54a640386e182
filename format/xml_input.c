/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The bytes libxml2 is given: the document decoded to UTF-8 here, once,
 * so that what mmtree checks before parsing and what libxml2 parses are
 * the same characters.  XML processors must read UTF-8 and UTF-16; mmtree
 * also reads ISO-8859-1 (and US-ASCII), and refuses every other encoding
 * (UTF-7 above all, whose "+ADw-" is a '<' that no byte scan sees).
 *
 * The encoding is found as the XML recommendation (appendix F) and
 * libxml2 find it: a byte order mark, else the first four bytes, else the
 * encoding="..." of the XML declaration.  Before libxml2 parses anything,
 * the decoded text is scanned for what libxml2 would take too long over
 * (xml_common.h: attributes an element) or cannot take (NUL).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xml_common.h"

/* Too many attributes on one element make libxml2 2.9 quadratic (its
 * duplicate check): 60,000 took 5 s, 200,000 two minutes.  The schema
 * allows 6 on any element, plus namespace declarations. */
#define XML_MAX_ATTRIBUTES 32

enum enc { ENC_UTF8, ENC_ASCII, ENC_LATIN1, ENC_UTF16LE, ENC_UTF16BE };

/* The value of encoding="..." in an XML declaration at the start of the
 * ASCII-compatible text p[0..len), or NULL (*n = 0) when there is none. */
static const unsigned char *declared_encoding(const unsigned char *p, size_t len, size_t *n)
{
    *n = 0;
    if (len < 6 || memcmp(p, "<?xml", 5) != 0 || !strchr(" \t\r\n", p[5]))
        return NULL;
    const unsigned char *end = memchr(p, '>', len);
    size_t lim = end ? (size_t)(end - p) : len;
    for (size_t i = 5; i + 8 < lim; i++) {
        if (memcmp(p + i, "encoding", 8) != 0 || !strchr(" \t\r\n", p[i - 1]))
            continue;
        size_t j = i + 8;
        while (j < lim && strchr(" \t\r\n", p[j]))
            j++;
        if (j >= lim || p[j] != '=')
            return NULL;
        for (j++; j < lim && strchr(" \t\r\n", p[j]); j++)
            ;
        if (j >= lim || (p[j] != '"' && p[j] != '\''))
            return NULL;
        const unsigned char *q = memchr(p + j + 1, p[j], lim - j - 1);
        if (!q)
            return NULL;
        *n = (size_t)(q - (p + j + 1));
        return p + j + 1;
    }
    return NULL;
}

static bool name_is(const unsigned char *s, size_t n, const char *const *names)
{
    for (; *names; names++)
        if (strlen(*names) == n && strncasecmp((const char *)s, *names, n) == 0)
            return true;
    return false;
}

/* The encoding of p, or MM_ERR_INPUT naming one mmtree does not read. */
static mm_status find_encoding(const unsigned char *p, size_t len, enum enc *e, size_t *skip,
                               mm_diag *d)
{
    static const char *const utf8[] = {"UTF-8", "UTF8", NULL};
    static const char *const ascii[] = {"US-ASCII", "ASCII", NULL};
    static const char *const latin1[] = {"ISO-8859-1", "ISO_8859-1", "ISO-LATIN-1", "LATIN1",
                                         "L1", NULL};
    static const char *const utf16[] = {"UTF-16", "UTF16", NULL};
    *skip = 0;
    *e = ENC_UTF8;
    if (len >= 2 && p[0] == 0xFF && p[1] == 0xFE && !(len >= 4 && !p[2] && !p[3])) {
        *e = ENC_UTF16LE;
        *skip = 2;
    } else if (len >= 2 && p[0] == 0xFE && p[1] == 0xFF) {
        *e = ENC_UTF16BE;
        *skip = 2;
    } else if (len >= 4 && !memcmp(p, "<\0?\0", 4)) {
        *e = ENC_UTF16LE;
    } else if (len >= 4 && !memcmp(p, "\0<\0?", 4)) {
        *e = ENC_UTF16BE;
    } else if (len >= 4 && memchr(p, 0, 4)) {
        return mm_diag_at(d, MM_ERR_INPUT, 1, 1, "NUL bytes, but neither a UTF-16 byte order "
                          "mark nor '<?xml': mmtree reads XML in UTF-8, UTF-16 and ISO-8859-1");
    } else if (len >= 4 && !memcmp(p, "\x4C\x6F\xA7\x94", 4)) {
        return mm_diag_at(d, MM_ERR_INPUT, 1, 1, "the document is in EBCDIC: "
                          "mmtree reads XML in UTF-8, UTF-16 and ISO-8859-1");
    } else if (len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3)) {
        *skip = 3;
    }
    if (*e == ENC_UTF16LE || *e == ENC_UTF16BE)
        return MM_OK; /* the declaration is read after decoding */
    size_t n;
    const unsigned char *v = declared_encoding(p + *skip, len - *skip, &n);
    if (!v || name_is(v, n, utf8))
        return MM_OK;
    if (*skip == 0 && name_is(v, n, ascii)) {
        *e = ENC_ASCII;
    } else if (*skip == 0 && name_is(v, n, latin1)) {
        *e = ENC_LATIN1;
    } else {
        unsigned long line, col;
        int shown = (int)(n > 40 ? 40 : n);
        xml_scan_position(p, len, (size_t)(v - p), &line, &col);
        if (*skip)
            return mm_diag_at(d, MM_ERR_INPUT, line, col, "the document starts with a UTF-8 "
                              "byte order mark but declares encoding '%.*s'", shown,
                              (const char *)v);
        if (name_is(v, n, utf16))
            return mm_diag_at(d, MM_ERR_INPUT, line, col, "the document declares encoding "
                              "'%.*s', but its bytes are not UTF-16", shown, (const char *)v);
        return mm_diag_at(d, MM_ERR_INPUT, line, col, "encoding '%.*s' is not supported: "
                          "mmtree reads XML in UTF-8, UTF-16 and ISO-8859-1", shown,
                          (const char *)v);
    }
    return MM_OK;
}

static void put_utf8(unsigned char *o, size_t *k, uint32_t c)
{
    if (c < 0x80) {
        o[(*k)++] = (unsigned char)c;
    } else if (c < 0x800) {
        o[(*k)++] = (unsigned char)(0xC0 | c >> 6);
        o[(*k)++] = (unsigned char)(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        o[(*k)++] = (unsigned char)(0xE0 | c >> 12);
        o[(*k)++] = (unsigned char)(0x80 | (c >> 6 & 0x3F));
        o[(*k)++] = (unsigned char)(0x80 | (c & 0x3F));
    } else {
        o[(*k)++] = (unsigned char)(0xF0 | c >> 18);
        o[(*k)++] = (unsigned char)(0x80 | (c >> 12 & 0x3F));
        o[(*k)++] = (unsigned char)(0x80 | (c >> 6 & 0x3F));
        o[(*k)++] = (unsigned char)(0x80 | (c & 0x3F));
    }
}

/* Decode UTF-16 or Latin-1 p[0..len) into in->text (at most 3 bytes out
 * a 2-byte unit, 2 a Latin-1 byte); a bad unit fails at its place in what
 * was decoded. */
static mm_status decode(const unsigned char *p, size_t len, enum enc e, xml_input *in,
                        mm_diag *d)
{
    unsigned char *o = calloc(len / 2 * 3 + len + 1, 1);
    size_t k = 0;
    if (!o)
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory for a document of %zu bytes", len);
    in->owned = o;
    in->text = o;
    if (e == ENC_LATIN1) {
        for (size_t i = 0; i < len; i++)
            put_utf8(o, &k, p[i]);
        in->len = k;
        return MM_OK;
    }
    bool le = e == ENC_UTF16LE;
    for (size_t i = 0; i < len; i += 2) {
        uint32_t c = i + 1 < len ? (uint32_t)(le ? p[i] | p[i + 1] << 8 : p[i] << 8 | p[i + 1])
                                 : 0xDC00;
        if (c >= 0xD800 && c < 0xDC00 && i + 3 < len) {
            uint32_t c2 = le ? (uint32_t)(p[i + 2] | p[i + 3] << 8)
                             : (uint32_t)(p[i + 2] << 8 | p[i + 3]);
            if (c2 >= 0xDC00 && c2 < 0xE000) {
                c = 0x10000 + ((c - 0xD800) << 10) + (c2 - 0xDC00);
                i += 2;
            }
        }
        if (c >= 0xD800 && c < 0xE000) {
            unsigned long line, col;
            xml_scan_position(o, k, k, &line, &col);
            return mm_diag_at(d, MM_ERR_INPUT, line, col, "%s in a UTF-16 document",
                              i + 1 < len ? "an unpaired surrogate" : "an odd last byte");
        }
        put_utf8(o, &k, c);
    }
    in->len = k;
    /* The declaration, now readable, must not claim another encoding. */
    static const char *const utf16[] = {"UTF-16", "UTF16", "UTF-16LE", "UTF-16BE", NULL};
    size_t n;
    const unsigned char *v = declared_encoding(o, k, &n);
    if (v && !name_is(v, n, utf16)) {
        unsigned long line, col;
        xml_scan_position(o, k, (size_t)(v - o), &line, &col);
        return mm_diag_at(d, MM_ERR_INPUT, line, col,
                          "the document is UTF-16 but declares encoding '%.*s'",
                          (int)(n > 40 ? 40 : n), (const char *)v);
    }
    return MM_OK;
}

/* Start tags with more attributes than libxml2 should be given: one '='
 * outside quotes each, up to the tag's '>'.  The scan keeps no line and
 * column (a tenth of the time of reading a large tree went to that): a
 * refused tag's place is found when needed. */
static mm_status check_tags(const xml_input *in, mm_diag *d)
{
    xml_scan s = {in->text, in->len, 0, 1, 1, true};
    while (xml_scan_next_tag(&s)) {
        size_t i = s.pos + 1, name = i;
        int attrs = 0;
        unsigned char quote = 0;
        while (i < in->len && !strchr(" \t\r\n/>", in->text[i]))
            i++;
        size_t name_len = i - name;
        for (; i < in->len; i++) {
            unsigned char c = in->text[i];
            if (quote) {
                quote = c == quote ? 0 : quote;
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '>') {
                break;
            } else if (c == '=' && ++attrs > XML_MAX_ATTRIBUTES) {
                unsigned long line, col;
                xml_scan_position(in->text, in->len, s.pos, &line, &col);
                return mm_diag_at(d, MM_ERR_LIMIT, line, col,
                                  "<%.*s> has more than %d attributes", (int)(name_len > 40 ? 40
                                  : name_len), (const char *)in->text + name, XML_MAX_ATTRIBUTES);
            }
        }
        xml_scan_to(&s, i < in->len ? i : in->len);
    }
    return MM_OK;
}

mm_status xml_input_prepare(const unsigned char *buf, size_t len, xml_input *in, mm_diag *d)
{
    enum enc e;
    size_t skip;
    mm_status st;
    memset(in, 0, sizeof *in);
    if (len > XML_MAX_BYTES)
        return mm_diag_set(d, MM_ERR_LIMIT, "XML documents are limited to %d bytes, "
                           "this one has %zu", XML_MAX_BYTES, len);
    if ((st = find_encoding(buf, len, &e, &skip, d)))
        return st;
    if (e == ENC_ASCII) {
        for (size_t i = 0; i < len; i++)
            if (buf[i] >= 0x80) {
                unsigned long line, col;
                xml_scan_position(buf, len, i, &line, &col);
                return mm_diag_at(d, MM_ERR_INPUT, line, col,
                                  "byte 0x%02x in a document declared US-ASCII", buf[i]);
            }
    }
    if (e == ENC_UTF8 || e == ENC_ASCII) {
        in->text = buf + skip;
        in->len = len - skip;
    } else if ((st = decode(buf + skip, len - skip, e, in, d))) {
        return st;
    }
    const unsigned char *nul = memchr(in->text, 0, in->len);
    if (nul) {
        unsigned long line, col;
        xml_scan_position(in->text, in->len, (size_t)(nul - in->text), &line, &col);
        return mm_diag_at(d, MM_ERR_INPUT, line, col, "NUL character: XML text has none");
    }
    return check_tags(in, d);
}

void xml_input_release(xml_input *in)
{
    free(in->owned);
    memset(in, 0, sizeof *in);
}
