/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * libxml2, opened with dlopen() the first time a document is read or
 * written.  Linking it would load libxml2, ICU and libstdc++ into every
 * run of mmtree: about 2 ms of start-up, a fifth of what a whole MM(4,6)
 * build may take, spent even when no XML is touched.
 *
 * The xml_*.c files include this header and call libxml2
 * by its own names; the macros below send each call through the table.
 * A function used in them but missing here fails to link, since the
 * program no longer links libxml2; a name listed here but absent from the
 * library fails xml_lib_load() with a message, never a crash.
 */
#ifndef MM_XML_LIB_H
#define MM_XML_LIB_H

#include <libxml/xmlreader.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlwriter.h>

#include "mmtree/diag.h"

#ifndef LIBXML_THREAD_ENABLED
#error "mmtree needs a libxml2 built with thread support (its error globals are per thread)"
#endif

#define MM_XML_FUNCS(X)                 \
    X(xmlInitParser)                    \
    X(__xmlStructuredError)             \
    X(__xmlStructuredErrorContext)      \
    X(__xmlGenericError)                \
    X(__xmlGenericErrorContext)         \
    X(xmlSetStructuredErrorFunc)        \
    X(xmlSetGenericErrorFunc)           \
    X(xmlSchemaNewMemParserCtxt)        \
    X(xmlSchemaParse)                   \
    X(xmlSchemaNewValidCtxt)            \
    X(xmlSchemaSetValidStructuredErrors) \
    X(xmlSchemaFreeValidCtxt)           \
    X(xmlSchemaFree)                    \
    X(xmlSchemaFreeParserCtxt)          \
    X(xmlReaderForMemory)               \
    X(xmlTextReaderSchemaValidateCtxt)  \
    X(xmlTextReaderRead)                \
    X(xmlTextReaderNodeType)            \
    X(xmlTextReaderIsEmptyElement)      \
    X(xmlTextReaderIsValid)             \
    X(xmlTextReaderConstLocalName)      \
    X(xmlTextReaderConstNamespaceUri)   \
    X(xmlTextReaderConstValue)          \
    X(xmlTextReaderMoveToFirstAttribute) \
    X(xmlTextReaderMoveToNextAttribute) \
    X(xmlTextReaderMoveToElement)       \
    X(xmlTextReaderGetParserLineNumber) \
    X(xmlTextReaderGetParserColumnNumber) \
    X(xmlTextReaderByteConsumed)        \
    X(xmlTextReaderCurrentDoc)          \
    X(xmlTextReaderCurrentNode)         \
    X(xmlFreeDoc)                       \
    X(xmlFreeTextReader)                \
    X(xmlBufferCreate)                  \
    X(xmlBufferContent)                 \
    X(xmlBufferLength)                  \
    X(xmlBufferFree)                    \
    X(xmlNewTextWriterMemory)           \
    X(xmlTextWriterSetIndent)           \
    X(xmlTextWriterSetIndentString)     \
    X(xmlTextWriterStartDocument)       \
    X(xmlTextWriterEndDocument)         \
    X(xmlTextWriterStartElement)        \
    X(xmlTextWriterEndElement)          \
    X(xmlTextWriterWriteAttribute)      \
    X(xmlTextWriterWriteElement)        \
    X(xmlFreeTextWriter)

typedef struct xml_lib_table {
#define MM_XML_FIELD(f) __typeof__(f) *f;
    MM_XML_FUNCS(MM_XML_FIELD)
#undef MM_XML_FIELD
} xml_lib_table;

/* Filled by xml_lib_load(); read-only afterwards. */
extern xml_lib_table xml_lib;

/* Open libxml2 and initialise its parser, once per process (thread-safe).
 * MM_ERR_IO when the library or one of its functions cannot be found. */
mm_status xml_lib_load(mm_diag *d);

