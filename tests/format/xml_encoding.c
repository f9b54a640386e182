/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * XML in the encodings mmtree reads (UTF-8, UTF-16 either way, with or
 * without a byte order mark, ISO-8859-1, US-ASCII) gives the same tree
 * and citation, with the same positions in messages; any other encoding
 * (UTF-7 above all) is refused; and a DOCTYPE is refused in every form,
 * because the check is made on what the parser reports, not on bytes: a
 * UTF-7 '+ADw-!DOCTYPE' or a UTF-16 one never shows "<!DOCTYPE" to a
 * byte scan.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmtree/format.h"

#include "tests/check.h"

/* MM(2,2) by Knuth's rule, with a citation outside ASCII: "Été" (U+00C9,
 * U+00E9).  %s: the encoding declaration; %s: what comes before <mmtree>
 * on line 2 (a DOCTYPE, or nothing). */
static const char doc_fmt[] =
    "<?xml version=\"1.0\"%s?>\n"
    "%s<mmtree xmlns=\"urn:mmtree:tree:1\">\n"
    "  <game pegs=\"2\" colors=\"2\" repeat=\"true\"/>\n"
    "  <provenance><citation>\xc3\x89t\xc3\xa9 2026</citation></provenance>\n"
    "  <tree>\n"
    "    <node guess=\"11\" count=\"%d\">\n"
    "      <node reply=\"0,0\" guess=\"22\" count=\"1\"/>\n"
    "      <node reply=\"1,0\" guess=\"12\" count=\"2\">\n"
    "        <node reply=\"0,2\" guess=\"21\" count=\"1\"/>\n"
    "      </node>\n"
    "    </node>\n"
    "  </tree>\n"
    "</mmtree>\n";

static char *doc(const char *decl, const char *before, int count)
{
    size_t n = strlen(doc_fmt) + strlen(decl) + strlen(before) + 16;
    char *s = malloc(n);
    if (!s)
        exit(1);
    snprintf(s, n, doc_fmt, decl, before, count);
    return s;
}

/* UTF-8 text as UTF-16 (le: little-endian), with a byte order mark when
 * bom; *len receives the length in bytes. */
static unsigned char *utf16(const char *s, bool le, bool bom, size_t *len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t n = strlen(s), k = 0;
    unsigned char *o = malloc(2 * n + 2);
    if (!o)
        exit(1);
    if (bom) {
        o[k++] = le ? 0xFF : 0xFE;
        o[k++] = le ? 0xFE : 0xFF;
    }
    for (size_t i = 0; i < n;) {
        unsigned c = u[i];
        if (c >= 0xC0) { /* two-byte sequences are all this test writes */
            c = (c & 0x1F) << 6 | (u[i + 1] & 0x3F);
            i += 2;
        } else {
            i++;
        }
        o[k++] = (unsigned char)(le ? c : c >> 8);
        o[k++] = (unsigned char)(le ? c >> 8 : c);
    }
    *len = k;
    return o;
}

/* UTF-8 text (two-byte sequences at most) as ISO-8859-1. */
static unsigned char *latin1(const char *s, size_t *len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t n = strlen(s), k = 0;
    unsigned char *o = malloc(n + 1);
    if (!o)
        exit(1);
    for (size_t i = 0; i < n; i++) {
        if (u[i] >= 0xC0) {
            o[k++] = (unsigned char)((u[i] & 0x1F) << 6 | (u[i + 1] & 0x3F));
            i++;
        } else {
            o[k++] = u[i];
        }
    }
    *len = k;
    return o;
}

static mm_tree want;

/* Read buf, its format detected: it must give the tree of want, or fail
 * with a message containing msg at line:col. */
static void expect(const char *label, const unsigned char *buf, size_t len, const char *msg,
                   unsigned long line, unsigned long col)
{
    mm_tree t;
    mm_diag d;
    mm_diag_clear(&d);
    mm_status st = mm_tree_read_mem(label, buf, len, MM_FMT_AUTO, 0, &t, &d);
    if (!msg) {
        if (st)
            FAIL("%s: %lu:%lu %s", label, d.line, d.col, d.msg);
        else if (!mm_tree_equal(&t, &want) || !t.prov.citation ||
                 strcmp(t.prov.citation, want.prov.citation))
            FAIL("%s: not the tree, or not the citation (%s)", label,
                 t.prov.citation ? t.prov.citation : "none");
        else
            printf("ok   %s\n", label);
    } else if (st != MM_ERR_INPUT || !strstr(d.msg, msg) || d.line != line || d.col != col) {
        FAIL("%s: status %d at %lu:%lu '%s'; want %lu:%lu '%s'", label, st, d.line, d.col,
             d.msg, line, col, msg);
    } else {
        printf("ok   %s: %lu:%lu %s\n", label, d.line, d.col, d.msg);
    }
    if (!st)
        mm_tree_release(&t);
}

