/*
 * libxml2, opened with dlopen() the first time a document is read or
 * written.  Linking it would load libxml2, ICU and libstdc++ into every
 * run of mmtree: about 2 ms of start-up, a fifth of what a whole MM(4,6)
 * build may take (issue 2), spent even when no XML is touched.
 *
 * xml.c includes this header after the libxml2 headers and calls libxml2
 * by its own names; the macros below send each call through the table.
 * A function used in xml.c but missing here fails to link, since the
 * program no longer links libxml2; a name listed here but absent from the
 * library fails mm_xml_lib_load() with a message, never a crash.
 */
#ifndef MM_XML_LIB_H
#define MM_XML_LIB_H

#include <libxml/xmlreader.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlwriter.h>

#include "mm_diag.h"

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

typedef struct mm_xml_lib {
#define MM_XML_FIELD(f) __typeof__(f) *f;
    MM_XML_FUNCS(MM_XML_FIELD)
#undef MM_XML_FIELD
} mm_xml_lib;

/* Filled by mm_xml_lib_load(); read-only afterwards. */
extern mm_xml_lib mm_xl;

/* Open libxml2 and initialise its parser, once per process (thread-safe).
 * MM_ERR_IO when the library or one of its functions cannot be found. */
mm_status mm_xml_lib_load(mm_diag *d);

#ifndef MM_XML_LIB_IMPL
#define xmlInitParser (*mm_xl.xmlInitParser)
#define __xmlStructuredError (*mm_xl.__xmlStructuredError)
#define __xmlStructuredErrorContext (*mm_xl.__xmlStructuredErrorContext)
#define __xmlGenericError (*mm_xl.__xmlGenericError)
#define __xmlGenericErrorContext (*mm_xl.__xmlGenericErrorContext)
#define xmlSetStructuredErrorFunc (*mm_xl.xmlSetStructuredErrorFunc)
#define xmlSetGenericErrorFunc (*mm_xl.xmlSetGenericErrorFunc)
#define xmlSchemaNewMemParserCtxt (*mm_xl.xmlSchemaNewMemParserCtxt)
#define xmlSchemaParse (*mm_xl.xmlSchemaParse)
#define xmlSchemaNewValidCtxt (*mm_xl.xmlSchemaNewValidCtxt)
#define xmlSchemaSetValidStructuredErrors (*mm_xl.xmlSchemaSetValidStructuredErrors)
#define xmlSchemaFreeValidCtxt (*mm_xl.xmlSchemaFreeValidCtxt)
#define xmlSchemaFree (*mm_xl.xmlSchemaFree)
#define xmlSchemaFreeParserCtxt (*mm_xl.xmlSchemaFreeParserCtxt)
#define xmlReaderForMemory (*mm_xl.xmlReaderForMemory)
#define xmlTextReaderSchemaValidateCtxt (*mm_xl.xmlTextReaderSchemaValidateCtxt)
#define xmlTextReaderRead (*mm_xl.xmlTextReaderRead)
#define xmlTextReaderNodeType (*mm_xl.xmlTextReaderNodeType)
#define xmlTextReaderIsEmptyElement (*mm_xl.xmlTextReaderIsEmptyElement)
#define xmlTextReaderIsValid (*mm_xl.xmlTextReaderIsValid)
#define xmlTextReaderConstLocalName (*mm_xl.xmlTextReaderConstLocalName)
#define xmlTextReaderConstNamespaceUri (*mm_xl.xmlTextReaderConstNamespaceUri)
#define xmlTextReaderConstValue (*mm_xl.xmlTextReaderConstValue)
#define xmlTextReaderMoveToFirstAttribute (*mm_xl.xmlTextReaderMoveToFirstAttribute)
#define xmlTextReaderMoveToNextAttribute (*mm_xl.xmlTextReaderMoveToNextAttribute)
#define xmlTextReaderMoveToElement (*mm_xl.xmlTextReaderMoveToElement)
#define xmlTextReaderGetParserLineNumber (*mm_xl.xmlTextReaderGetParserLineNumber)
#define xmlTextReaderGetParserColumnNumber (*mm_xl.xmlTextReaderGetParserColumnNumber)
#define xmlTextReaderByteConsumed (*mm_xl.xmlTextReaderByteConsumed)
#define xmlFreeTextReader (*mm_xl.xmlFreeTextReader)
#define xmlBufferCreate (*mm_xl.xmlBufferCreate)
#define xmlBufferContent (*mm_xl.xmlBufferContent)
#define xmlBufferLength (*mm_xl.xmlBufferLength)
#define xmlBufferFree (*mm_xl.xmlBufferFree)
#define xmlNewTextWriterMemory (*mm_xl.xmlNewTextWriterMemory)
#define xmlTextWriterSetIndent (*mm_xl.xmlTextWriterSetIndent)
#define xmlTextWriterSetIndentString (*mm_xl.xmlTextWriterSetIndentString)
#define xmlTextWriterStartDocument (*mm_xl.xmlTextWriterStartDocument)
#define xmlTextWriterEndDocument (*mm_xl.xmlTextWriterEndDocument)
#define xmlTextWriterStartElement (*mm_xl.xmlTextWriterStartElement)
#define xmlTextWriterEndElement (*mm_xl.xmlTextWriterEndElement)
#define xmlTextWriterWriteAttribute (*mm_xl.xmlTextWriterWriteAttribute)
#define xmlTextWriterWriteElement (*mm_xl.xmlTextWriterWriteElement)
#define xmlFreeTextWriter (*mm_xl.xmlFreeTextWriter)
#endif

#endif