#ifndef MM_XML_LIB_IMPL
#define xmlInitParser (*xml_lib.xmlInitParser)
#define __xmlStructuredError (*xml_lib.__xmlStructuredError)
#define __xmlStructuredErrorContext (*xml_lib.__xmlStructuredErrorContext)
#define __xmlGenericError (*xml_lib.__xmlGenericError)
#define __xmlGenericErrorContext (*xml_lib.__xmlGenericErrorContext)
#define xmlSetStructuredErrorFunc (*xml_lib.xmlSetStructuredErrorFunc)
#define xmlSetGenericErrorFunc (*xml_lib.xmlSetGenericErrorFunc)
#define xmlSchemaNewMemParserCtxt (*xml_lib.xmlSchemaNewMemParserCtxt)
#define xmlSchemaParse (*xml_lib.xmlSchemaParse)
#define xmlSchemaNewValidCtxt (*xml_lib.xmlSchemaNewValidCtxt)
#define xmlSchemaSetValidStructuredErrors (*xml_lib.xmlSchemaSetValidStructuredErrors)
#define xmlSchemaFreeValidCtxt (*xml_lib.xmlSchemaFreeValidCtxt)
#define xmlSchemaFree (*xml_lib.xmlSchemaFree)
#define xmlSchemaFreeParserCtxt (*xml_lib.xmlSchemaFreeParserCtxt)
#define xmlReaderForMemory (*xml_lib.xmlReaderForMemory)
#define xmlTextReaderSchemaValidateCtxt (*xml_lib.xmlTextReaderSchemaValidateCtxt)
#define xmlTextReaderRead (*xml_lib.xmlTextReaderRead)
#define xmlTextReaderNodeType (*xml_lib.xmlTextReaderNodeType)
#define xmlTextReaderIsEmptyElement (*xml_lib.xmlTextReaderIsEmptyElement)
#define xmlTextReaderIsValid (*xml_lib.xmlTextReaderIsValid)
#define xmlTextReaderConstLocalName (*xml_lib.xmlTextReaderConstLocalName)
#define xmlTextReaderConstNamespaceUri (*xml_lib.xmlTextReaderConstNamespaceUri)
#define xmlTextReaderConstValue (*xml_lib.xmlTextReaderConstValue)
#define xmlTextReaderMoveToFirstAttribute (*xml_lib.xmlTextReaderMoveToFirstAttribute)
#define xmlTextReaderMoveToNextAttribute (*xml_lib.xmlTextReaderMoveToNextAttribute)
#define xmlTextReaderMoveToElement (*xml_lib.xmlTextReaderMoveToElement)
#define xmlTextReaderGetParserLineNumber (*xml_lib.xmlTextReaderGetParserLineNumber)
#define xmlTextReaderGetParserColumnNumber (*xml_lib.xmlTextReaderGetParserColumnNumber)
#define xmlTextReaderByteConsumed (*xml_lib.xmlTextReaderByteConsumed)
#define xmlTextReaderCurrentDoc (*xml_lib.xmlTextReaderCurrentDoc)
#define xmlTextReaderCurrentNode (*xml_lib.xmlTextReaderCurrentNode)
#define xmlFreeDoc (*xml_lib.xmlFreeDoc)
#define xmlFreeTextReader (*xml_lib.xmlFreeTextReader)
#define xmlBufferCreate (*xml_lib.xmlBufferCreate)
#define xmlBufferContent (*xml_lib.xmlBufferContent)
#define xmlBufferLength (*xml_lib.xmlBufferLength)
#define xmlBufferFree (*xml_lib.xmlBufferFree)
#define xmlNewTextWriterMemory (*xml_lib.xmlNewTextWriterMemory)
#define xmlTextWriterSetIndent (*xml_lib.xmlTextWriterSetIndent)
#define xmlTextWriterSetIndentString (*xml_lib.xmlTextWriterSetIndentString)
#define xmlTextWriterStartDocument (*xml_lib.xmlTextWriterStartDocument)
#define xmlTextWriterEndDocument (*xml_lib.xmlTextWriterEndDocument)
#define xmlTextWriterStartElement (*xml_lib.xmlTextWriterStartElement)
#define xmlTextWriterEndElement (*xml_lib.xmlTextWriterEndElement)
#define xmlTextWriterWriteAttribute (*xml_lib.xmlTextWriterWriteAttribute)
#define xmlTextWriterWriteElement (*xml_lib.xmlTextWriterWriteElement)
#define xmlFreeTextWriter (*xml_lib.xmlFreeTextWriter)
#endif

#endif
