/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Writing XML trees (schemas/mmtree.xsd) with xmlTextWriter, checking
 * every call's return.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt_common.h"
#include "formats.h"
#include "xml_common.h"

typedef struct xml_writer {
    xmlTextWriterPtr w;
    const mm_tree *t;
    const mm_game *g;
} xml_writer;

/* Every xmlTextWriter call returns < 0 on failure (out of memory). */
#define W(call)          \
    do {                 \
        if ((call) < 0)  \
            goto fail;   \
    } while (0)

static int attr_uint(xmlTextWriterPtr w, const char *name, unsigned long long v)
{
    char num[24];
    snprintf(num, sizeof num, "%llu", v);
    return xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST num);
}

static int attr_bool(xmlTextWriterPtr w, const char *name, bool v)
{
    return xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST(v ? "true" : "false"));
}

static int attr_code(const xml_writer *x, const char *name, mm_code c)
{
    char code[MM_MAX_PEGS + 1];
    mm_code_format(x->g, c, code);
    return xmlTextWriterWriteAttribute(x->w, BAD_CAST name, BAD_CAST code);
}

/* The checks the schema and the reader make of a node, so that what is
 * written reads back: a tree read leniently may break them. */
static mm_status check_node(const xml_writer *x, uint32_t i, mm_diag *d)
{
    const mm_node *n = &x->t->nodes[i];
    uint64_t slots = (UINT64_C(1) << x->g->nreplies) - 1;
    if (n->guess >= x->g->ncodes)
        return mm_diag_set(d, MM_ERR_INPUT, "node %u has no guess", i);
    if (n->count < 1 || n->count > MM_MAX_CODES)
        return mm_diag_set(d, MM_ERR_INPUT, "node %u: a count of %u cannot be written", i,
                           n->count);
    if (n->replies & ~slots || n->replies >> x->g->win & 1u)
        return mm_diag_set(d, MM_ERR_INPUT, "node %u: a child for a reply that has none", i);
    int k = __builtin_popcountll(n->replies);
    if (k && (n->child >= x->t->nnodes || (uint32_t)k > x->t->nnodes - n->child))
        return mm_diag_set(d, MM_ERR_INPUT, "node %u: children out of range", i);
    return MM_OK;
}

static int start_node(const xml_writer *x, uint32_t i, int slot)
{
    const mm_node *n = &x->t->nodes[i];
    if (xmlTextWriterStartElement(x->w, BAD_CAST "node") < 0)
        return -1;
    if (slot >= 0) {
        char reply[4] = {(char)('0' + x->g->black[slot]), ',',
                         (char)('0' + x->g->white[slot]), '\0'};
        if (xmlTextWriterWriteAttribute(x->w, BAD_CAST "reply", BAD_CAST reply) < 0)
            return -1;
    }
    if (attr_code(x, "guess", n->guess) < 0 || attr_uint(x->w, "count", n->count) < 0)
        return -1;
    if (!(n->flags & MM_NODE_CONSISTENT) && attr_bool(x->w, "consistent", false) < 0)
        return -1;
    return 0;
}

/* Preorder with an explicit stack of open nodes (depth <= 64). */
static mm_status write_nodes(const xml_writer *x, mm_diag *d)
{
    struct open_node {
        uint32_t node;
        uint64_t left; /* reply slots whose child is still to come */
    } stack[FMT_MAX_DEPTH];
    int top = 0;
    uint32_t written = 1;
    mm_status st;
    if ((st = check_node(x, 0, d)))
        return st;
    W(start_node(x, 0, -1));
    stack[top++] = (struct open_node){0, x->t->nodes[0].replies};
    while (top) {
        struct open_node *o = &stack[top - 1];
        if (!o->left) {
            W(xmlTextWriterEndElement(x->w));
            top--;
            continue;
        }
        int slot = __builtin_ctzll(o->left);
        o->left &= o->left - 1;
        uint32_t c = mm_tree_child(x->t, o->node, slot);
        if (top == FMT_MAX_DEPTH)
            return mm_diag_set(d, MM_ERR_LIMIT, "the tree is deeper than %d guesses, "
                               "the most the XML format holds", FMT_MAX_DEPTH);
        /* A node reached twice would make the output grow without bound. */
        if (++written > x->t->nnodes)
            return mm_diag_set(d, MM_ERR_INPUT, "node %u is reached twice", c);
        if ((st = check_node(x, c, d)))
            return st;
        W(start_node(x, c, slot));
        stack[top++] = (struct open_node){c, x->t->nodes[c].replies};
    }
    return MM_OK;
fail:
    return mm_diag_set(d, MM_ERR_NOMEM, "out of memory writing XML");
}

static int write_stats(const xml_writer *x)
{
    mm_stats s;
    mm_tree_stats(x->t, &s);
    if (xmlTextWriterStartElement(x->w, BAD_CAST "stats") < 0 ||
        attr_uint(x->w, "codes", s.codes) < 0 || attr_uint(x->w, "total", s.total) < 0 ||
        attr_uint(x->w, "nodes", s.nodes) < 0 ||
        attr_uint(x->w, "inconsistent", s.inconsistent) < 0 ||
        attr_uint(x->w, "worst", (unsigned)s.worst) < 0)
        return -1;
    for (int k = 1; k <= s.worst && k <= FMT_MAX_DEPTH; k++)
        if (xmlTextWriterStartElement(x->w, BAD_CAST "depth") < 0 ||
            attr_uint(x->w, "guesses", (unsigned)k) < 0 ||
            attr_uint(x->w, "codes", s.hist[k - 1]) < 0 ||
            xmlTextWriterEndElement(x->w) < 0)
            return -1;
    return xmlTextWriterEndElement(x->w);
}

