/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* Internal: what the XML reader and writer share (schemas/mmtree.xsd):
 * positions in the document, and libxml2's messages captured, never
 * printed. */
#ifndef MM_XML_COMMON_H
#define MM_XML_COMMON_H

#include <stdbool.h>
#include <stddef.h>

#include "mmtree/diag.h"
#include "xml_lib.h"

#define MM_XML_NS "urn:mmtree:tree:1"

#ifdef MM_XML_CONST_ERROR
typedef const xmlError *xml_error_ptr;
#else
typedef xmlErrorPtr xml_error_ptr;
#endif

/* Positions.  libxml2's reader parses ahead of the node it returns, so
 * the parser's line and column are not the node's: element positions come
 * from a scan of the same bytes that finds each start tag in document
 * order, the order in which the reader returns them. */
typedef struct xml_scan {
    const unsigned char *p;
    size_t len, pos;
    unsigned long line, col;
    bool pos_only; /* line and col not kept: xml_scan_position finds them */
} xml_scan;

/* Move to byte offset to, counting lines and characters. */
void xml_scan_to(xml_scan *s, size_t to);
/* Do the bytes at the position start with lit? */
bool xml_scan_has(const xml_scan *s, const char *lit);
/* Move past the next occurrence of lit (or to the end). */
void xml_scan_past(xml_scan *s, const char *lit);
/* Skip comments, processing instructions, CDATA sections and end tags;
 * stop on the '<' of the next start tag (or DOCTYPE); false at the end. */
bool xml_scan_next_tag(xml_scan *s);
/* Line and column of byte offset off. */
void xml_scan_position(const unsigned char *p, size_t len, size_t off,
                       unsigned long *line, unsigned long *col);

/* The document as libxml2 is given it (xml_input.c): UTF-8 without a
 * byte order mark, decoded from UTF-16 or ISO-8859-1 when it was in one
 * of them, free of NUL characters and of elements with more than 32
 * attributes.  At most XML_MAX_BYTES. */
#define XML_MAX_BYTES (1 << 30)

typedef struct xml_input {
    const unsigned char *text;
    size_t len;
    unsigned char *owned;  /* text when it was decoded here, else NULL */
} xml_input;

mm_status xml_input_prepare(const unsigned char *buf, size_t len, xml_input *in,
                            mm_diag *d);
void xml_input_release(xml_input *in);

/* libxml2's first error, kept on one line. */
typedef struct xml_errors {
    bool set;
    bool schema;            /* a validity error (else well-formedness) */
    unsigned long line, col;
    char msg[MM_DIAG_MSG_MAX];
    xmlTextReaderPtr reader; /* reading: placed at the tag it read last */
    const unsigned char *buf;
    size_t len;
} xml_errors;

void xml_on_error(void *ctx, xml_error_ptr err);

/* Handlers are thread-local in libxml2; they are set around each call and
 * the caller's restored afterwards. */
typedef struct xml_handlers {
    xmlStructuredErrorFunc serror;
    void *sctx;
    xmlGenericErrorFunc gerror;
    void *gctx;
} xml_handlers;

void xml_handlers_install(xml_handlers *saved, xml_errors *e);
void xml_handlers_restore(const xml_handlers *saved);

#endif
