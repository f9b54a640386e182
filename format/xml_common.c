/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* What the XML reader and writer share: see xml_common.h. */
#include "xml_common.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void xml_scan_to(xml_scan *s, size_t to)
{
    if (s->pos_only) {
        s->pos = to > s->pos ? to : s->pos;
        return;
    }
    for (; s->pos < to; s->pos++) {
        unsigned char c = s->p[s->pos];
        if (c == '\n' || (c == '\r' && (s->pos + 1 >= s->len || s->p[s->pos + 1] != '\n'))) {
            s->line++;
            s->col = 1;
        } else if ((c & 0xC0) != 0x80) { /* count characters, not bytes */
            s->col++;
        }
    }
}

bool xml_scan_has(const xml_scan *s, const char *lit)
{
    size_t n = strlen(lit);
    return s->len - s->pos >= n && memcmp(s->p + s->pos, lit, n) == 0;
}

void xml_scan_past(xml_scan *s, const char *lit)
{
    size_t n = strlen(lit), at = s->pos;
    for (;;) {
        const unsigned char *q = memchr(s->p + at, lit[0], s->len - at);
        if (!q || (size_t)(s->p + s->len - q) < n) {
            xml_scan_to(s, s->len);
            return;
        }
        at = (size_t)(q - s->p);
        if (memcmp(q, lit, n) == 0) {
            xml_scan_to(s, at + n);
            return;
        }
        at++;
    }
}

bool xml_scan_next_tag(xml_scan *s)
{
    for (;;) {
        const unsigned char *q = memchr(s->p + s->pos, '<', s->len - s->pos);
        if (!q) {
            xml_scan_to(s, s->len);
            return false;
        }
        xml_scan_to(s, (size_t)(q - s->p));
        if (xml_scan_has(s, "<!--"))
            xml_scan_past(s, "-->");
        else if (xml_scan_has(s, "<![CDATA["))
            xml_scan_past(s, "]]>");
        else if (xml_scan_has(s, "<?"))
            xml_scan_past(s, "?>");
        else if (xml_scan_has(s, "</"))
            xml_scan_past(s, ">");
        else
            return true;
    }
}

void xml_scan_position(const unsigned char *p, size_t len, size_t off,
                       unsigned long *line, unsigned long *col)
{
    xml_scan s = {p, len, 0, 1, 1, false};
    xml_scan_to(&s, off < len ? off : len);
    *line = s.line;
    *col = s.col;
}

/* Keep libxml2's text on one line: without our namespace (it only makes
 * the names long), the final newline and full stop, control characters
 * shown as escapes. */
static void keep_message(xml_errors *e, const char *msg)
{
    static const char ns[] = "{" MM_XML_NS "}";
    const char *m = msg ? msg : "error", *end = m + strlen(m);
    size_t o = 0;
    while (end > m && strchr(" \n\r\t.", end[-1]))
        end--;
    while (m < end && o + 3 < sizeof e->msg) {
        if ((size_t)(end - m) >= sizeof ns - 1 && !memcmp(m, ns, sizeof ns - 1)) {
            m += sizeof ns - 1;
            continue;
        }
        char c = *m++;
        if (c == '\n' || c == '\r' || c == '\t') {
            e->msg[o++] = '\\';
            e->msg[o++] = c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
        } else {
            e->msg[o++] = (unsigned char)c < 0x20 ? '?' : c;
        }
    }
    e->msg[o] = '\0';
}

void xml_on_error(void *ctx, xml_error_ptr err)
{
    xml_errors *e = ctx;
    if (e->set || !err || err->level < XML_ERR_ERROR)
        return;
    e->set = true;
    e->schema = err->domain == XML_FROM_SCHEMASV;
    keep_message(e, err->message);
    e->line = err->line > 0 ? (unsigned long)err->line : 0;
    e->col = err->int2 > 0 ? (unsigned long)err->int2 : 0;
    /* Validity errors carry no column; they come while the parser has
     * just read the offending tag: point at its '<'. */
    if (e->schema && e->reader) {
        long off = xmlTextReaderByteConsumed(e->reader);
        if (off > 0 && (size_t)off <= e->len) {
            size_t at = (size_t)off - 1;
            while (at > 0 && e->buf[at] != '<')
                at--;
            xml_scan_position(e->buf, e->len, at, &e->line, &e->col);
        }
    }
}

static void on_generic(void *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void on_generic(void *ctx, const char *fmt, ...)
{
    xml_errors *e = ctx;
    char msg[MM_DIAG_MSG_MAX];
    va_list ap;
    if (e->set)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    e->set = true;
    keep_message(e, msg);
}

void xml_handlers_install(xml_handlers *saved, xml_errors *e)
{
    saved->serror = xmlStructuredError;
    saved->sctx = xmlStructuredErrorContext;
    saved->gerror = xmlGenericError;
    saved->gctx = xmlGenericErrorContext;
    xmlSetStructuredErrorFunc(e, xml_on_error);
    xmlSetGenericErrorFunc(e, on_generic);
}

void xml_handlers_restore(const xml_handlers *saved)
{
    xmlSetStructuredErrorFunc(saved->sctx, saved->serror);
    xmlSetGenericErrorFunc(saved->gctx, saved->gerror);
}