/* The same document in UTF-8, UTF-16 (both orders, with and without a
 * byte order mark) and ISO-8859-1. */
static void every_encoding(const char *label, const char *before, int count, const char *msg,
                           unsigned long line, unsigned long col)
{
    char name[128];
    size_t len;
    char *s = doc("", before, count);
    snprintf(name, sizeof name, "%s, UTF-8", label);
    expect(name, (const unsigned char *)s, strlen(s), msg, line, col);
    free(s);
    for (int v = 0; v < 4; v++) {
        bool le = v & 1, bom = v & 2;
        s = doc(bom ? "" : " encoding=\"UTF-16\"", before, count);
        unsigned char *u = utf16(s, le, bom, &len);
        snprintf(name, sizeof name, "%s, UTF-16%s%s", label, le ? "LE" : "BE",
                 bom ? " with a BOM" : "");
        expect(name, u, len, msg, line, col);
        free(u);
        free(s);
    }
    s = doc(" encoding=\"ISO-8859-1\"", before, count);
    unsigned char *l = latin1(s, &len);
    snprintf(name, sizeof name, "%s, ISO-8859-1", label);
    expect(name, l, len, msg, line, col);
    free(l);
    free(s);
}

int main(void)
{
    char *s = doc("", "", 4);
    mm_diag d;
    if (mm_tree_read_mem("base", (const unsigned char *)s, strlen(s), MM_FMT_XML, 0, &want,
                         &d)) {
        printf("FAIL: the UTF-8 document: %lu:%lu %s\n", d.line, d.col, d.msg);
        return 1;
    }
    free(s);

    every_encoding("reads", "", 4, NULL, 0, 0);
    /* Places in messages are characters, the same in every encoding. */
    every_encoding("wrong count", "", 5, "guess 11: states 5 codes, 4 are possible", 6, 5);
    every_encoding("DOCTYPE with an internal subset",
                   "<!DOCTYPE mmtree [ <!ENTITY e \"x\"> ]>\n", 4,
                   "a DOCTYPE is not allowed in an mmtree document", 2, 1);
    every_encoding("DOCTYPE with a SYSTEM id", "<!DOCTYPE mmtree SYSTEM \"http://x/y.dtd\">\n",
                   4, "a DOCTYPE is not allowed in an mmtree document", 2, 1);

    /* UTF-7: '+ADw-' is '<', so no byte scan sees the DOCTYPE; mmtree
     * reads no UTF-7 at all. */
    static const char utf7[] =
        "<?xml version=\"1.0\" encoding=\"UTF-7\"?>\n"
        "+ADw-!DOCTYPE mmtree SYSTEM +ACI-http://x/y.dtd+ACI-+AD4-\n"
        "<mmtree xmlns=\"urn:mmtree:tree:1\"><game pegs=\"1\" colors=\"1\" repeat=\"true\"/>"
        "<provenance/><tree><node guess=\"1\" count=\"1\"/></tree></mmtree>\n";
    expect("DOCTYPE, UTF-7", (const unsigned char *)utf7, strlen(utf7),
           "encoding 'UTF-7' is not supported: mmtree reads XML in UTF-8, UTF-16 and "
           "ISO-8859-1", 1, 31);
    /* Declarations the bytes contradict. */
    size_t len;
    s = doc(" encoding=\"ISO-8859-1\"", "", 4);
    unsigned char *u = utf16(s, true, true, &len);
    expect("UTF-16 declared ISO-8859-1", u, len,
           "the document is UTF-16 but declares encoding 'ISO-8859-1'", 1, 31);
    free(u);
    free(s);
    s = doc(" encoding=\"UTF-16\"", "", 4);
    expect("UTF-8 declared UTF-16", (const unsigned char *)s, strlen(s),
           "the document declares encoding 'UTF-16', but its bytes are not UTF-16", 1, 31);
    free(s);
    s = doc(" encoding=\"US-ASCII\"", "", 4);
    expect("US-ASCII with a byte above 127", (const unsigned char *)s, strlen(s),
           "byte 0xc3 in a document declared US-ASCII", 4, 25);
    free(s);

    mm_tree_release(&want);
    return failures ? 1 : 0;
}