static int write_rule(const xml_writer *x)
{
    const mm_provenance *pv = &x->t->prov;
    if (xmlTextWriterStartElement(x->w, BAD_CAST "rule") < 0 ||
        xmlTextWriterWriteAttribute(x->w, BAD_CAST "name", BAD_CAST pv->rule) < 0 ||
        attr_bool(x->w, "consistent-only", pv->consistent_only) < 0 ||
        (pv->first != MM_NO_CODE && attr_code(x, "first", pv->first) < 0) ||
        (pv->tie_break && xmlTextWriterWriteAttribute(x->w, BAD_CAST "tie-break",
                                                      BAD_CAST pv->tie_break) < 0) ||
        (pv->max_depth && attr_uint(x->w, "max-depth", (unsigned)pv->max_depth) < 0) ||
        (pv->extra_colors && attr_uint(x->w, "extra-colors", (unsigned)pv->extra_colors) < 0))
        return -1;
    return xmlTextWriterEndElement(x->w);
}

static int write_proof(const xml_writer *x)
{
    const mm_provenance *pv = &x->t->prov;
    bool proven = pv->proof == MM_PROOF_PROVEN;
    if (xmlTextWriterStartElement(x->w, BAD_CAST "proof") < 0 ||
        xmlTextWriterWriteAttribute(x->w, BAD_CAST "status",
                                    BAD_CAST(proven ? "proven" : "unproven")) < 0 ||
        (!proven && attr_uint(x->w, "lower-bound", pv->lower_total) < 0) ||
        (!proven && pv->lower_worst &&
         attr_uint(x->w, "worst-lower-bound", (unsigned)pv->lower_worst) < 0))
        return -1;
    return xmlTextWriterEndElement(x->w);
}

static int write_provenance(const xml_writer *x)
{
    const mm_provenance *pv = &x->t->prov;
    if (xmlTextWriterStartElement(x->w, BAD_CAST "provenance") < 0 ||
        (pv->rule && write_rule(x) < 0) ||
        (pv->proof != MM_PROOF_NONE && write_proof(x) < 0))
        return -1;
    if (pv->citation && xmlTextWriterWriteElement(x->w, BAD_CAST "citation",
                                                  BAD_CAST pv->citation) < 0)
        return -1;
    return xmlTextWriterEndElement(x->w);
}

mm_status xml_tree_write(const mm_tree *t, const mm_write_opts *o, char **buf,
                       size_t *len, mm_diag *d)
{
    mm_status st;
    mm_game g;
    xml_errors errs = {0};
    xml_handlers saved;
    xmlBufferPtr xb = NULL;
    xml_writer x = {.t = t, .g = &g};
    const mm_provenance *pv = &t->prov;
    size_t bad_at;

    if (!t->nnodes)
        return mm_diag_set(d, MM_ERR_INPUT, "the tree has no node");
    char why[160];
    if (!fmt_provenance_ok(pv, true, why, sizeof why))
        return mm_diag_set(d, MM_ERR_INPUT, "cannot write this provenance: %s", why);
    if (pv->citation && !fmt_text_ok(pv->citation, strlen(pv->citation), &bad_at))
        return mm_diag_set(d, MM_ERR_INPUT, "the citation is not 1-%d characters of "
                           "UTF-8 text (byte %zu)", FMT_TEXT_MAX_CHARS, bad_at);
    if ((st = xml_lib_load(d)))
        return st;
    if ((st = mm_game_init(&g, t->pegs, t->colors, t->repeat, d)))
        return st;
    if (pv->rule && pv->first != MM_NO_CODE && pv->first >= g.ncodes) {
        mm_game_release(&g);
        return mm_diag_set(d, MM_ERR_INPUT, "first guess %u is not a code", pv->first);
    }

    xml_handlers_install(&saved, &errs);
    if (!(xb = xmlBufferCreate()) || !(x.w = xmlNewTextWriterMemory(xb, 0)))
        goto fail;
    W(xmlTextWriterSetIndent(x.w, 1));
    W(xmlTextWriterSetIndentString(x.w, BAD_CAST "  "));
    W(xmlTextWriterStartDocument(x.w, NULL, "UTF-8", NULL));
    W(xmlTextWriterStartElement(x.w, BAD_CAST "mmtree"));
    W(xmlTextWriterWriteAttribute(x.w, BAD_CAST "xmlns", BAD_CAST MM_XML_NS));
    W(xmlTextWriterStartElement(x.w, BAD_CAST "game"));
    W(attr_uint(x.w, "pegs", (unsigned)t->pegs));
    W(attr_uint(x.w, "colors", (unsigned)t->colors));
    W(attr_bool(x.w, "repeat", t->repeat));
    W(xmlTextWriterEndElement(x.w));
    W(write_provenance(&x));
    if (o && o->with_stats)
        W(write_stats(&x));
    W(xmlTextWriterStartElement(x.w, BAD_CAST "tree"));
    if ((st = write_nodes(&x, d)))
        goto out;
    W(xmlTextWriterEndElement(x.w));
    W(xmlTextWriterEndDocument(x.w));
    xmlFreeTextWriter(x.w); /* flushes into xb */
    x.w = NULL;
    size_t n = (size_t)xmlBufferLength(xb);
    char *out = malloc(n + 1);
    if (!out)
        goto fail;
    memcpy(out, xmlBufferContent(xb), n);
    out[n] = '\0';
    *buf = out;
    *len = n;
    st = MM_OK;
    goto out;
fail:
    st = mm_diag_set(d, MM_ERR_NOMEM, "out of memory writing XML");
out:
    xmlFreeTextWriter(x.w);
    xmlBufferFree(xb);
    xml_handlers_restore(&saved);
    mm_game_release(&g);
    return st;
}
